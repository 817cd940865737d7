// Order -> Get Many through n8n's engine against the sandbox: batching across items, mapping back by
// (store_id, order_number) whatever the service's result order, unmatched references, failed batches.
const { useInventoryOps, jsonOf } = require('../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const BY_FIELDS = {
	resource: 'order',
	operation: 'getMany',
	lookUpBy: 'storeAndOrderNumber',
	storeId: '={{ $json.store_id }}',
	orderNumber: '={{ $json.order_number }}',
};

const ctx = useInventoryOps({ orders: 2000 });
let known; // [{ store_id, order_number }] of seeded orders

beforeAll(async () => {
	known = (await ctx.sandbox.orders({ limit: 2000 })).map(({ store_id, order_number }) => ({
		store_id,
		order_number,
	}));
});

const missing = (n) => ({ store_id: '1001', order_number: `no-such-order-${n}` });

/** Input item i asks for order i % 2500: indexes from 2000 on do not exist, and every order is asked for repeatedly. */
function inputItems(count) {
	return Array.from({ length: count }, (_, i) => {
		const index = i % 2500;
		return index < known.length ? known[index] : missing(index);
	});
}

/**
 * Checks each output item answers exactly the reference its paired input item asked for. Mismatches are collected
 * and compared once, because 10,000 separate matcher calls would cost seconds.
 */
function expectMappedBack(input, output, { unmatched }) {
	const knownKeys = new Set(known.map((order) => `${order.store_id}/${order.order_number}`));
	const byItem = new Map();
	const problems = [];
	for (const item of output) {
		const index = item.pairedItem?.item;
		if (typeof index !== 'number' || byItem.has(index)) problems.push(`bad or repeated pairedItem ${index}`);
		byItem.set(index, item.json);
	}
	input.forEach((reference, index) => {
		const json = byItem.get(index);
		const asked = `${reference.store_id}/${reference.order_number}`;
		if (knownKeys.has(asked)) {
			const got = json && `${json.store_id}/${json.order_number}`;
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
			(reference) => unmatched !== 'skip' || knownKeys.has(`${reference.store_id}/${reference.order_number}`),
		).length,
	);
}

test('looks up the orders of all items in one call and sends each reference once', async () => {
	const input = [known[0], known[1], known[0], known[2]];
	const result = await ctx.run(BY_FIELDS, { items: input });
	expect(result.error).toBeUndefined();

	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls).toHaveLength(1);
	expect(calls[0].body).toEqual({ order: [known[0], known[1], known[2]] });
	expect(result.items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	expect(jsonOf(result.items).map(({ store_id, order_number }) => ({ store_id, order_number }))).toEqual(input);
});

test("workflows saved with Look Up By's old value 'fields' still read Store ID and Order Number", async () => {
	const input = [known[3], known[4]];
	const result = await ctx.run({ ...BY_FIELDS, lookUpBy: 'fields' }, { items: input });
	expect(result.error).toBeUndefined();
	expect((await ctx.sandbox.calls(ROUTE))[0].body).toEqual({ order: input });
	expect(jsonOf(result.items).map(({ store_id, order_number }) => ({ store_id, order_number }))).toEqual(input);
});

test('takes a list of references per item and outputs one item per order, all paired with that item', async () => {
	const result = await ctx.run(
		{ resource: 'order', operation: 'getMany', lookUpBy: 'list', references: '={{ $json.refs }}' },
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

// 10,000 items run once per service behaviour: n8n's engine spends ~0.2 ms per expression, so the big runs
// use one expression per item (a list of one reference) instead of two; the mapping code is the same.
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
							operation: 'getMany',
							lookUpBy: 'list',
							references: '={{ [$json] }}',
						}
					: BY_FIELDS;
			const result = await ctx.run({ ...parameters, options: { unmatched } }, { items: input });
			expect(result.error).toBeUndefined();
			expectMappedBack(input, result.items, { unmatched });

			const distinct = new Set(input.map((reference) => JSON.stringify(reference))).size;
			const calls = await ctx.sandbox.calls(ROUTE);
			expect(calls).toHaveLength(Math.ceil(distinct / 100));
			expect(calls.every((call) => call.body.order.length <= 100)).toBe(true);
			const sent = calls.flatMap((call) => call.body.order.map((reference) => JSON.stringify(reference)));
			expect(new Set(sent).size).toBe(sent.length);
			expect(sent.length).toBe(distinct);
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
	const result = await ctx.run({ ...BY_FIELDS, options: { batchSize: 30, callsInFlight: 2 } }, { items: input });
	expect(result.error).toBeUndefined();
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls.map((call) => call.body.order.length)).toEqual([30, 30, 30, 30, 30, 30, 30, 30, 10]);
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
	const failedItems = result.items.filter((item) => item.json.error !== undefined).map((item) => item.pairedItem.item);
	expect(failedItems).toEqual(Array.from({ length: 100 }, (_, index) => index));
	expect(result.items[0].json.details).toMatchObject({
		httpCode: '500',
		statusCode: 500,
		endpoint: '/order/get_single_bulk',
	});
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(3);
});

test('without continue on fail, a failed batch stops the node with the item named', async () => {
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 500 });
	const result = await ctx.run(BY_FIELDS, { items: inputItems(3) });
	expect(result.items).toEqual([]);
	expect(result.error.name).toBe('NodeApiError');
	expect(result.error.httpCode).toBe('500');
	expect(result.error.context.itemIndex).toBe(0);
});

test('the whole entry or only the order, and barcode_generation_failed is kept either way', async () => {
	const input = known.slice(0, 60);
	const entries = await ctx.run({ ...BY_FIELDS, options: { output: 'entry' } }, { items: input });
	const failedIndex = entries.items.findIndex((item) => item.json.barcode_generation_failed !== undefined);
	expect(failedIndex).toBeGreaterThanOrEqual(0);
	expect(entries.items[failedIndex].json).toEqual({
		order: expect.objectContaining(input[failedIndex]),
		metrics: expect.any(Object),
		barcode_generation_failed: { message: expect.any(String), code: expect.any(String) },
	});

	const orders = await ctx.run({ ...BY_FIELDS, options: { output: 'order' } }, { items: input });
	expect(orders.items[failedIndex].json).toEqual({
		...entries.items[failedIndex].json.order,
		barcode_generation_failed: entries.items[failedIndex].json.barcode_generation_failed,
	});
	const clean = orders.items.findIndex((item) => item.json.barcode_generation_failed === undefined);
	expect(orders.items[clean].json.metrics).toBeUndefined();
});

test('an order asked for by two items comes out as two separate objects', async () => {
	const result = await ctx.run(BY_FIELDS, { items: [known[0], known[0]] });
	expect(result.items[0].json).toEqual(result.items[1].json);
	expect(result.items[0].json).not.toBe(result.items[1].json);
});

test('bad references give an error naming the item and the field, and are never sent', async () => {
	const result = await ctx.run(
		{ resource: 'order', operation: 'getMany', lookUpBy: 'list', references: '={{ $json.refs }}' },
		{
			items: [{ refs: [known[0]] }, { refs: [{ store_id: '1001' }] }, { refs: 'not json' }, { refs: [] }],
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
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.dropped)).toEqual(['before', undefined]);
});

describe('Look Up By: Fields of Each Input Item', () => {
	const BY_ITEM_FIELDS = { resource: 'order', operation: 'getMany', lookUpBy: 'itemFields' };

	test('reads the named fields (top-level or dotted) of every item and maps the orders back by reference', async () => {
		const input = inputItems(120);
		const nested = input.map((reference) => ({ order: { store: reference.store_id }, number: reference.order_number }));
		const result = await ctx.run(
			{ ...BY_ITEM_FIELDS, storeIdField: 'order.store', orderNumberField: 'number' },
			{ items: nested },
		);
		expect(result.error).toBeUndefined();
		expectMappedBack(input, result.items, { unmatched: 'foundFalse' });
		expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(2);
	});

	test('an item missing a field or holding a non-text value fails naming the item and the field', async () => {
		const result = await ctx.run(
			{ ...BY_ITEM_FIELDS, storeIdField: 'store_id', orderNumberField: 'order_number' },
			{
				items: [known[0], { store_id: known[1].store_id }, { store_id: { nested: true }, order_number: '1' }],
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
