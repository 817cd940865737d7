// Order -> Get Many, Simplify on: the compact item is read from the order record as it arrives,
// whatever its shape (orders of any shape given by the sandbox's `fault` with a 200 body, over real
// HTTP through n8n's engine). A field the record lacks is left out, never present with no value;
// lines and shipments that are not records, voided shipments and tracking numbers that are not text
// are not turned into output.
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const ctx = useInventoryOps({ orders: 20 });

const lookUp = (references, extra = {}) =>
	ctx.run({
		resource: 'order',
		operation: 'lookUp',
		lookUpBy: 'list',
		references: JSON.stringify(references),
		...extra,
	});
const answer = (body) => ctx.sandbox.fault({ route: ROUTE, count: 1, status: 200, body });
const referenceOf = ({ store_id, order_number }) => ({ store_id, order_number });

const FAILED = { message: 'Barcode service unavailable', code: 'BARCODE_GENERATION_FAILED' };

// An order whose lines and shipments hold every case the compact item has to sort out.
const mixed = {
	_id: 'order-mixed',
	store_id: '1001',
	order_number: 'A-1',
	status: 'shipped',
	financial_status: 'paid',
	opened_date: '2024-05-01T10:00:00.000Z',
	shipped_date: '2024-05-02T10:00:00.000Z',
	tags: ['vip'],
	notes: 'not kept',
	// A key named like a missing value: only the ten fields are read, never one past them.
	undefined: 'not kept either',
	stash: {
		items: [
			null,
			'a line as text',
			{ sku: 'SKU-0001', quantity: 2, lineName: 'Blue mug', price: 9.5 },
			{ sku: 'SKU-0002' },
			{ quantity: 3 },
			{ lineName: 'Gift wrap' },
		],
	},
	shipments: [
		null,
		'a shipment as text',
		{ voided: true, response: { tracking_number: 'VOIDED-1' } },
		{ response: { tracking_number: '' } },
		{ response: { tracking_number: 12345 } },
		{ response: null },
		{},
		{ voided: false, response: { tracking_number: 'TRACK-1' } },
		{ response: { tracking_number: 'TRACK-2' } },
	],
};
// Orders that carry no lines or shipments the node can read: neither list is invented.
const bare = { _id: 'order-bare', store_id: '1001', order_number: 'A-2' };
const unreadableLists = {
	_id: 'order-lists',
	store_id: '1001',
	order_number: 'A-3',
	stash: { items: 'not a list' },
	shipments: { tracking_number: 'NOT-A-LIST' },
};
const textStash = {
	_id: 'order-text-stash',
	store_id: '1001',
	order_number: 'A-4',
	stash: 'text',
	shipments: [],
};

test('keeps the ten fields, each line as sku, quantity and name it has, and the tracking numbers of shipments not voided', async () => {
	await answer([{ order: mixed, metrics: { matched: true }, barcode_generation_failed: FAILED }]);
	const result = await lookUp([referenceOf(mixed)]);
	expect(result.error).toBeUndefined();
	expect(jsonOf(result.items)).toStrictEqual([
		{
			_id: 'order-mixed',
			store_id: '1001',
			order_number: 'A-1',
			status: 'shipped',
			financial_status: 'paid',
			opened_date: '2024-05-01T10:00:00.000Z',
			shipped_date: '2024-05-02T10:00:00.000Z',
			tags: ['vip'],
			line_items: [
				{ sku: 'SKU-0001', quantity: 2, name: 'Blue mug' },
				{ sku: 'SKU-0002' },
				{ quantity: 3 },
				{ name: 'Gift wrap' },
			],
			tracking_numbers: ['TRACK-1', 'TRACK-2'],
			barcode_generation_failed: FAILED,
		},
	]);
	expect(result.items[0].pairedItem).toEqual({ item: 0 });
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body)).toEqual([
		{ order: [referenceOf(mixed)] },
	]);
});

test('an order without readable lines, shipments or a barcode failure: those fields are left out, not set empty', async () => {
	await answer([{ order: bare }, { order: unreadableLists, metrics: {} }, { order: textStash }]);
	const result = await lookUp([
		referenceOf(bare),
		referenceOf(unreadableLists),
		referenceOf(textStash),
	]);
	expect(result.error).toBeUndefined();
	expect(jsonOf(result.items)).toStrictEqual([
		{ _id: 'order-bare', store_id: '1001', order_number: 'A-2' },
		{ _id: 'order-lists', store_id: '1001', order_number: 'A-3' },
		{ _id: 'order-text-stash', store_id: '1001', order_number: 'A-4', tracking_numbers: [] },
	]);
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(1);
});

test('Simplify off, Output "order": an order without a barcode failure gets no barcode_generation_failed field', async () => {
	await answer([
		{ order: bare, metrics: { matched: true } },
		{ order: mixed, barcode_generation_failed: FAILED },
	]);
	const result = await lookUp([referenceOf(bare), referenceOf(mixed)], {
		simplify: false,
		options: { output: 'order' },
	});
	expect(result.error).toBeUndefined();
	expect(jsonOf(result.items)).toStrictEqual([
		bare,
		{ ...mixed, barcode_generation_failed: FAILED },
	]);
});
