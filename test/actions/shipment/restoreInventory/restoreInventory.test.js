// Shipment -> Restore Inventory through n8n's engine against the sandbox ({app_base_url}, the /s
// address).
const { useInventoryOps } = require('../../../helpers/inventoryOps');

const ROUTE = '/s/ship/shipping/restore_inventory';
const ctx = useInventoryOps({ orders: 50 });
let order; // a seeded order with a shipment that deducted inventory

beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 50 });
	order = orders.find((candidate) =>
		candidate.shipments.some((shipment) => shipment.deducted && !shipment.voided),
	);
});

const shipmentOf = () => order.shipments.find((shipment) => shipment.deducted && !shipment.voided);
const parameters = (extra = {}) => ({
	resource: 'shipment',
	operation: 'restoreInventory',
	storeId: order.store_id,
	orderNumber: order.order_number,
	...extra,
});

test('sends the selectors given and no_refresh to the app base URL, and outputs the answer', async () => {
	const shipment = shipmentOf();
	const result = await ctx.run(
		parameters({ trackingNumber: shipment.response.tracking_number, noRefresh: true }),
	);
	expect(result.error).toBeUndefined();
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls.map((call) => call.body)).toEqual([
		{
			store_id: order.store_id,
			order_number: order.order_number,
			tracking_number: shipment.response.tracking_number,
			no_refresh: true,
		},
	]);
	const restored = result.items[0].json.shipments.find((record) => record._id === shipment._id);
	expect(result.items).toEqual([
		{
			json: {
				restored: true,
				_id: order._id,
				shipments: expect.any(Array),
				restoredShipment: restored,
				restoredItems: restored.request.order_items,
			},
			pairedItem: { item: 0 },
		},
	]);
	expect(restored.deducted).toBe(false);
	expect(restored.request.order_items.length).toBeGreaterThan(0);
});

test('"Split Into Shipments" outputs one item per shipment record, each paired with its item', async () => {
	const shipment = shipmentOf();
	const result = await ctx.run(
		parameters({ shipmentId: shipment._id, options: { splitShipments: true } }),
	);
	expect(result.error).toBeUndefined();
	expect(result.items.length).toBe(order.shipments.length);
	expect(
		result.items.every((item) => item.pairedItem.item === 0 && typeof item.json._id === 'string'),
	).toBe(true);
	expect(result.items.filter((item) => item.json.restored).map((item) => item.json._id)).toEqual([
		shipment._id,
	]);
	expect((await ctx.sandbox.calls(ROUTE))[0].body).toEqual({
		store_id: order.store_id,
		order_number: order.order_number,
		shipment_id: shipment._id,
		no_refresh: false,
	});
});

test('without any shipment selector the item fails before a call, naming the field', async () => {
	const result = await ctx.run(parameters(), { continueOnFail: true });
	expect(result.items).toEqual([
		{
			json: {
				error:
					"Item 0: 'Shipment ID' is empty, and so are Tracking Number and Carrier Shipment ID: give at least one",
				details: { description: "Fix the value of 'Shipment ID' in input item 0 and run again." },
			},
			pairedItem: { item: 0 },
		},
	]);
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(0);
});

test('an answer lost after the service restored: the node fails and the restore was sent exactly once', async () => {
	const shipment = shipmentOf();
	await ctx.sandbox.fault({ route: ROUTE, count: 1, drop: 'after' });
	const result = await ctx.run(parameters({ carrierShipmentId: shipment.response.shipment_id }));
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'noAnswer',
		changeApplied: 'maybe',
		sent: true,
	});
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(1);
	const [after] = await ctx.sandbox.orders({
		store_id: order.store_id,
		order_number: order.order_number,
	});
	expect(after.shipments.find((record) => record._id === shipment._id).deducted).toBe(false);
});
