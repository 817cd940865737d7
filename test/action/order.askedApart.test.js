// Order -> Get Many, orders that come back without store_id: an order_number the batch asked for in two stores
// cannot be placed, so both references are asked again apart, and the call made for each alone decides its result.
// First answers are given by the sandbox's `fault` with a 200 body; the calls asked apart reach the real sandbox
// (or a queued answer), over real HTTP through n8n's engine.
const { useInventoryOps, jsonOf } = require('../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const ctx = useInventoryOps({ orders: 20 });

const byList = { resource: 'order', operation: 'lookUp', lookUpBy: 'list', references: '={{ [$json] }}', simplify: false };
const answer = (body) => ctx.sandbox.fault({ route: ROUTE, count: 1, status: 200, body });
const referenceOf = ({ store_id, order_number }) => ({ store_id, order_number });
const withoutStoreId = ({ store_id: _storeId, ...order }) => order;

let a; // two seeded orders with the same order_number in two stores
let b;
beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 20 });
	[a, b] = orders.filter((order) => order.order_number === orders[0].order_number);
});

test('an unreadable entry beside an order that could be either store\'s: both references asked apart get their orders, no error', async () => {
	await answer([{ order: withoutStoreId(b) }, 42]);
	const result = await ctx.run(byList, { items: [referenceOf(a), referenceOf(b)], continueOnFail: true });
	expect(jsonOf(result.items).map((item) => item.error)).toEqual([undefined, undefined]);
	expect(jsonOf(result.items).map((item) => item._id)).toEqual([a._id, b._id]);
	expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls.map((call) => call.body.order)).toEqual([
		[referenceOf(a), referenceOf(b)],
		[referenceOf(a)],
		[referenceOf(b)],
	]);
});

test('a reference asked apart keeps what its own call answered, not an order the shared call gave it', async () => {
	// The shared call gives a's reference an order (with store_id), then one without store_id for the shared number:
	// both are asked apart, and a's own call finds nothing.
	await answer([{ order: { ...a, _id: 'from-the-shared-call' } }, { order: withoutStoreId(b) }]);
	await answer([]);
	const result = await ctx.run(byList, { items: [referenceOf(a), referenceOf(b)], continueOnFail: true });
	const [first, second] = jsonOf(result.items);
	expect(first).toEqual({ found: false, ...referenceOf(a) });
	expect(second._id).toBe(b._id);
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls.map((call) => call.body.order)).toEqual([
		[referenceOf(a), referenceOf(b)],
		[referenceOf(a)],
		[referenceOf(b)],
	]);
});

test('an order without store_id whose number no reference of the batch asked for is given to no one', async () => {
	await answer([{ order: { ...withoutStoreId(a), order_number: 'NOT-ASKED', _id: 'stray' } }]);
	const result = await ctx.run(byList, { items: [referenceOf(a)], continueOnFail: true });
	expect(jsonOf(result.items)).toEqual([{ found: false, ...referenceOf(a) }]);
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(1);
});
