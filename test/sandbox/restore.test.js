// POST {app_base_url}/ship/shipping/restore_inventory (docs/service-interface.md, Restore
// inventory), over real HTTP.
const { start, expectError } = require('./support');

let client;
beforeAll(async () => {
	client = await start();
});
afterAll(() => client.close());
afterEach(() => client.reset());

const restore = (body) => client.app('/ship/shipping/restore_inventory', body);
const shipments = (query) => client.admin.get('/shipments', query).then((body) => body.shipments);
const stockOf = async (itemId, locationId) => {
	const [item] = (await client.admin.get('/items', { item_id: itemId })).items;
	return item.inventory.find((place) => place.location_id === locationId).on_hand;
};

test.each([
	['shipment_id', (shipment) => shipment._id],
	['tracking_number', (shipment) => shipment.response.tracking_number],
	['carrier_shipment_id', (shipment) => shipment.response.shipment_id],
])(
	'selected by %s: puts stock back per location, sets deducted false, answers { _id, shipments }',
	async (selector, valueOf) => {
		const [shipment] = await shipments({ deducted: 'true', limit: 1 });
		const before = await Promise.all(
			shipment.request.order_items.map((line) => stockOf(line.item_id, line.location_id)),
		);
		const response = await restore({
			store_id: shipment.store_id,
			order_number: shipment.order_number,
			[selector]: valueOf(shipment),
		});
		expect(response.status).toBe(200);
		const [order] = (
			await client.admin.get('/orders', {
				store_id: shipment.store_id,
				order_number: shipment.order_number,
			})
		).orders;
		expect(response.data._id).toBe(order._id);
		const restored = response.data.shipments.find((record) => record._id === shipment._id);
		expect(restored.deducted).toBe(false);
		expect(restored.state).toBe('shipped');
		expect(Object.keys(restored).sort()).toEqual([
			'_id',
			'deducted',
			'manual_shipment',
			'request',
			'response',
			'state',
			'time',
		]);
		expect(response.data.shipments).toHaveLength(order.shipments.length);
		const after = await Promise.all(
			shipment.request.order_items.map((line) => stockOf(line.item_id, line.location_id)),
		);
		expect(after).toEqual(
			before.map((onHand, i) => onHand + shipment.request.order_items[i].quantity),
		);
		expect(order.shipments.find((s) => s._id === shipment._id).deducted).toBe(false);
		expect(order.log.at(-1).action).toBe('inventory_restored');
	},
);

test('a shipment record has every field of a shipment record', async () => {
	const [shipment] = await shipments({ limit: 1 });
	expect(Object.keys(shipment.request).sort()).toEqual(
		[
			'_id',
			'address',
			'carrier_account_ids',
			'currency',
			'customs_items',
			'format',
			'insurance_amount',
			'insurance_type',
			'order_items',
			'origin',
			'origin_address',
			'parcel',
			'rate',
			'reference_1',
			'reference_2',
			'return_address',
			'return_label',
			'shipping_date',
			'should_deduct',
			'signature_confirmation',
			'store_id',
		].sort(),
	);
	expect(Object.keys(shipment.response).sort()).toEqual([
		'amount',
		'fees',
		'label_url',
		'provider',
		'service',
		'shipment_id',
		'tracking_number',
	]);
	expect(shipment.request.order_items[0]).toEqual({
		sku: expect.any(String),
		item_id: expect.any(String),
		quantity: expect.any(Number),
		location_id: expect.any(String),
	});
});

test('a second restore of the same shipment is 409 ALREADY_RESTORED and changes nothing', async () => {
	const [shipment] = await shipments({ deducted: 'true', limit: 1 });
	const body = {
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
	};
	expect((await restore(body)).status).toBe(200);
	const line = shipment.request.order_items[0];
	const stock = await stockOf(line.item_id, line.location_id);
	expectError(await restore(body), 409, 'ALREADY_RESTORED');
	expectError(
		await restore({
			...body,
			shipment_id: undefined,
			tracking_number: shipment.response.tracking_number,
		}),
		409,
		'ALREADY_RESTORED',
	);
	expect(await stockOf(line.item_id, line.location_id)).toBe(stock);
});

test('a shipment that never deducted is 409 NOTHING_TO_RESTORE', async () => {
	const [shipment] = await shipments({ deducted: 'false', limit: 1 });
	expect(shipment.request.should_deduct).toBe(false);
	expectError(
		await restore({
			store_id: shipment.store_id,
			order_number: shipment.order_number,
			shipment_id: shipment._id,
		}),
		409,
		'NOTHING_TO_RESTORE',
	);
});

test('unknown order or shipment is 404 SHIPMENT_NOT_FOUND', async () => {
	const [shipment] = await shipments({ deducted: 'true', limit: 1 });
	expectError(
		await restore({
			store_id: '9999',
			order_number: shipment.order_number,
			shipment_id: shipment._id,
		}),
		404,
		'SHIPMENT_NOT_FOUND',
	);
	expectError(
		await restore({
			store_id: shipment.store_id,
			order_number: shipment.order_number,
			tracking_number: 'NOPE',
		}),
		404,
		'SHIPMENT_NOT_FOUND',
	);
	// The shipment exists, but in another order.
	const other = (await shipments({ deducted: 'true', limit: 20 })).find(
		(s) => s.order_number !== shipment.order_number,
	);
	expectError(
		await restore({
			store_id: other.store_id,
			order_number: other.order_number,
			shipment_id: shipment._id,
		}),
		404,
		'SHIPMENT_NOT_FOUND',
	);
});

test('several selectors must all match the same shipment', async () => {
	const [shipment] = await shipments({ deducted: 'true', limit: 1 });
	const body = {
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
	};
	expectError(await restore({ ...body, tracking_number: 'OTHER' }), 404, 'SHIPMENT_NOT_FOUND');
	expect(
		(
			await restore({
				...body,
				tracking_number: shipment.response.tracking_number,
				carrier_shipment_id: shipment.response.shipment_id,
			})
		).status,
	).toBe(200);
});

test('no selector is 400 MISSING_SHIPMENT_SELECTOR; store_id and order_number are required', async () => {
	expectError(
		await restore({ store_id: '1001', order_number: '1000' }),
		400,
		'MISSING_SHIPMENT_SELECTOR',
	);
	expectError(
		await restore({ store_id: '1001', order_number: '1000', tracking_number: '' }),
		400,
		'MISSING_SHIPMENT_SELECTOR',
	);
	expectError(await restore({ order_number: '1000', shipment_id: 'x' }), 400, 'MISSING_FIELD');
	expectError(
		await restore({ store_id: '1001', order_number: '1000', shipment_id: 'x', no_refresh: 'yes' }),
		400,
		'INVALID_FIELD_TYPE',
	);
	// A restore that names nothing (no selector): refused as incomplete.
	expectError(await restore({}), 400, 'MISSING_FIELD');
});

test("no_refresh: true keeps the order record's inventory snapshot; without it the snapshot follows the stock", async () => {
	const candidates = await shipments({ deducted: 'true', limit: 40 });
	const orderOf = async (s) =>
		(await client.admin.get('/orders', { store_id: s.store_id, order_number: s.order_number }))
			.orders[0];
	const snapshotOf = (order, line) =>
		order.inventory.find((p) => p.item_id === line.item_id && p.location_id === line.location_id)
			.on_hand;
	const distinct = candidates.filter(
		(s, i) =>
			candidates.findIndex(
				(c) => c.order_number === s.order_number && c.store_id === s.store_id,
			) === i,
	);
	const [quiet, loud] = distinct;

	const quietLine = quiet.request.order_items[0];
	const quietBefore = snapshotOf(await orderOf(quiet), quietLine);
	expect(
		(
			await restore({
				store_id: quiet.store_id,
				order_number: quiet.order_number,
				shipment_id: quiet._id,
				no_refresh: true,
			})
		).status,
	).toBe(200);
	expect(snapshotOf(await orderOf(quiet), quietLine)).toBe(quietBefore);

	const loudLine = loud.request.order_items[0];
	expect(
		(
			await restore({
				store_id: loud.store_id,
				order_number: loud.order_number,
				shipment_id: loud._id,
				no_refresh: false,
			})
		).status,
	).toBe(200);
	expect(snapshotOf(await orderOf(loud), loudLine)).toBe(
		await stockOf(loudLine.item_id, loudLine.location_id),
	);
});

test('the restored state shows in get_single_bulk and is undone by reset', async () => {
	const [shipment] = await shipments({ deducted: 'true', limit: 1 });
	await restore({
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
	});
	const lookup = () =>
		client.bulk([{ store_id: shipment.store_id, order_number: shipment.order_number }]);
	const shipmentIn = (response) =>
		response.data[0].order.shipments.find((s) => s._id === shipment._id);
	expect(shipmentIn(await lookup()).deducted).toBe(false);
	await client.reset();
	expect(shipmentIn(await lookup()).deducted).toBe(true);
	expect(
		(await shipments({ store_id: shipment.store_id, order_number: shipment.order_number })).find(
			(s) => s._id === shipment._id,
		).deducted,
	).toBe(true);
});

test("restoreChecks 'order-first': the order is looked up before the request is checked, in errorBodies' shape", async () => {
	await client.admin.post('/config', { restoreChecks: 'order-first' });
	// Under order-first, a restore naming no order: 404 order not found, with no code, where
	// request-first says 400.
	const probe = await restore({});
	expect([
		probe.status,
		probe.data.error.message,
		probe.data.error.statusCode,
		'code' in probe.data.error,
	]).toEqual([404, 'order not found', 404, false]);
	expect(
		(await restore({ store_id: '9999', order_number: '1000', shipment_id: 'x' })).data.error
			.message,
	).toBe('order not found');
	// A known order is checked as before: no selector is still 400, a selected shipment is restored.
	expectError(
		await restore({ store_id: '1001', order_number: '1000' }),
		400,
		'MISSING_SHIPMENT_SELECTOR',
	);
	const [shipment] = await shipments({ deducted: 'true', limit: 1 });
	expect(
		(
			await restore({
				store_id: shipment.store_id,
				order_number: shipment.order_number,
				shipment_id: shipment._id,
			})
		).status,
	).toBe(200);
	await client.admin.post('/config', { errorBodies: 'text' });
	const text = await restore({});
	expect([text.status, text.data]).toEqual([404, 'order not found']);
});
