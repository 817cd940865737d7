// Shipment -> Restore Inventory: what the item says when the service's 200 answer lacks parts
// (answers given by the sandbox's `fault`), and a selector that is not text, over real HTTP through
// n8n's engine.
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/s/ship/shipping/restore_inventory';
const ctx = useInventoryOps({ orders: 20 });

const answer = (body) => ctx.sandbox.fault({ route: ROUTE, count: 1, status: 200, body });
const restore = (extra = {}, runOptions = {}) =>
	ctx.run(
		{
			resource: 'shipment',
			operation: 'restoreInventory',
			storeId: 'S1',
			orderNumber: 'O1',
			shipmentId: 'ship-2',
			...extra,
		},
		{ continueOnFail: true, ...runOptions },
	);
const record = (id, quantity) => ({
	_id: id,
	response: { tracking_number: `T-${id}`, shipment_id: `carrier-${id}` },
	request: { order_items: [{ sku: 'SKU-1', item_id: 'item-1', quantity, location_id: 'loc-1' }] },
	deducted: false,
});
const LACKS_BOTH =
	'_id (got nothing); the restored shipment (got no record matching the shipment asked for)';

test('an answer without _id or the restored record: one item naming both in its notice, no restoredShipment or restoredItems', async () => {
	await answer({ shipments: [record('ship-1', 1)] });
	const result = await restore();
	expect(jsonOf(result.items)).toStrictEqual([
		{
			restored: true,
			shipments: [record('ship-1', 1)],
			missingFromAnswer: [
				'_id (got nothing)',
				'the restored shipment (got no record matching the shipment asked for)',
			],
			notice: `The service restored the inventory, but its answer lacks: ${LACKS_BOTH}. Do not run this item again.`,
		},
	]);
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body)).toEqual([
		{ store_id: 'S1', order_number: 'O1', shipment_id: 'ship-2', no_refresh: false },
	]);
});

test('the restored record without request.order_items: restoredShipment, and no restoredItems field at all', async () => {
	const bare = { ...record('ship-2', 3), request: {} };
	await answer({ _id: 'order-1', shipments: [record('ship-1', 1), bare] });
	const result = await restore();
	expect(jsonOf(result.items)).toStrictEqual([
		{
			restored: true,
			_id: 'order-1',
			shipments: [record('ship-1', 1), bare],
			restoredShipment: bare,
			missingFromAnswer: ["the restored shipment's request.order_items"],
			notice:
				"The service restored the inventory, but its answer lacks: the restored shipment's request.order_items. Do not run this item again.",
		},
	]);
});

test('split, an empty shipments list and no _id: the one item names everything the answer lacks', async () => {
	await answer({ shipments: [] });
	const result = await restore({ options: { splitShipments: true } });
	expect(jsonOf(result.items)).toStrictEqual([
		{
			restored: true,
			shipments: [],
			notice: `The service restored the inventory, but its answer lacks: ${LACKS_BOTH}. It holds no shipment records to split into: this item stands for the restore. Do not run this item again.`,
			missingFromAnswer: [
				'_id (got nothing)',
				'the restored shipment (got no record matching the shipment asked for)',
			],
		},
	]);
	expect(result.items[0].pairedItem).toEqual({ item: 0 });
});

test.each([
	[{ id: 'carrier-ship-2' }, 'an object'],
	[['carrier-ship-2'], 'a list'],
])(
	'a Carrier Shipment ID that is not text (%j) fails the item naming the field and what it got, and nothing is sent',
	async (carrier, got) => {
		const result = await restore(
			{ shipmentId: '', carrierShipmentId: '={{ $json.carrier }}' },
			{ items: [{ carrier }] },
		);
		expect(jsonOf(result.items)).toEqual([
			{
				error: `Item 0: 'Carrier Shipment ID' must be text, got ${got}`,
				details: {
					description: "Fix the value of 'Carrier Shipment ID' in input item 0 and run again.",
				},
			},
		]);
		expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(0);
	},
);
