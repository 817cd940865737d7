// Kit -> Create through n8n's engine against the sandbox: form and JSON modes, the exact body the
// service saw, checks before the call, and a lost answer after the service committed.
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');
const { refusalSeen, sandboxCode } = require('../../../helpers/profile');

const ROUTE = '/api/kit/create';
const ctx = useInventoryOps({ orders: 50 });
let components; // two seeded catalogue items

beforeAll(async () => {
	components = (await ctx.sandbox.items()).slice(0, 2);
});

const formParameters = () => ({
	resource: 'kit',
	operation: 'create',
	inputMode: 'fields',
	name: 'Starter Bundle',
	sku: ' KIT-STARTER-01 ',
	kitItems: {
		item: [
			{ itemId: components[0].item_id, sku: '', quantity: 2, type: 'item' },
			{ itemId: '', sku: components[1].sku, quantity: 1, type: '' },
		],
	},
	barcodes: ['0123456789012', '0123456789029'],
	tags: ['bundle'],
	additionalFields: {
		retail: 49.5,
		cost: 20,
		active: true,
		lagTime: 2,
		listingSku: 'LIST-1',
		notes: 'gift',
	},
});

test('form fields become the body the service expects: numbers as numbers, lists as lists, empty fields left out', async () => {
	const result = await ctx.run(formParameters());
	expect(result.error).toBeUndefined();
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls).toHaveLength(1);
	expect(calls[0].body).toEqual({
		data: {
			name: 'Starter Bundle',
			sku: 'KIT-STARTER-01',
			items: [
				{ item_id: components[0].item_id, quantity: 2, type: 'item' },
				{ sku: components[1].sku, quantity: 1 },
			],
			barcodes: ['0123456789012', '0123456789029'],
			tags: ['bundle'],
			retail: 49.5,
			cost: 20,
			active: true,
			lag_time: 2,
			listing_sku: 'LIST-1',
			notes: 'gift',
		},
	});
	expect(result.items).toEqual([
		{
			json: { success: true, _id: expect.any(String), new_kit_id: expect.any(String) },
			pairedItem: { item: 0 },
		},
	]);
	expect((await ctx.sandbox.kits()).map((kit) => kit._id)).toEqual([result.items[0].json._id]);
});

test('JSON mode sends the data object, with numeric text turned into numbers', async () => {
	const data = {
		name: 'Json Kit',
		sku: 'KIT-JSON-1',
		items: [{ item_id: components[0].item_id, quantity: '3' }],
		weight: '1.5',
		active: 'false',
	};
	const result = await ctx.run(
		{ resource: 'kit', operation: 'create', inputMode: 'json', kitData: '={{ $json.kit }}' },
		{ items: [{ kit: data }] },
	);
	expect(result.error).toBeUndefined();
	expect((await ctx.sandbox.calls(ROUTE))[0].body).toEqual({
		data: {
			name: 'Json Kit',
			sku: 'KIT-JSON-1',
			items: [{ item_id: components[0].item_id, quantity: 3 }],
			weight: 1.5,
			active: false,
		},
	});
	expect(result.items[0].json.success).toBe(true);
});

test('invalid input is refused before any call, naming the item and the field', async () => {
	const kits = [
		{ name: 'ok', sku: 'KIT-OK' },
		{ name: 'no sku' },
		{ name: 'bad qty', sku: 'K2', items: [{ item_id: 'x', quantity: 0 }] },
		{ name: 'bad cost', sku: 'K3', cost: 'cheap' },
		{ name: 'typo', sku: 'K4', skus: ['a'] },
		{ name: 'no component id', sku: 'K5', items: [{ quantity: 1 }] },
	];
	const result = await ctx.run(
		{ resource: 'kit', operation: 'create', inputMode: 'json', kitData: '={{ $json.kit }}' },
		{ items: kits.map((kit) => ({ kit })), continueOnFail: true },
	);
	expect(result.items.map((item) => item.pairedItem.item)).toEqual([0, 1, 2, 3, 4, 5]);
	expect(jsonOf(result.items).map((json) => json.error)).toEqual([
		undefined,
		"Item 1: 'data.sku' is required and must not be empty",
		"Item 2: 'data.items[0].quantity' must be a number greater than 0",
		"Item 3: 'data.cost' must be a number, got text",
		expect.stringMatching(/^Item 4: 'data\.skus' is not a field of a kit \(known: name, sku, /),
		"Item 5: 'data.items[0].item_id' is required unless the sku is given",
	]);
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(1);
});

test('the service refusing a duplicate SKU becomes an error item with the service fields', async () => {
	const result = await ctx.run(
		{ ...formParameters(), sku: components[0].sku, kitItems: {} },
		{ continueOnFail: true },
	);
	const seen = refusalSeen(409);
	expect(result.items).toEqual([
		{
			json: {
				error: seen.serviceMessage
					? expect.stringMatching(/\. The service said: SKU .* is already used/)
					: expect.any(String),
				details: expect.objectContaining({
					httpCode: seen.httpCode,
					outcome: 'refused',
					changeApplied: 'no',
					...(seen.code ? { code: sandboxCode('DUPLICATE_SKU') } : {}),
					...(seen.traceId ? { serviceTraceId: expect.any(String) } : {}),
				}),
			},
			pairedItem: { item: 0 },
		},
	]);
});

test('an answer lost after the service committed: the node fails and the create was sent exactly once', async () => {
	await ctx.sandbox.fault({ route: ROUTE, count: 1, drop: 'after' });
	const result = await ctx.run(formParameters());
	expect(result.items).toEqual([]);
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'noAnswer',
		changeApplied: 'maybe',
		sent: true,
	});
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(1);
	expect(await ctx.sandbox.kits()).toHaveLength(1);
});

test('a time-out is reported and not retried for a create', async () => {
	await ctx.sandbox.fault({ route: ROUTE, count: 1, delayMs: 1500 });
	const result = await ctx.run(
		{ ...formParameters(), options: { timeout: 200 } },
		{ continueOnFail: true },
	);
	expect(result.items[0].json.details).toMatchObject({
		outcome: 'noAnswer',
		changeApplied: 'maybe',
		timedOut: true,
		endpoint: '/kit/create',
	});
	expect(await ctx.sandbox.calls(ROUTE)).toHaveLength(1);
});

test('a create whose connection dropped is never sent again, even when nothing was committed', async () => {
	await ctx.sandbox.fault({ route: ROUTE, count: 1, drop: 'before' });
	const result = await ctx.run(formParameters(), { continueOnFail: true });
	// The node cannot tell a connection dropped before the service read the call from one dropped
	// after.
	expect(result.items[0].json.details).toMatchObject({
		outcome: 'noAnswer',
		changeApplied: 'maybe',
		sent: true,
	});
	expect(await ctx.sandbox.kits()).toEqual([]);
	expect((await ctx.sandbox.calls(ROUTE)).map((call) => call.dropped)).toEqual(['before']);
});
