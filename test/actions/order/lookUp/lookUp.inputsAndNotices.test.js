// Order -> Get Many: how each way of naming orders is read (field names with dots, one reference
// object, entries that are no object, a bad item without continue-on-fail), the run-wide settings
// named in their errors, and what the run says about itself (the Calls in Flight notice, the log
// warning about the batch size). Over HTTP to the sandbox.
const { Container } = require('@n8n/di');
const { Logger } = require('@n8n/backend-common');

const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const LOOK_UP = { resource: 'order', operation: 'lookUp' };
const BY_LIST = { ...LOOK_UP, lookUpBy: 'list', references: '={{ [$json] }}' };
const COUNTED = {
	bulkMaxLength: 500,
	bulkTooLongStatus: 400,
	bulkOrderFields: 'all',
	bulkOrder: 'request',
	bulkUnmatched: 'omit',
	bulkReferencePattern: null,
	errorBodies: 'spec',
	retryAfter: 'seconds',
	latencyMs: 0,
	latencyPerKbMs: 0,
};
const SIMPLIFIED_FIELDS = [
	'_id',
	'store_id',
	'order_number',
	'status',
	'financial_status',
	'opened_date',
	'shipped_date',
	'tags',
	'line_items',
	'tracking_numbers',
	'barcode_generation_failed',
];

const ctx = useInventoryOps({ orders: 40 });
let known;
let idOf;

beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 40 });
	known = orders.map(({ store_id, order_number }) => ({ store_id, order_number }));
	idOf = new Map(orders.map((order) => [`${order.store_id}/${order.order_number}`, order._id]));
});

beforeEach(async () => {
	await ctx.sandbox.config(COUNTED);
});

const hintsOf = (result) =>
	result.run.data.resultData.runData[Object.keys(result.run.data.resultData.runData).at(-1)][0]
		.hints ?? [];

describe('reading the references of each item', () => {
	test('Fields of Each Input Item: a field name with a dot that is a column of its own is read as that column', async () => {
		const result = await ctx.run(
			{
				...LOOK_UP,
				lookUpBy: 'itemFields',
				storeIdField: 'order.store',
				orderNumberField: 'order.number',
			},
			{
				items: [
					{
						'order.store': '1002',
						'order.number': '1000',
						order: { store: '1003', number: '1001' },
					},
				],
			},
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			expect.objectContaining({
				_id: idOf.get('1002/1000'),
				store_id: '1002',
				order_number: '1000',
			}),
		]);
		expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body.order)).toEqual([
			[{ store_id: '1002', order_number: '1000' }],
		]);
	});

	test('the field names of Fields of Each Input Item are not read for another Look Up By, even when a saved one is empty', async () => {
		// As saved by a workflow switched away from Fields of Each Input Item (n8n drops hidden
		// parameters as it reads the node, so they reach the node as their defaults).
		const result = await ctx.run(
			{
				...LOOK_UP,
				lookUpBy: 'list',
				references: '={{ $json }}',
				storeIdField: '',
				orderNumberField: '',
			},
			{ items: [known[6]] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			expect.objectContaining({ _id: idOf.get(`${known[6].store_id}/${known[6].order_number}`) }),
		]);
	});

	test('List of References: an expression giving one reference object (no list) looks up that order', async () => {
		const result = await ctx.run(
			{ ...LOOK_UP, lookUpBy: 'list', references: '={{ $json }}' },
			{ items: [known[5]] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			expect.objectContaining({ _id: idOf.get(`${known[5].store_id}/${known[5].order_number}`) }),
		]);
		expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body.order)).toEqual([[known[5]]]);
	});

	test('List of References: an entry that is not an object fails its item naming the entry; the other items are looked up', async () => {
		const result = await ctx.run(
			{ ...LOOK_UP, lookUpBy: 'list', references: '={{ $json.refs }}' },
			{ items: [{ refs: [known[0]] }, { refs: [known[1], '1002/1000'] }], continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			expect.objectContaining({ _id: idOf.get(`${known[0].store_id}/${known[0].order_number}`) }),
			expect.objectContaining({
				error: "Item 1: 'References[1]' must be an object with store_id and order_number",
			}),
		]);
		expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body.order)).toEqual([[known[0]]]);
	});

	test('without continue-on-fail, a bad item stops the run before any call, naming the item and the field', async () => {
		const result = await ctx.run(
			{
				...LOOK_UP,
				lookUpBy: 'storeAndOrderNumber',
				storeId: '={{ $json.store_id }}',
				orderNumber: '={{ $json.order_number }}',
			},
			{ items: [known[0], { store_id: '1001', order_number: '' }, known[1]] },
		);
		expect(result.error.message).toBe("Item 1: 'Order Number' is required and must not be empty");
		expect(result.error.description).toBe(
			"Fix the value of 'Order Number' in input item 1 and run again.",
		);
		expect(await ctx.sandbox.calls(ROUTE)).toEqual([]);
	});
});

describe('settings of the whole run are named in their errors, before any call', () => {
	test.each([
		[{ simplify: '={{ $json.by }}' }, 'Simplify'],
		[{ options: { maxCallsInFlight: '={{ $json.by }}' } }, 'Max Calls in Flight'],
		[{ options: { rateLimitWait: '={{ $json.by }}' } }, 'Rate Limit Wait (Seconds)'],
		[{ simplify: false, options: { output: '={{ $json.by }}' } }, 'Output'],
		[{ options: { callsInFlight: '={{ $json.by }}' } }, 'Calls in Flight'],
		[{ options: { maxBatchSize: '={{ $json.by }}' } }, 'Max Batch Size'],
		[{ lookUpBy: 'itemFields', orderNumberField: '={{ $json.by }}' }, 'Order Number Field'],
	])('%j as an expression stops the run naming %s', async (parameters, setting) => {
		const result = await ctx.run(
			{ ...LOOK_UP, storeId: '1001', orderNumber: '1000', ...parameters },
			{ items: [{ json: { by: 'list' } }, { json: { by: 'skip' } }], continueOnFail: true },
		);
		expect(result.error.message).toBe(
			`'${setting}' takes no expression: it holds for the whole run, and n8n passed "{{ $json.by }}" on as text`,
		);
		expect(result.error.description).toBe(
			`Choose a value for '${setting}' instead of an expression.`,
		);
		expect(await ctx.sandbox.calls(ROUTE)).toEqual([]);
	});

	test.each([
		[
			{ options: { rateLimitWait: 3601 } },
			"Item 0: 'Rate Limit Wait (Seconds)' must be a whole number from 0 to 3600",
		],
		[
			{ options: { timeout: 0 } },
			"Item 0: 'Timeout (Milliseconds)' must be a whole number from 1 to 2147483647",
		],
		[
			{ options: { maxCallsInFlight: 65 } },
			"Item 0: 'Max Calls in Flight' must be a whole number from 1 to 64",
		],
		[
			{ options: { maxBatchSize: 0 } },
			"Item 0: 'Max Batch Size' must be a whole number from 1 to 10000",
		],
		[{ simplify: 'yes' }, "Item 0: 'Simplify' must be true or false, got text"],
		[{ simplify: 1 }, "Item 0: 'Simplify' must be true or false, got the number 1"],
		[
			{ lookUpBy: 'itemFields', orderNumberField: '  ' },
			"Item 0: 'Order Number Field' is required and must not be empty",
		],
		[
			{ lookUpBy: 'itemFields', storeIdField: ' ' },
			"Item 0: 'Store ID Field' is required and must not be empty",
		],
	])('%j stops the run: %s', async (parameters, message) => {
		const result = await ctx.run(
			{ ...LOOK_UP, storeId: '1001', orderNumber: '1000', ...parameters },
			{ items: [known[0]] },
		);
		expect(result.error.message).toBe(message);
		expect(await ctx.sandbox.calls(ROUTE)).toEqual([]);
	});

	test.each([[''], [null]])(
		'Simplify given as %j (a workflow from the API) is read as on, its default',
		async (simplify) => {
			const result = await ctx.run({ ...BY_LIST, simplify }, { items: [known[2]] });
			expect(result.error).toBeUndefined();
			const [json] = jsonOf(result.items);
			expect(json).toMatchObject({
				_id: idOf.get(`${known[2].store_id}/${known[2].order_number}`),
				...known[2],
			});
			expect(Object.keys(json).filter((key) => !SIMPLIFIED_FIELDS.includes(key))).toEqual([]);
		},
	);

	test('Simplify off gives the whole order record', async () => {
		const result = await ctx.run({ ...BY_LIST, simplify: false }, { items: [known[2]] });
		expect(
			Object.keys(jsonOf(result.items)[0]).filter((key) => !SIMPLIFIED_FIELDS.includes(key)).length,
		).toBeGreaterThan(10);
	});
});

describe('what the run says about itself', () => {
	test('Calls in Flight (Auto) after a 429 and a failed call: the notice gives both causes, one after the other', async () => {
		await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 429, retryAfter: 0 });
		await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 500 });
		const result = await ctx.run(
			{ ...BY_LIST, options: { batchSize: 2, callsInFlight: 0, rateLimitWait: 5 } },
			{ items: known.slice(0, 12), continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items).filter((json) => json.error !== undefined)).toHaveLength(2);
		expect(hintsOf(result)).toEqual([
			{
				message: expect.stringMatching(
					/^Calls in Flight \(Auto\) settled on \d+ at a time in this run \(it reached \d+; Max Calls in Flight is 16\): the service answered 429 \(rate limit\), so it kept below that for the rest of the run; 1 call\(s\) failed or timed out, and each lowered it\. Set Calls in Flight \(in Options\) to a number to keep it fixed\.$/,
				),
				type: 'info',
				location: 'outputPane',
			},
		]);
	});

	test('a batch size learnt from refused calls is also logged as a warning naming the node', async () => {
		await ctx.sandbox.config({ ...COUNTED, bulkMaxLength: 5 });
		const logger = Container.get(Logger);
		const warn = jest.spyOn(logger, 'warn');
		try {
			const result = await ctx.run(
				{ ...BY_LIST, options: { batchSize: 10, callsInFlight: 1 } },
				{ items: known.slice(0, 10) },
			);
			expect(result.error).toBeUndefined();
			const message =
				'The service refused batches of 10 order references; batches of 5 went through. Set Batch Size (in Options) to 5 to save the refused calls.';
			expect(hintsOf(result)).toEqual([{ message, type: 'warning', location: 'outputPane' }]);
			expect(warn.mock.calls.filter(([text]) => text === message)).toEqual([
				[message, { node: 'Node under test' }],
			]);
		} finally {
			warn.mockRestore();
		}
	});
});
