// Order -> Get Many, orders that come back without store_id: an order_number the batch asked for in
// two stores cannot be placed, so both references are asked again apart, and the call made for each
// alone decides its result. First answers are given by the sandbox's `fault` with a 200 body; the
// calls asked apart reach the real sandbox (or a queued answer), over real HTTP through n8n's
// engine.
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const ctx = useInventoryOps({ orders: 20 });

const byList = {
	resource: 'order',
	operation: 'lookUp',
	lookUpBy: 'list',
	references: '={{ [$json] }}',
	simplify: false,
};
const answer = (body) => ctx.sandbox.fault({ route: ROUTE, count: 1, status: 200, body });
const referenceOf = ({ store_id, order_number }) => ({ store_id, order_number });
const withoutStoreId = ({ store_id: _storeId, ...order }) => order;

let a; // two seeded orders with the same order_number in two stores
let b;
beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 20 });
	[a, b] = orders.filter((order) => order.order_number === orders[0].order_number);
});

test("an unreadable entry beside an order that could be either store's: both references asked apart get their orders, no error", async () => {
	await answer([{ order: withoutStoreId(b) }, 42]);
	const result = await ctx.run(byList, {
		items: [referenceOf(a), referenceOf(b)],
		continueOnFail: true,
	});
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
	// The shared call gives a's reference an order (with store_id), then one without store_id for the
	// shared number: both are asked apart, and a's own call finds nothing.
	await answer([{ order: { ...a, _id: 'from-the-shared-call' } }, { order: withoutStoreId(b) }]);
	await answer([]);
	const result = await ctx.run(byList, {
		items: [referenceOf(a), referenceOf(b)],
		continueOnFail: true,
	});
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

test('after a refused batch was halved, a part of the kept size that holds one number twice is split by number, not sent whole and asked apart', async () => {
	// The service refuses more than 2 references and answers without store_id. Batch 1 (4 references)
	// is refused, its halves go through, and 2 becomes the size sent; its answers lack store_id, so
	// from then on one call carries a number once. Batch 2 is a and b (one number, two stores):
	// exactly the kept size, it is split by number at once (found by the full mutation run: "length >
	// size" read as ">=" sent it whole, then asked apart).
	await ctx.sandbox.config({
		bulkOrderFields: 'noStoreId',
		bulkMaxLength: 2,
		bulkTooLongStatus: 413,
	});
	// One order of each of four other numbers: each number once in its batch.
	const byNumber = new Map();
	for (const order of await ctx.sandbox.orders({ limit: 200 })) {
		if (order.order_number !== a.order_number && !byNumber.has(order.order_number))
			byNumber.set(order.order_number, order);
	}
	const unique = [...byNumber.values()].slice(0, 4).map(referenceOf);
	expect(unique).toHaveLength(4);
	const references = [...unique, referenceOf(a), referenceOf(b)];
	const parameters = { ...byList, options: { batchSize: 4, callsInFlight: 1 } };
	const result = await ctx.run(parameters, { items: references, continueOnFail: true });
	expect(jsonOf(result.items).map((item) => item.error)).toEqual(Array(6).fill(undefined));
	expect(jsonOf(result.items).map((item) => item.order_number)).toEqual(
		references.map((ref) => ref.order_number),
	);
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => [call.status, call.body.order])).toEqual([
		[413, unique.slice(0, 4)],
		[200, unique.slice(0, 2)],
		[200, unique.slice(2, 4)],
		[200, [referenceOf(a)]],
		[200, [referenceOf(b)]],
	]);
});
