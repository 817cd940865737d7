// POST {base_url}/order/get_single_bulk (docs/service-interface.md, Bulk order lookup) and its
// switches, over real HTTP.
const { start, expectError } = require('./support');

const ORDER_FIELDS = [
	'_id',
	'store_id',
	'order_number',
	'status',
	'financial_status',
	'type',
	'stash',
	'backup_stash',
	'log',
	'items',
	'scans',
	'misscans',
	'notes',
	'shipments',
	'fulfillments',
	'transactions',
	'returns',
	'tags',
	'purchase_orders',
	'inventory',
	'barcodes',
	'parent_order_number',
	'source_store_id',
	'source_order_number',
	'manual_order_number',
	'combined_order_numbers',
	'base_order_number',
	'batch_number',
	'overriden',
	'processing',
	'channel_status',
	'location',
	'shipped_date',
	'opened_date',
	'marked_as_shipped',
	'warehouse_id',
	'internal_order_number',
	'shipping_memory_hash',
	'shipping_memory',
	'packaging',
	'delivery_instructions',
];
const SNAPSHOT_FIELDS = [
	'store_id',
	'id',
	'date',
	'items',
	'shipping_information',
	'total',
	'tax',
	'shipping',
	'discount',
	'notes',
	'alternate_order_id',
	'order_id',
	'currency',
];
const LINE_FIELDS = [
	'id',
	'variant_id',
	'lineName',
	'quantity',
	'price',
	'sku',
	'line_id',
	'metadata',
	'dropshipped',
];
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let client;
beforeAll(async () => {
	client = await start();
});
afterAll(() => client.close());
afterEach(() => client.reset());

const ref = (store_id, order_number) => ({ store_id, order_number });
const pairs = (entries) =>
	entries.map((entry) => `${entry.order.store_id}/${entry.order.order_number}`);

test('an empty order[] is 200 []', async () => {
	const response = await client.bulk([]);
	expect(response.status).toBe(200);
	expect(response.data).toEqual([]);
});

test('the same order number in two stores is two orders: only the pair identifies one', async () => {
	const response = await client.bulk([ref('1001', '1000'), ref('1003', '1000')]);
	expect(response.status).toBe(200);
	expect(pairs(response.data)).toEqual(['1001/1000', '1003/1000']);
	expect(response.data[0].order._id).not.toBe(response.data[1].order._id);
});

test('results come in request order by default', async () => {
	const wanted = [
		ref('1004', '1010'),
		ref('1001', '1002'),
		ref('1002', '1100'),
		ref('1003', '1001'),
	];
	const response = await client.bulk(wanted);
	expect(pairs(response.data)).toEqual(wanted.map((w) => `${w.store_id}/${w.order_number}`));
});

test('a matched entry carries the order with every field of an order record and metrics', async () => {
	// Order index 5 (store 1002, number 1001) is shipped with shipments, scans and a full set of
	// data.
	const [entry] = (await client.bulk([ref('1002', '1001')])).data;
	expect(Object.keys(entry.order).sort()).toEqual([...ORDER_FIELDS].sort());
	expect(entry.metrics).toEqual({
		matched: true,
		line_count: entry.order.items.length,
		shipment_count: entry.order.shipments.length,
	});
	const { order } = entry;
	for (const snapshot of [order.stash, order.backup_stash]) {
		expect(Object.keys(snapshot).sort()).toEqual([...SNAPSHOT_FIELDS].sort());
		expect(snapshot.items.length).toBeGreaterThan(0);
		for (const line of snapshot.items)
			expect(Object.keys(line).sort()).toEqual([...LINE_FIELDS].sort());
		expect(snapshot.date).toMatch(/^\d{4}-\d\d-\d\d$/);
	}
	expect(order.status).toBe('shipped');
	expect(order.shipped_date).toMatch(ISO_TIME);
	expect(order.opened_date).toMatch(ISO_TIME);
	expect(order.shipments.length).toBeGreaterThan(0);
	expect(Object.keys(order.shipments[0]).sort()).toEqual([
		'_id',
		'deducted',
		'request',
		'response',
		'return_label',
		'time',
		'user_id',
		'voided',
	]);
	expect(order.scans.length).toBeGreaterThan(0);
	expect(order.scans[0]).toEqual(
		expect.objectContaining({
			_id: expect.any(String),
			quantity: expect.any(Number),
			deducted: expect.any(Boolean),
		}),
	);
	expect(order.notes[0].type).toBe('internal');
	expect(order.fulfillments[0].tracking_number).toBe(order.shipments[0].response.tracking_number);
	expect(order.inventory.length).toBeGreaterThan(0);
	expect(order.barcodes.length).toBe(order.items.length);
	expect(typeof order.overriden).toBe('boolean');
	expect(typeof order.batch_number).toBe('number');
	expect(order.log[0].time).toMatch(ISO_TIME);
});

test('the seed has unstarted, pending and manual samples, shipments that deducted and some that did not', async () => {
	const orders = await client.admin.get('/orders', { limit: 60 }).then((body) => body.orders);
	expect(orders).toHaveLength(60);
	expect(orders.map((order) => order.status)).toContain('unstarted');
	expect(orders.map((order) => order.financial_status)).toContain('pending');
	expect(orders.map((order) => order.type)).toContain('manual');
	const deducted = orders.flatMap((order) => order.shipments.map((shipment) => shipment.deducted));
	expect(deducted).toContain(true);
	expect(deducted).toContain(false);
	expect(
		orders.some((order) => order.returns.length > 0 && order.purchase_orders.length === 0),
	).toBe(true);
	expect(orders.some((order) => order.purchase_orders.length > 0)).toBe(true);
});

test('every 50th seeded order carries barcode_generation_failed in its entry', async () => {
	// Index 49 is store 1002, number 1012; index 99 is store 1004, number 1024.
	const response = await client.bulk([
		ref('1002', '1012'),
		ref('1001', '1012'),
		ref('1004', '1024'),
	]);
	const failures = response.data.map((entry) => entry.barcode_generation_failed);
	expect(failures[0]).toEqual({
		message: expect.stringContaining('Barcode generation failed'),
		code: 'BARCODE_GENERATION_FAILED',
	});
	expect(failures[1]).toBeUndefined();
	expect(failures[2]).toEqual(expect.objectContaining({ code: 'BARCODE_GENERATION_FAILED' }));
});

test('an unmatched pair is omitted by default', async () => {
	const response = await client.bulk([
		ref('1001', '1000'),
		ref('9999', '1000'),
		ref('1001', 'nope'),
	]);
	expect(pairs(response.data)).toEqual(['1001/1000']);
});

test('bulkUnmatched: entry answers an entry without order for an unmatched pair', async () => {
	await client.sandbox.config({ bulkUnmatched: 'entry' });
	const response = await client.bulk([ref('9999', '1000'), ref('1001', '1000')]);
	expect(response.data[0]).toEqual({
		store_id: '9999',
		order_number: '1000',
		metrics: { matched: false },
	});
	expect(response.data[0]).not.toHaveProperty('order');
	expect(response.data[1].order.order_number).toBe('1000');
});

test('bulkOrder: shuffled returns the same entries never in request order', async () => {
	await client.sandbox.config({ bulkOrder: 'shuffled' });
	const wanted = [
		ref('1001', '1000'),
		ref('1002', '1000'),
		ref('1003', '1000'),
		ref('1004', '1000'),
		ref('1001', '1001'),
	];
	const expected = wanted.map((w) => `${w.store_id}/${w.order_number}`);
	for (let round = 0; round < 5; round++) {
		const got = pairs((await client.bulk(wanted)).data);
		expect([...got].sort()).toEqual([...expected].sort());
		expect(got).not.toEqual(expected);
	}
	const two = pairs((await client.bulk(wanted.slice(0, 2))).data);
	expect(two).toEqual([expected[1], expected[0]]);
});

test('a pair asked twice gives one entry', async () => {
	const response = await client.bulk([
		ref('1001', '1000'),
		ref('1002', '1000'),
		ref('1001', '1000'),
	]);
	expect(pairs(response.data)).toEqual(['1001/1000', '1002/1000']);
});

test('order[] longer than bulkMaxLength is 400 ARRAY_TOO_LONG; the limit is a switch', async () => {
	const many = (n) => Array.from({ length: n }, (_, i) => ref('1001', String(1000 + i)));
	expect((await client.bulk(many(500))).status).toBe(200);
	const error = expectError(await client.bulk(many(501)), 400, 'ARRAY_TOO_LONG');
	expect(error.message).toContain('500');
	await client.sandbox.config({ bulkMaxLength: 3 });
	expect((await client.bulk(many(3))).data).toHaveLength(3);
	expectError(await client.bulk(many(4)), 400, 'ARRAY_TOO_LONG');
});

test('bulkTooLongStatus 413 refuses a too-long order[] with 413 instead', async () => {
	await client.sandbox.config({ bulkMaxLength: 2, bulkTooLongStatus: 413 });
	expectError(
		await client.bulk([ref('1001', '1000'), ref('1002', '1000'), ref('1003', '1000')]),
		413,
		'PAYLOAD_TOO_LARGE',
	);
	expect((await client.bulk([ref('1001', '1000')])).status).toBe(200);
});

test('bulkReferencePattern refuses the whole batch with 400 when one order_number does not match', async () => {
	await client.sandbox.config({ bulkReferencePattern: '^[0-9]+$' });
	const error = expectError(
		await client.bulk([ref('1001', '1000'), ref('1001', 'A-1')]),
		400,
		'VALIDATION_ERROR',
	);
	expect(error.message).toBe('body.order[1].order_number is not a valid order number');
	expect((await client.bulk([ref('1001', '1000')])).status).toBe(200);
});

test('bulkOrderFields noStoreId answers order records without store_id', async () => {
	await client.sandbox.config({ bulkOrderFields: 'noStoreId' });
	const response = await client.bulk([ref('1001', '1000'), ref('1002', '1000')]);
	expect(response.data.map((entry) => [entry.order.store_id, entry.order.order_number])).toEqual([
		[undefined, '1000'],
		[undefined, '1000'],
	]);
});

test('bulkEntries bare answers the order records themselves; a barcode failure at their top; unmatched entries as set', async () => {
	const wanted = [ref('1002', '1012'), ref('1001', '1000'), ref('9999', '1000')];
	await client.sandbox.config({ bulkUnmatched: 'entry' });
	const wrapped = (await client.bulk(wanted)).data;
	await client.sandbox.config({ bulkEntries: 'bare' });
	const bare = (await client.bulk(wanted)).data;
	// Index 49 (store 1002, number 1012) is one whose barcode generation failed.
	expect(bare[0]).toEqual({
		...wrapped[0].order,
		barcode_generation_failed: wrapped[0].barcode_generation_failed,
	});
	expect(bare[1]).toEqual(wrapped[1].order);
	expect(Object.keys(bare[1]).sort()).toEqual([...ORDER_FIELDS].sort());
	expect(bare[2]).toEqual({ store_id: '9999', order_number: '1000', metrics: { matched: false } });
	await client.sandbox.config({ bulkOrderFields: 'noStoreId' });
	const { store_id: _storeId, ...withoutStoreId } = wrapped[1].order;
	expect((await client.bulk([ref('1001', '1000')])).data).toEqual([withoutStoreId]);
});

test('a member without store_id is 400 MISSING_FIELD', async () => {
	const error = expectError(
		await client.bulk([ref('1001', '1000'), { order_number: '1000' }]),
		400,
		'MISSING_FIELD',
	);
	expect(error.message).toBe('body.order[1].store_id is required');
});

test('the seed is deterministic: the same seed gives the same orders, another seed other ones', async () => {
	const same = await require('./support').start({ seed: 1, orders: 200 });
	const other = await require('./support').start({ seed: 2, orders: 200 });
	try {
		const wanted = [ref('1001', '1000'), ref('1003', '1040')];
		const mine = (await client.bulk(wanted)).data;
		expect((await same.bulk(wanted)).data).toEqual(mine);
		const theirs = (await other.bulk(wanted)).data;
		expect(theirs.map((entry) => entry.order._id)).not.toEqual(
			mine.map((entry) => entry.order._id),
		);
	} finally {
		await Promise.all([same.close(), other.close()]);
	}
});

test('the number of orders is an option; 100,000 orders are indexed and served lazily', async () => {
	const big = await require('./support').start({ orders: 100_000 });
	try {
		// Order index 99,999 is store 1004, number 1000 + 24,999.
		const response = await big.bulk([ref('1004', '25999'), ref('1001', '26000')]);
		expect(pairs(response.data)).toEqual(['1004/25999']);
		expect(response.data[0].order.shipments).toBeInstanceOf(Array);
		const byNumber = (await big.admin.get('/orders', { order_number: '25999' })).orders;
		expect(byNumber.map((o) => o.store_id)).toEqual(['1001', '1002', '1003', '1004']);
	} finally {
		await big.close();
	}
});
