// Order -> Get Many through n8n's engine against the sandbox: batching across items, mapping back
// by (store_id, order_number) whatever the service's result order, unmatched references, failed
// batches.
const { answers } = require('../../../helpers/profile');
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const BY_FIELDS = {
	resource: 'order',
	operation: 'lookUp',
	lookUpBy: 'storeAndOrderNumber',
	storeId: '={{ $json.store_id }}',
	orderNumber: '={{ $json.order_number }}',
};

const ctx = useInventoryOps({ orders: 2000 });
let known; // [{ store_id, order_number }] of seeded orders
let keyById; // order _id -> 'store_id/order_number'

// How the profile's service answers a lookup (test/helpers/profile.js). Orders without store_id are
// known by their _id; the node then asks a batch's shared order numbers apart, and a service limit
// below the node's Batch Size (100) makes it halve refused batches: the calls are then more than
// one per batch of 100, and are checked for what must hold whatever the answers
// (test/actions/order/lookUp/lookUp.limits.test.js counts them under set switches).
const WITHOUT_STORE_ID = answers.bulkOrderFields === 'noStoreId';
const ONE_CALL_PER_BATCH = !WITHOUT_STORE_ID && answers.bulkMaxLength >= 100;
const batchesOf = (references, size) =>
	Array.from({ length: Math.ceil(references.length / size) }, (_, index) =>
		references.slice(index * size, index * size + size),
	);
const distinctOf = (references) =>
	[...new Set(references.map((reference) => JSON.stringify(reference)))].map((text) =>
		JSON.parse(text),
	);

beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 2000 });
	known = orders.map(({ store_id, order_number }) => ({ store_id, order_number }));
	keyById = new Map(orders.map((order) => [order._id, `${order.store_id}/${order.order_number}`]));
});

/**
 * Which order an output item holds, as 'store_id/order_number' (by its _id when the answer has no
 * store_id).
 */
const orderKey = (json) =>
	WITHOUT_STORE_ID
		? json && keyById.get(json._id)
		: json && `${json.store_id}/${json.order_number}`;
const orderKeys = (items) => jsonOf(items).map(orderKey);
const keysOf = (references) =>
	references.map(({ store_id, order_number }) => `${store_id}/${order_number}`);

/**
 * The lookup calls: exactly `expected` (bodies' order lists) when the service answers as
 * documented; otherwise every accepted call within the service's limit, and together asking for
 * exactly the references of `expected`.
 */
function expectCalls(calls, expected, batchSize = 100) {
	if (!WITHOUT_STORE_ID && answers.bulkMaxLength >= batchSize) {
		// Calls in flight may reach the service in any order.
		const texts = (lists) => lists.map((list) => JSON.stringify(list)).sort();
		expect(texts(calls.map((call) => call.body.order))).toEqual(texts(expected));
		return;
	}
	const accepted = calls.filter((call) => call.status === 200);
	expect(accepted.every((call) => call.body.order.length <= answers.bulkMaxLength)).toBe(true);
	expect(new Set(keysOf(accepted.flatMap((call) => call.body.order)))).toEqual(
		new Set(keysOf(expected.flat())),
	);
}

const missing = (n) => ({ store_id: '1001', order_number: `no-such-order-${n}` });

/**
 * Input item i asks for order i % 2500: indexes from 2000 on do not exist, and every order is asked
 * for repeatedly.
 */
function inputItems(count) {
	return Array.from({ length: count }, (_, i) => {
		const index = i % 2500;
		return index < known.length ? known[index] : missing(index);
	});
}

/**
 * Checks each output item answers exactly the reference its paired input item asked for. Mismatches
 * are collected and compared once, because 10,000 separate matcher calls would cost seconds.
 */
function expectMappedBack(input, output, { unmatched }) {
	const knownKeys = new Set(known.map((order) => `${order.store_id}/${order.order_number}`));
	const byItem = new Map();
	const problems = [];
	for (const item of output) {
		const index = item.pairedItem?.item;
		if (typeof index !== 'number' || byItem.has(index))
			problems.push(`bad or repeated pairedItem ${index}`);
		byItem.set(index, item.json);
	}
	input.forEach((reference, index) => {
		const json = byItem.get(index);
		const asked = `${reference.store_id}/${reference.order_number}`;
		if (knownKeys.has(asked)) {
			const got = orderKey(json);
			if (got !== asked || typeof json._id !== 'string' || 'found' in json) {
				problems.push(`item ${index}: asked ${asked}, got ${got}`);
			}
		} else if (unmatched === 'skip') {
			if (json !== undefined) problems.push(`item ${index}: unmatched ${asked} gave output`);
		} else if (JSON.stringify(json) !== JSON.stringify({ found: false, ...reference })) {
			problems.push(`item ${index}: unmatched ${asked} gave ${JSON.stringify(json)}`);
		}
	});
	expect(problems).toEqual([]);
	expect(byItem.size).toBe(
		input.filter(
			(reference) =>
				unmatched !== 'skip' || knownKeys.has(`${reference.store_id}/${reference.order_number}`),
		).length,
	);
}

test('looks up the orders of all items in one call and sends each reference once', async () => {
	const input = [known[0], known[1], known[0], known[2]];
	const result = await ctx.run(BY_FIELDS, { items: input });
	expect(result.error).toBeUndefined();

	expectCalls(await ctx.sandbox.calls(ROUTE), [[known[0], known[1], known[2]]]);
	expect(result.items.map((item) => item.pairedItem)).toEqual(
		[0, 1, 2, 3].map((item) => ({ item })),
	);
	expect(orderKeys(result.items)).toEqual(keysOf(input));
});

test('takes a list of references per item and outputs one item per order, all paired with that item', async () => {
	const result = await ctx.run(
		{ resource: 'order', operation: 'lookUp', lookUpBy: 'list', references: '={{ $json.refs }}' },
		{ items: [{ refs: [known[5], known[6]] }, { refs: [known[6]] }] },
	);
	expect(result.error).toBeUndefined();
	expect((await ctx.sandbox.calls(ROUTE))[0].body).toEqual({ order: [known[5], known[6]] });
	expect(result.items.map((item) => [item.pairedItem.item, item.json.order_number])).toEqual([
		[0, known[5].order_number],
		[0, known[6].order_number],
		[1, known[6].order_number],
	]);
});

// 10,000 items run once per service behaviour: n8n's engine spends ~0.2 ms per expression, so the
// big runs use one expression per item (a list of one reference) instead of two; the mapping code
// is the same.
const SIZES = [
	['omit', 'foundFalse', [1, 100, 101, 10_000]],
	['omit', 'skip', [1, 100, 101]],
	['entry', 'foundFalse', [1, 100, 101]],
	['entry', 'skip', [1, 100, 101, 10_000]],
];
describe.each(SIZES)(
	'shuffled results, service answers unmatched pairs with "%s", node option "%s"',
	(bulkUnmatched, unmatched, sizes) => {
		test.each(sizes)('%i input items map back to the item that asked', async (count) => {
			await ctx.sandbox.config({ bulkOrder: 'shuffled', bulkUnmatched });
			const input = inputItems(count);
			const parameters =
				count > 1000
					? {
							resource: 'order',
							operation: 'lookUp',
							lookUpBy: 'list',
							references: '={{ [$json] }}',
						}
					: BY_FIELDS;
			const result = await ctx.run({ ...parameters, options: { unmatched } }, { items: input });
			expect(result.error).toBeUndefined();
			expectMappedBack(input, result.items, { unmatched });

			expectCalls(await ctx.sandbox.calls(ROUTE), batchesOf(distinctOf(input), 100));
		});
	},
);

test('"Fail the Item" turns each unmatched reference into an error on its own item only', async () => {
	await ctx.sandbox.config({ bulkOrder: 'shuffled' });
	const input = [known[0], missing(1), known[1], missing(1)];
	const result = await ctx.run(
		{ ...BY_FIELDS, options: { unmatched: 'error' } },
		{ items: input, continueOnFail: true },
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.pairedItem.item)).toEqual([0, 1, 2, 3]);
	expect(result.items[0].json.order_number).toBe(known[0].order_number);
	expect(result.items[1].json.error).toMatch(
		/Item 1: no order found for store_id '1001' and order_number 'no-such-order-1'/,
	);
	expect(result.items[3].json.error).toMatch(/^Item 3: /);

	const failed = await ctx.run({ ...BY_FIELDS, options: { unmatched: 'error' } }, { items: input });
	expect(failed.error.message).toMatch(/Item 1: no order found/);
});

test('batch size and calls in flight shape the calls', async () => {
	const input = inputItems(250);
	const result = await ctx.run(
		{ ...BY_FIELDS, options: { batchSize: 30, callsInFlight: 2 } },
		{ items: input },
	);
	expect(result.error).toBeUndefined();
	const calls = await ctx.sandbox.calls(ROUTE);
	expectCalls(calls, batchesOf(distinctOf(input), 30), 30);
	if (!WITHOUT_STORE_ID) {
		expect(calls.map((call) => call.body.order.length)).toEqual([
			30, 30, 30, 30, 30, 30, 30, 30, 10,
		]);
	}
});

test('a failed batch marks exactly the items of that batch', async () => {
	const input = inputItems(250);
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 500 });
	const result = await ctx.run(
		{ ...BY_FIELDS, options: { batchSize: 100, callsInFlight: 1 } },
		{ items: input, continueOnFail: true },
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.pairedItem.item)).toEqual(input.map((_, index) => index));
	const failedItems = result.items
		.filter((item) => item.json.error !== undefined)
		.map((item) => item.pairedItem.item);
	expect(failedItems).toEqual(Array.from({ length: 100 }, (_, index) => index));
	expect(result.items[0].json.details).toMatchObject({
		httpCode: '500',
		statusCode: 500,
		endpoint: '/order/get_single_bulk',
	});
	if (ONE_CALL_PER_BATCH) expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(3);
});

test('a failed batch: each item on the error output has its own error, naming that item', async () => {
	// One failure stands for the whole batch; an error shared by its items would name one item for
	// all of them.
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 500 });
	const result = await ctx.run(
		{ ...BY_FIELDS, options: { batchSize: 3, callsInFlight: 1 } },
		{ items: inputItems(3), onError: 'continueErrorOutput' },
	);
	expect(result.error).toBeUndefined();
	const errors = result.outputs[1].map((item) => item.error);
	expect(
		errors.map((error) => [error.context.itemIndex, error.httpCode, error.errorResponse.outcome]),
	).toEqual([
		[0, '500', 'failed'],
		[1, '500', 'failed'],
		[2, '500', 'failed'],
	]);
});

test('without continue on fail, a failed batch stops the node with the item named', async () => {
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 500 });
	const result = await ctx.run(BY_FIELDS, { items: inputItems(3) });
	expect(result.items).toEqual([]);
	expect(result.error.name).toBe('NodeApiError');
	expect(result.error.httpCode).toBe('500');
	expect(result.error.context.itemIndex).toBe(0);
});

test('without continue on fail, the batches after a failed one are not sent', async () => {
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 500 });
	const result = await ctx.run(
		{ ...BY_FIELDS, options: { batchSize: 1, callsInFlight: 1 } },
		{ items: inputItems(3) },
	);
	expect(result.error.httpCode).toBe('500');
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(1);
});

test('Simplify off: the whole entry or only the order, and barcode_generation_failed is kept either way', async () => {
	const input = known.slice(0, 60);
	const entries = await ctx.run(
		{ ...BY_FIELDS, simplify: false, options: { output: 'entry' } },
		{ items: input },
	);
	const failedIndex = entries.items.findIndex(
		(item) => item.json.barcode_generation_failed !== undefined,
	);
	expect(failedIndex).toBeGreaterThanOrEqual(0);
	expect(orderKey(entries.items[failedIndex].json.order)).toBe(keysOf(input)[failedIndex]);
	expect(entries.items[failedIndex].json).toEqual({
		order: expect.objectContaining({ order_number: input[failedIndex].order_number }),
		// Bare order records (the profile's bulkEntries) come without metrics; their barcode failure is
		// put beside the order.
		...(answers.bulkEntries === 'bare' ? {} : { metrics: expect.any(Object) }),
		barcode_generation_failed: { message: expect.any(String), code: expect.any(String) },
	});

	const orders = await ctx.run(
		{ ...BY_FIELDS, simplify: false, options: { output: 'order' } },
		{ items: input },
	);
	expect(orders.items[failedIndex].json).toEqual({
		...entries.items[failedIndex].json.order,
		barcode_generation_failed: entries.items[failedIndex].json.barcode_generation_failed,
	});
	const clean = orders.items.findIndex((item) => item.json.barcode_generation_failed === undefined);
	expect(orders.items[clean].json.metrics).toBeUndefined();
});

test('Simplify (on by default): ten fields read from the order record, and barcode_generation_failed still kept', async () => {
	const input = known.slice(0, 60);
	const whole = await ctx.run({ ...BY_FIELDS, simplify: false }, { items: input });
	const simple = await ctx.run(BY_FIELDS, { items: input });
	expect(simple.items.map((item) => item.pairedItem)).toEqual(
		whole.items.map((item) => item.pairedItem),
	);
	simple.items.forEach((item, index) => {
		const order = whole.items[index].json;
		const expected = {
			_id: order._id,
			store_id: order.store_id,
			order_number: order.order_number,
			status: order.status,
			financial_status: order.financial_status,
			opened_date: order.opened_date,
			shipped_date: order.shipped_date,
			tags: order.tags,
			line_items: order.stash.items.map((line) => ({
				sku: line.sku,
				quantity: line.quantity,
				name: line.lineName,
			})),
			tracking_numbers: order.shipments
				.filter((shipment) => !shipment.voided)
				.map((shipment) => shipment.response?.tracking_number)
				.filter((number) => typeof number === 'string' && number !== ''),
			...(order.barcode_generation_failed === undefined
				? {}
				: { barcode_generation_failed: order.barcode_generation_failed }),
		};
		// A field the record lacks (the sandbox's profiles leave some out) is left out, not invented.
		for (const [key, value] of Object.entries(expected))
			if (value === undefined) delete expected[key];
		expect(item.json).toEqual(expected);
	});
	expect(simple.items.some((item) => item.json.barcode_generation_failed !== undefined)).toBe(true);
	const size = (items) => JSON.stringify(items.map((item) => item.json)).length;
	expect(size(simple.items)).toBeLessThan(size(whole.items) / 4);
});

test('an order asked for by two items comes out as two separate objects', async () => {
	const result = await ctx.run(BY_FIELDS, { items: [known[0], known[0]] });
	expect(result.items[0].json).toEqual(result.items[1].json);
	expect(result.items[0].json).not.toBe(result.items[1].json);
});

test('an order one item lists twice comes out as two separate objects, once asked for it goes out once', async () => {
	const result = await ctx.run(
		{ resource: 'order', operation: 'lookUp', lookUpBy: 'list', references: '={{ $json.refs }}' },
		{ items: [{ refs: [known[0], known[1], known[0]] }] },
	);
	expect(result.items.map((item) => item.json.order_number)).toEqual([
		known[0].order_number,
		known[1].order_number,
		known[0].order_number,
	]);
	expect(result.items[0].json).toEqual(result.items[2].json);
	expect(result.items[0].json).not.toBe(result.items[2].json);
	expectCalls(await ctx.sandbox.calls(ROUTE), [[known[0], known[1]]]);
});

test('bad references give an error naming the item and the field, and are never sent', async () => {
	const result = await ctx.run(
		{ resource: 'order', operation: 'lookUp', lookUpBy: 'list', references: '={{ $json.refs }}' },
		{
			items: [
				{ refs: [known[0]] },
				{ refs: [{ store_id: '1001' }] },
				{ refs: 'not json' },
				{ refs: [] },
			],
			continueOnFail: true,
		},
	);
	expect(
		jsonOf(result.items)
			.slice(1)
			.map((json) => json.error),
	).toEqual([
		"Item 1: 'References[0].order_number' is required and must not be empty",
		"Item 2: 'References' is not valid JSON",
		"Item 3: 'References' must list at least one order reference",
	]);
	expect((await ctx.sandbox.calls(ROUTE))[0].body).toEqual({ order: [known[0]] });
});

test('a lookup whose connection dropped before an answer is read again once, as it changes nothing', async () => {
	await ctx.sandbox.fault({ route: ROUTE, count: 1, drop: 'before' });
	const result = await ctx.run(BY_FIELDS, { items: [known[0]] });
	expect(result.error).toBeUndefined();
	expect(result.items[0].json.order_number).toBe(known[0].order_number);
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.dropped)).toEqual([
		'before',
		undefined,
	]);
});

describe('Look Up By: Fields of Each Input Item', () => {
	const BY_ITEM_FIELDS = { resource: 'order', operation: 'lookUp', lookUpBy: 'itemFields' };

	test('reads the named fields (top-level or dotted) of every item and maps the orders back by reference', async () => {
		const input = inputItems(120);
		const nested = input.map((reference) => ({
			order: { store: reference.store_id },
			number: reference.order_number,
		}));
		const result = await ctx.run(
			{ ...BY_ITEM_FIELDS, storeIdField: 'order.store', orderNumberField: 'number' },
			{ items: nested },
		);
		expect(result.error).toBeUndefined();
		expectMappedBack(input, result.items, { unmatched: 'foundFalse' });
		expectCalls(await ctx.sandbox.calls(ROUTE), batchesOf(distinctOf(input), 100));
	});

	test('an item missing a field or holding a non-text value fails naming the item and the field', async () => {
		const result = await ctx.run(
			{ ...BY_ITEM_FIELDS, storeIdField: 'store_id', orderNumberField: 'order_number' },
			{
				items: [
					known[0],
					{ store_id: known[1].store_id },
					{ store_id: { nested: true }, order_number: '1' },
				],
				continueOnFail: true,
			},
		);
		expect(jsonOf(result.items).map((json) => json.error)).toEqual([
			undefined,
			"Item 1: 'order_number' is required and must not be empty",
			"Item 2: 'store_id' must be text, got an object",
		]);
		expect((await ctx.sandbox.calls(ROUTE))[0].body).toEqual({ order: [known[0]] });
	});
});
