// Order -> Get Many, "If an Order Is Not Found": Fail the Item. The error names the item and the
// pair, and says what to do, with the node stopping or continuing; over real HTTP against the
// sandbox through n8n's engine.
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const ctx = useInventoryOps({ orders: 20 });

const parameters = {
	resource: 'order',
	operation: 'lookUp',
	lookUpBy: 'list',
	references: '={{ [$json] }}',
	options: { unmatched: 'error' },
};
const DESCRIPTION =
	'The service returned no order for this pair. Check both values, or set "If an Order Is Not Found" to output an item instead.';

let known;
beforeAll(async () => {
	const [order] = await ctx.sandbox.orders({ limit: 1 });
	known = { store_id: order.store_id, order_number: order.order_number };
});

test('the error names the item and the pair, and says how to check it or output an item instead', async () => {
	const missing = { store_id: '1002', order_number: 'NO-SUCH-ORDER' };
	const result = await ctx.run(parameters, { items: [known, missing] });
	expect(result.items).toEqual([]);
	expect(result.error).toMatchObject({
		name: 'NodeOperationError',
		message: "Item 1: no order found for store_id '1002' and order_number 'NO-SUCH-ORDER'",
		description: DESCRIPTION,
		context: expect.objectContaining({ itemIndex: 1 }),
	});
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body)).toEqual([
		{ order: [known, missing] },
	]);

	const continued = await ctx.run(parameters, { items: [known, missing], continueOnFail: true });
	expect(continued.items[1]).toEqual({
		json: {
			error: "Item 1: no order found for store_id '1002' and order_number 'NO-SUCH-ORDER'",
			details: { description: DESCRIPTION },
		},
		pairedItem: { item: 1 },
	});
	expect(jsonOf(continued.items)[0].order_number).toBe(known.order_number);
});
