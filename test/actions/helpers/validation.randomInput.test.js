// Property: random, often malformed input items (wrong types, missing fields, empty and huge
// strings, odd unicode, nested junk) run through n8n's engine against the sandbox. Each item ends
// either as a call whose body has the service's field types (kit fields as the node's own form
// declares them), or as an error item that names the item and the field. Never a crash, never an
// unnamed error, never a call the service rejects for its shape.
const path = require('node:path');

const { answers, sandboxCode } = require('../../helpers/profile');
const fc = require('fast-check');

const { useInventoryOps } = require('../../helpers/inventoryOps');

const ctx = useInventoryOps({ orders: 30 });
let itemIds;
let knownOrders;

beforeAll(async () => {
	itemIds = (await ctx.sandbox.items()).slice(0, 5).map((item) => item.item_id);
	knownOrders = (await ctx.sandbox.orders({ limit: 5 })).map(({ store_id, order_number }) => ({
		store_id,
		order_number,
	}));
});

// Codes the sandbox uses when a request breaks the service's request shape: the node must never
// cause these. Each as the profile's service sends it (switch errorCodes: the sandbox's, others, or
// none).
const SHAPE_CODES = new Set(
	[
		'MISSING_FIELD',
		'INVALID_FIELD_TYPE',
		'INVALID_FIELD',
		'MISSING_BODY',
		'INVALID_JSON',
		'INVALID_CONTENT_TYPE',
	].map(sandboxCode),
);
// Refusals about the data itself, which only the service can know.
// VALIDATION_ERROR: a service with a format for order numbers (profile switch bulkReferencePattern)
// refusing one.
const BUSINESS_CODES = new Set(
	['UNKNOWN_COMPONENT', 'DUPLICATE_SKU', 'VALIDATION_ERROR'].map(sandboxCode),
);
// Without codes, the sandbox's words for those three refusals (sandbox/routes/service.js).
const BUSINESS_WORDS = /no item with|is already used by|is not a valid order number/;
// The service's code: a field of the error, or (error bodies as plain text, `CODE: message`) the
// start of its message.
const codeOf = (json) => json.details?.code ?? /(?:^|: )([A-Z][A-Z_]+): /.exec(json.error)?.[1];

const junk = fc.oneof(
	fc.constant(undefined),
	fc.constant(null),
	fc.constant(''),
	fc.constant('   '),
	fc.constant('x'.repeat(20_000)),
	fc.string({ unit: 'binary', maxLength: 30 }),
	fc.string({ unit: 'grapheme', maxLength: 30 }),
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }),
	fc.object({ maxDepth: 2 }),
);
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
const maybe = (valid) => fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: junk, weight: 1 });

const isText = (value) =>
	typeof value === 'string' && value.trim() !== '' && value.length <= 10_000;
const isNumber = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * The kit fields and their types, read from the node's own Kit -> Create form (form names in
 * camelCase, the service's in snake_case), so that a field added to the node is checked here
 * without copying a list.
 */
function kitFieldsFromNode() {
	const { InventoryOps } = require(
		path.resolve(__dirname, '../../../dist/nodes/InventoryOps/InventoryOps.node.js'),
	);
	const kitForm = new InventoryOps().description.properties.filter(
		(property) =>
			property.displayOptions?.show?.resource?.includes('kit') &&
			property.displayOptions?.show?.inputMode?.includes('fields'),
	);
	const snake = (name) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
	const byName = Object.fromEntries(kitForm.map((property) => [property.name, property]));
	const fields = { required: [], text: [], number: [], boolean: [], textList: [], component: [] };
	for (const property of [...kitForm, ...byName.additionalFields.options]) {
		if (['additionalFields', 'kitItems'].includes(property.name)) continue;
		const kind = property.typeOptions?.multipleValues
			? 'textList'
			: property.type === 'string'
				? 'text'
				: property.type;
		fields[kind].push(snake(property.name));
		if (property.required) fields.required.push(snake(property.name));
	}
	fields.component = byName.kitItems.options[0].values.map((value) => snake(value.name));
	return fields;
}
const KIT = kitFieldsFromNode();

/** The body the sandbox received, checked against the field types of the node's form. */
function kitConforms({ data }) {
	const optional = (check) => (value) => value === undefined || check(value);
	const component = (entry) =>
		entry !== null &&
		typeof entry === 'object' &&
		Object.keys(entry).every((key) => KIT.component.includes(key)) &&
		isNumber(entry.quantity) &&
		entry.quantity > 0 &&
		(isText(entry.item_id) || isText(entry.sku)) &&
		['item_id', 'sku', 'type'].every((key) => optional(isText)(entry[key]));
	return (
		KIT.required.every((key) => isText(data[key])) &&
		KIT.text.every((key) => optional(isText)(data[key])) &&
		KIT.number.every((key) => optional(isNumber)(data[key])) &&
		KIT.boolean.every((key) => optional((value) => typeof value === 'boolean')(data[key])) &&
		KIT.textList.every((key) =>
			optional((list) => Array.isArray(list) && list.every(isText))(data[key]),
		) &&
		optional((list) => Array.isArray(list) && list.every(component))(data.items)
	);
}

test('the kit fields are read from the node (or the property below would check nothing)', () => {
	expect(KIT.required).toEqual(['name', 'sku']);
	for (const kind of ['text', 'number', 'boolean', 'textList', 'component'])
		expect(KIT[kind].length).toBeGreaterThan(0);
	expect(KIT.component).toContain('item_id');
});

// Across the runs of a property, both successes and named errors must occur, or the property proves
// little.
const tally = { success: 0, named: 0 };
beforeEach(() => Object.assign(tally, { success: 0, named: 0 }));
const expectBothOutcomes = () => expect(tally.success > 0 && tally.named > 0).toBe(true);

/**
 * Every item ends as its own success or as an error naming its index and a field (or a business
 * refusal).
 */
function checkOutcomes(input, output, isSuccess) {
	expect(output.map((item) => item.pairedItem.item)).toEqual(input.map((_, index) => index));
	output.forEach((item, index) => {
		if (item.json.error === undefined) {
			expect(isSuccess(item.json)).toBe(true);
			tally.success++;
			return;
		}
		const named = /^Item (\d+): '([^']+)' /.exec(item.json.error);
		if (named) {
			expect(Number(named[1])).toBe(index);
			tally.named++;
			return;
		}
		if (answers.errorCodes === 'none') {
			expect(item.json.error).toMatch(BUSINESS_WORDS);
			return;
		}
		expect(SHAPE_CODES.has(codeOf(item.json))).toBe(false);
		expect(BUSINESS_CODES.has(codeOf(item.json))).toBe(true);
	});
}

const settings = { numRuns: 12, seed: 20261122, endOnFailure: true };

/**
 * Runs the node on every input item from a fresh sandbox, going on after errors; returns the output
 * items.
 */
async function runAll(parameters, input) {
	await ctx.sandbox.reset();
	const result = await ctx.run(parameters, { items: input, continueOnFail: true });
	expect(result.error).toBeUndefined();
	return result.items;
}

test('Kit -> Create (JSON mode) with random kits', async () => {
	const component = fc.oneof(
		fc.record(
			{
				item_id: maybe(fc.constantFrom(...itemIds)),
				sku: maybe(text),
				quantity: maybe(fc.integer({ min: 1, max: 9 })),
				type: maybe(text),
			},
			{ requiredKeys: [] },
		),
		junk,
	);
	const kit = fc.oneof(
		{
			weight: 5,
			arbitrary: fc.record(
				{
					name: maybe(text),
					sku: maybe(text.map((sku) => `KIT-${sku}`)),
					items: maybe(fc.array(component, { maxLength: 3 })),
					barcodes: maybe(fc.array(text, { maxLength: 3 })),
					tags: maybe(fc.array(text, { maxLength: 2 })),
					cost: maybe(fc.double({ min: 0, max: 1e6, noNaN: true })),
					lag_time: maybe(fc.nat(30).map(String)),
					active: maybe(fc.constantFrom(true, false, 'true', 'false')),
					notes: maybe(text),
					nonsense: fc.constant(undefined),
				},
				{ requiredKeys: ['name', 'sku'] },
			),
		},
		{ weight: 1, arbitrary: junk },
	);

	await fc.assert(
		fc.asyncProperty(fc.array(kit, { minLength: 1, maxLength: 15 }), async (kits) => {
			const input = kits.map((data) => ({ data }));
			const output = await runAll(
				{ resource: 'kit', operation: 'create', inputMode: 'json', kitData: '={{ $json.data }}' },
				input,
			);
			checkOutcomes(input, output, (json) => json.success === true && typeof json._id === 'string');
			for (const call of await ctx.sandbox.calls('/api/kit/create'))
				expect(kitConforms(call.body)).toBe(true);
		}),
		settings,
	);
	expectBothOutcomes();
});

test('Order -> Get Many with random store ids and order numbers', async () => {
	const reference = fc.record(
		{ store_id: maybe(text), order_number: maybe(text) },
		{ requiredKeys: [] },
	);
	const known = fc.constantFrom(...knownOrders);
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.oneof(reference, known), { minLength: 1, maxLength: 20 }),
			async (input) => {
				const parameters = {
					resource: 'order',
					operation: 'lookUp',
					storeId: '={{ $json.store_id }}',
					orderNumber: '={{ $json.order_number }}',
				};
				const output = await runAll(parameters, input);
				checkOutcomes(
					input,
					output,
					(json) => typeof json._id === 'string' || json.found === false,
				);
				for (const call of await ctx.sandbox.calls('/api/order/get_single_bulk')) {
					// A service with a format for order numbers (profile switch bulkReferencePattern) refuses
					// a batch holding a random one: 400 VALIDATION_ERROR, never a complaint about the
					// request's shape.
					expect(
						call.status === 200 || (answers.bulkReferencePattern !== null && call.status === 400),
					).toBe(true);
					expect(
						call.body.order.every((ref) => isText(ref.store_id) && isText(ref.order_number)),
					).toBe(true);
				}
			},
		),
		settings,
	);
	expectBothOutcomes();
});

test('Webhook Handler -> Add with random names, URLs, methods and headers', async () => {
	const handler = fc.record(
		{
			name: maybe(text),
			url: maybe(fc.webUrl()),
			method: maybe(fc.constantFrom('POST', 'put', 'GET')),
			header: maybe(fc.constantFrom('X-Secret', 'X-Other')),
			value: maybe(text),
		},
		{ requiredKeys: [] },
	);
	await fc.assert(
		fc.asyncProperty(fc.array(handler, { minLength: 1, maxLength: 10 }), async (input) => {
			const parameters = {
				resource: 'webhookHandler',
				operation: 'add',
				eventType: 'custom',
				customEventType: 'order.shipped',
				name: '={{ $json.name }}',
				url: '={{ $json.url }}',
				method: '={{ $json.method }}',
				headers: { header: [{ name: '={{ $json.header }}', value: '={{ $json.value }}' }] },
			};
			const output = await runAll(parameters, input);
			checkOutcomes(input, output, (json) => json.success === true);
			for (const call of await ctx.sandbox.calls('/api/webhook/add_handler')) {
				expect(call.status).toBe(200);
				expect(isText(call.body.name) && /^https?:\/\//.test(call.body.handler.url)).toBe(true);
			}
		}),
		settings,
	);
	expectBothOutcomes();
});
