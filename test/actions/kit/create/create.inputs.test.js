// Kit -> Create: inputs no other test gave (found by the mutation run, mutation/README.md). A kit
// without components, in form mode and as JSON with "items": null, is sent without an items field;
// a bad tag is named by its place in the list. Through n8n's engine against the sandbox, reading
// the body the service received.
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/api/kit/create';
const ctx = useInventoryOps({ orders: 10 });

const jsonMode = {
	resource: 'kit',
	operation: 'create',
	inputMode: 'json',
	kitData: '={{ $json.kit }}',
};

test('form mode without component rows: the kit is sent without an items field', async () => {
	const result = await ctx.run({
		resource: 'kit',
		operation: 'create',
		inputMode: 'fields',
		name: 'Empty Bundle',
		sku: 'KIT-EMPTY-01',
		kitItems: {},
	});
	expect(result.error).toBeUndefined();
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body)).toEqual([
		{ data: { name: 'Empty Bundle', sku: 'KIT-EMPTY-01' } },
	]);
	expect(jsonOf(result.items)).toEqual([
		{ success: true, _id: expect.any(String), new_kit_id: expect.any(String) },
	]);
});

test('JSON with "items": null is a kit without components: sent without an items field', async () => {
	const result = await ctx.run(jsonMode, {
		items: [{ kit: { name: 'Null Items', sku: 'KIT-NULL-1', items: null } }],
	});
	expect(result.error).toBeUndefined();
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body)).toEqual([
		{ data: { name: 'Null Items', sku: 'KIT-NULL-1' } },
	]);
	expect(jsonOf(result.items)[0].success).toBe(true);
});

test('a tag that is not text is refused before any call, naming its place in data.tags (or Tags in form mode)', async () => {
	const result = await ctx.run(jsonMode, {
		items: [{ kit: { name: 'Tagged', sku: 'KIT-TAG-1', tags: ['bundle', { id: 3 }] } }],
		continueOnFail: true,
	});
	expect(jsonOf(result.items).map((json) => json.error)).toEqual([
		"Item 0: 'data.tags[1]' must be text, got an object",
	]);
	const form = await ctx.run(
		{
			resource: 'kit',
			operation: 'create',
			inputMode: 'fields',
			name: 'Tagged',
			sku: 'KIT-TAG-2',
			tags: '={{ [true] }}',
		},
		{ continueOnFail: true },
	);
	expect(jsonOf(form.items).map((json) => json.error)).toEqual([
		"Item 0: 'tags[0]' must be text, got a boolean",
	]);
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(0);
});

describe('JSON values written as text are read as the user meant them', () => {
	test.each([
		['active "true"', { active: 'true' }, { active: true }],
		['active "false"', { active: 'false' }, { active: false }],
		[
			'barcodes as comma-separated text',
			{ barcodes: '0123, 0456' },
			{ barcodes: ['0123', '0456'] },
		],
		['barcodes with an empty entry', { barcodes: '0123,,0456' }, { barcodes: ['0123', '0456'] }],
		['tags with a blank entry', { tags: ['bundle', ' ', 'gift'] }, { tags: ['bundle', 'gift'] }],
		['barcodes null', { barcodes: null }, {}],
		['barcodes empty text', { barcodes: '' }, {}],
	])('%s', async (_, given, sent) => {
		const result = await ctx.run(jsonMode, {
			items: [{ kit: { name: 'Read', sku: 'KIT-READ-1', ...given } }],
		});
		expect(result.error).toBeUndefined();
		expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.body)).toEqual([
			{ data: { name: 'Read', sku: 'KIT-READ-1', ...sent } },
		]);
	});
});

// The message describes the bad value, so a user sees that an expression gave blank text or null,
// not some text.
test.each([
	[
		'a blank quantity',
		{ name: 'Blank', sku: 'K-B', items: [{ sku: 'ANY', quantity: '  ' }] },
		"Item 0: 'data.items[0].quantity' must be a number, got empty text",
	],
	[
		'a blank active',
		{ name: 'Blank', sku: 'K-B', active: ' ' },
		"Item 0: 'data.active' must be true or false, got empty text",
	],
	['a kit that is null', null, "Item 0: 'Kit Data (JSON)' must be a JSON object, got null"],
	[
		'a kit that is a list',
		[{ name: 'Listed' }],
		"Item 0: 'Kit Data (JSON)' must be a JSON object, got a list",
	],
])('%s is refused before any call, saying what it got', async (_, kit, message) => {
	const result = await ctx.run(jsonMode, { items: [{ kit }], continueOnFail: true });
	expect(jsonOf(result.items).map((json) => json.error)).toEqual([message]);
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(0);
});

describe('empty values, numbers as identifiers and the longest text (found by the full mutation run)', () => {
	// The run before had these mutants "timed out" (a test over its time limit), which counts as
	// caught; a full run with each killer first found that no assertion read them.
	const send = (kit) => ctx.run(jsonMode, { items: [{ kit }], continueOnFail: true });
	const sentData = async () => (await ctx.sandbox.calls(ROUTE)).map((call) => call.body.data);
	let itemId; // a seeded catalogue item: the service refuses components it does not know
	beforeAll(async () => {
		[{ item_id: itemId }] = await ctx.sandbox.items();
	});

	test('null and "" in optional fields are left out, as if not given; nothing is refused', async () => {
		const result = await send({
			name: 'Sparse',
			sku: 'KIT-SPARSE-1',
			notes: null,
			cost: null,
			weight: '',
			items: [{ item_id: itemId, sku: null, quantity: 1, type: 'item' }],
		});
		expect(jsonOf(result.items)[0]).toMatchObject({ success: true });
		expect(await sentData()).toEqual([
			{
				name: 'Sparse',
				sku: 'KIT-SPARSE-1',
				items: [{ item_id: itemId, quantity: 1, type: 'item' }],
			},
		]);
	});

	test('a number in a text field (an identifier) is sent as text; NaN or Infinity there is refused naming the field', async () => {
		const sent = await send({
			name: 'Numbered',
			sku: 1001,
			listing_sku: 77.5,
			items: [{ item_id: itemId, quantity: 2 }],
		});
		expect(jsonOf(sent.items)[0]).toMatchObject({ success: true });
		expect(await sentData()).toEqual([
			{
				name: 'Numbered',
				sku: '1001',
				listing_sku: '77.5',
				items: [{ item_id: itemId, quantity: 2 }],
			},
		]);

		const nonFinite = await ctx.run(
			{
				...jsonMode,
				kitData: '={{ { name: "Bad", sku: "KIT-X", items: [{ item_id: $json.id }] } }}',
			},
			{ items: [{ id: Number.NaN }, { id: Number.POSITIVE_INFINITY }], continueOnFail: true },
		);
		expect(nonFinite.items.map((item) => item.json.error)).toEqual([
			expect.stringMatching(/^Item 0: 'data\.items\[0\]\.item_id' must be text, got /),
			expect.stringMatching(/^Item 1: 'data\.items\[0\]\.item_id' must be text, got /),
		]);
	});

	test('a text of exactly 10,000 characters is sent; one more is refused', async () => {
		const longest = 'n'.repeat(10_000);
		const result = await ctx.run(jsonMode, {
			items: [
				{ kit: { name: longest, sku: 'KIT-LONG-1' } },
				{ kit: { name: `${longest}n`, sku: 'KIT-LONG-2' } },
			],
			continueOnFail: true,
		});
		expect(jsonOf(result.items)[0]).toMatchObject({ success: true });
		expect(jsonOf(result.items)[1].error).toBe(
			"Item 1: 'data.name' is longer than 10000 characters",
		);
		expect((await sentData()).map((data) => data.sku)).toEqual(['KIT-LONG-1']);
	});
});
