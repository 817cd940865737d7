// Property: whatever values reach the action node's parameters (random, malformed, hostile: control
// characters, huge strings, deep nesting, prototype keys, wrong types), every item ends either in a
// correct call or in an error that names the item and the field; the node never crashes, never
// sends a write twice, never lets the access token or a password given inside a URL out through an
// output or an error, and never pollutes Object.prototype. Through n8n's engine against the sandbox
// over real HTTP; calls are counted in the sandbox's call log. Runs and seed: see hostile.js.
const { useInventoryOps } = require('../helpers/inventoryOps');
const { sandboxCode } = require('../helpers/profile');
const {
	fc,
	settings,
	PASSWORD,
	text,
	maybe,
	url,
	hostile,
	deepText,
	jsonText,
	expectNoPollution,
} = require('./hostile');

const ctx = useInventoryOps({ orders: 40 });

// What the service may refuse that only it can know; anything else it refuses means the node sent a
// bad request. The sandbox's codes for these (its example, sandbox/README.md), as the profile's
// service sends them.
const BUSINESS_CODES = new Set(
	[
		'UNKNOWN_COMPONENT',
		'DUPLICATE_SKU',
		'HANDLER_NOT_FOUND',
		'SHIPMENT_NOT_FOUND',
		'ALREADY_RESTORED',
		'NOTHING_TO_RESTORE',
	].map(sandboxCode),
);
// The field may itself hold quotes (an unknown key is shown as JSON text), so the name runs to the
// last "' is", "' must" or "' repeats".
const NAMED = /^Item (\d+): '(.+)' (is|must|repeats) /;

let itemIds;
let orders;
let shipments;
beforeAll(async () => {
	itemIds = (await ctx.sandbox.items()).slice(0, 5).map((item) => item.item_id);
	orders = (await ctx.sandbox.orders({ limit: 5 })).map(({ store_id, order_number }) => ({
		store_id,
		order_number,
	}));
	const { data } = await require('axios').get(`${ctx.sandbox.adminUrl}/shipments`, {
		params: { deducted: 'true', limit: 5 },
	});
	shipments = data.shipments;
});

/**
 * Tally across the runs of one property: both outcomes must occur, or the property proves little.
 */
const tally = { success: 0, named: 0, business: 0, credentialsRemoved: 0 };
beforeEach(() =>
	Object.assign(tally, { success: 0, named: 0, business: 0, credentialsRemoved: 0 }),
);
afterEach(() => {
	expect(tally.success).toBeGreaterThan(0);
	expect(tally.named).toBeGreaterThan(0);
});

/**
 * Runs the node once on `input` and checks the property. `writeRoute`: the route of a call that
 * changes data, which must be sent at most once per item, and exactly once per item that reached
 * the service.
 */
async function runAndCheck(
	parameters,
	input,
	{
		writeRoute,
		readRoute,
		onePerItem = true,
		stop = false,
		reset = true,
		learnsAfterSuccess = false,
	},
) {
	if (reset) await ctx.sandbox.reset();
	const result = await ctx.run(parameters, {
		items: input.map((json) => ({ json })),
		continueOnFail: !stop,
	});
	const everything = JSON.stringify({
		items: result.items,
		error: result.error && {
			...result.error,
			message: result.error.message,
			description: result.error.description,
		},
	});
	expect(everything).not.toContain(PASSWORD);
	expect(everything).not.toContain(ctx.sandbox.demoToken);
	expectNoPollution();

	// Every call, a hostile id the sandbox never issued too (the sandbox leaves those out unless
	// asked).
	const writes = writeRoute ? await ctx.sandbox.calls(writeRoute, { probes: true }) : [];
	if (stop) {
		// Stopped at the first failed item: that failure names it (or is the service's), and nothing
		// was sent twice.
		if (result.error) {
			const named = NAMED.exec(result.error.message);
			if (named) tally.named++;
			else
				expect(
					BUSINESS_CODES.has(
						result.error.errorResponse?.code ?? result.error.context?.data?.code ?? '',
					),
				).toBe(true);
		}
		expect(writes.length).toBeLessThanOrEqual(input.length);
		return;
	}
	expect(result.error).toBeUndefined();
	const indexes = result.items.map((item) => item.pairedItem.item);
	if (onePerItem) expect(indexes).toEqual(input.map((_, index) => index));
	let reached = 0;
	let succeeded = 0;
	for (const item of result.items) {
		const { error, details } = item.json;
		if (error === undefined) {
			if (item.json.urlCredentialsRemoved === true) tally.credentialsRemoved++;
			tally.success++;
			reached++;
			succeeded++;
			continue;
		}
		const named = NAMED.exec(error);
		if (named) {
			expect(Number(named[1])).toBe(item.pairedItem.item);
			tally.named++;
		} else {
			expect({ error, code: details?.code, business: BUSINESS_CODES.has(details?.code) }).toEqual(
				expect.objectContaining({ business: true }),
			);
			tally.business++;
			reached++;
		}
	}
	// Remove sends the id it has just removed once more, to learn the service's answer to an unknown
	// id (at most one success here: one item at most names the existing handler).
	if (writeRoute) expect(writes.length).toBe(reached + (learnsAfterSuccess ? succeeded : 0));
	if (readRoute)
		for (const call of await ctx.sandbox.calls(readRoute)) expect(call.status).toBe(200);
}

const stop = fc.integer({ min: 0, max: 4 }).map((value) => value === 0);

test('Kit -> Create, JSON mode: random and hostile kits as JSON text', async () => {
	const component = fc.oneof(
		{
			weight: 4,
			arbitrary: fc.record(
				{
					item_id: maybe(fc.constantFrom('', 'nope', 'x')),
					sku: maybe(text),
					quantity: maybe(fc.integer({ min: 1, max: 5 })),
					type: maybe(text),
				},
				{ requiredKeys: [] },
			),
		},
		{ weight: 4, arbitrary: fc.constant(null).map(() => undefined) },
		{
			weight: 1,
			arbitrary: fc.record({ item_id: text, quantity: fc.constant(1), qty: fc.constant(2) }),
		},
		{ weight: 1, arbitrary: hostile },
	);
	const kit = fc.record(
		{
			name: maybe(text),
			sku: maybe(fc.uuid().map((id) => `KIT-${id}`)),
			items: maybe(
				fc
					.array(component, { maxLength: 3 })
					.map((list) => list.filter((entry) => entry !== undefined)),
			),
			cost: maybe(
				fc.oneof(
					fc.double({ min: 0, max: 1e6, noNaN: true }),
					fc.constantFrom('12.50', '0x10', '1e3'),
				),
			),
			barcodes: maybe(fc.array(text, { maxLength: 3 })),
			active: maybe(fc.constantFrom(true, false, 'true')),
			image: maybe(url),
		},
		{ requiredKeys: [] },
	);
	await fc.assert(
		fc.asyncProperty(
			fc.array(
				fc.oneof(
					{ weight: 6, arbitrary: jsonText(kit) },
					{ weight: 1, arbitrary: hostile },
					{ weight: 1, arbitrary: deepText },
				),
				{ minLength: 1, maxLength: 8 },
			),
			stop,
			async (kits, stopOnFail) => {
				// A component of a real item lets some kits through; the rest test the refusals.
				const input = kits.map((kitData, index) => ({
					kitData:
						typeof kitData === 'string' && index % 2 === 0
							? kitData.replace('"nope"', JSON.stringify(itemIds[0]))
							: kitData,
				}));
				await runAndCheck(
					{
						resource: 'kit',
						operation: 'create',
						inputMode: 'json',
						kitData: '={{ $json.kitData }}',
					},
					input,
					{ writeRoute: '/api/kit/create', stop: stopOnFail },
				);
			},
		),
		settings,
	);
});

test('Kit -> Create, form mode: hostile values in every field', async () => {
	const row = fc.record({
		itemId: maybe(fc.constantFrom(...['ITEM'])),
		sku: maybe(text),
		quantity: maybe(fc.integer({ min: 1, max: 3 })),
		type: maybe(text),
	});
	const item = fc.record({
		name: maybe(text),
		sku: maybe(fc.uuid()),
		rows: fc.array(row, { maxLength: 2 }),
		barcodes: maybe(fc.array(text, { maxLength: 2 })),
		weight: maybe(fc.oneof(fc.nat(100), fc.constantFrom('7', '0x7'))),
		notes: maybe(text),
	});
	await fc.assert(
		fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 6 }), async (items) => {
			const input = items.map((entry) => ({
				...entry,
				rows: entry.rows.map((r) => ({
					...r,
					itemId: r.itemId === 'ITEM' ? itemIds[1] : r.itemId,
				})),
			}));
			const rowCount = Math.max(0, ...input.map((entry) => entry.rows.length));
			await runAndCheck(
				{
					resource: 'kit',
					operation: 'create',
					inputMode: 'fields',
					name: '={{ $json.name }}',
					sku: '={{ $json.sku }}',
					barcodes: '={{ $json.barcodes }}',
					kitItems: {
						item: Array.from({ length: rowCount }, (_, index) => ({
							itemId: `={{ $json.rows[${index}]?.itemId }}`,
							sku: `={{ $json.rows[${index}]?.sku }}`,
							quantity: `={{ $json.rows[${index}]?.quantity }}`,
							type: `={{ $json.rows[${index}]?.type }}`,
						})),
					},
					additionalFields: { weight: '={{ $json.weight }}', notes: '={{ $json.notes }}' },
				},
				input,
				{ writeRoute: '/api/kit/create' },
			);
		}),
		settings,
	);
});

test('Order -> Get Many: hostile store ids and order numbers, and hostile reference lists', async () => {
	const reference = fc.oneof(
		fc.constantFrom(...orders),
		fc.record({ store_id: maybe(text), order_number: maybe(text) }, { requiredKeys: [] }),
	);
	const item = fc.record({
		store_id: maybe(fc.constantFrom(...orders.map((order) => order.store_id))),
		order_number: maybe(fc.constantFrom(...orders.map((order) => order.order_number))),
		references: fc.oneof(
			{ weight: 4, arbitrary: jsonText(fc.array(reference, { minLength: 1, maxLength: 4 })) },
			{ weight: 1, arbitrary: hostile },
			{ weight: 1, arbitrary: deepText },
		),
	});
	await fc.assert(
		fc.asyncProperty(
			fc.array(item, { minLength: 1, maxLength: 8 }),
			fc.constantFrom('storeAndOrderNumber', 'list', 'itemFields'),
			async (input, lookUpBy) => {
				await runAndCheck(
					{
						resource: 'order',
						operation: 'lookUp',
						lookUpBy,
						storeId: '={{ $json.store_id }}',
						orderNumber: '={{ $json.order_number }}',
						references: '={{ $json.references }}',
					},
					input,
					{ readRoute: '/api/order/get_single_bulk', onePerItem: lookUpBy !== 'list' },
				);
			},
		),
		settings,
	);
});

test('Shipment -> Restore Inventory: hostile ids and selectors', async () => {
	const item = fc.oneof(
		fc.constantFrom(...shipments).map((shipment) => ({
			store_id: shipment.store_id,
			order_number: shipment.order_number,
			shipment_id: shipment._id,
		})),
		fc.record(
			{
				store_id: maybe(text),
				order_number: maybe(text),
				shipment_id: maybe(text),
				tracking: maybe(text, 1),
				no_refresh: maybe(fc.boolean()),
			},
			{ requiredKeys: [] },
		),
	);
	await fc.assert(
		fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 6 }), async (input) => {
			await runAndCheck(
				{
					resource: 'shipment',
					operation: 'restoreInventory',
					storeId: '={{ $json.store_id }}',
					orderNumber: '={{ $json.order_number }}',
					shipmentId: '={{ $json.shipment_id }}',
					trackingNumber: '={{ $json.tracking }}',
					noRefresh: '={{ $json.no_refresh }}',
				},
				input,
				{ writeRoute: '/s/ship/shipping/restore_inventory' },
			);
		}),
		settings,
	);
});

test('Webhook Handler -> Add: hostile names, URLs (with passwords), methods and headers', async () => {
	const header = fc.oneof(
		{
			weight: 6,
			arbitrary: fc.record({
				name: fc.constantFrom('X-Secret', 'Authorization', 'X-A'),
				value: fc.string({ maxLength: 20 }),
			}),
		},
		fc.record({
			name: maybe(fc.constantFrom('x-secret', 'X-SECRET', 'Bad Name', '__proto__', 'X-\u00e9')),
			value: maybe(fc.oneof(text, fc.constantFrom('a\r\nInjected: 1', 'nul\u0000', 'tab\tok'))),
		}),
	);
	const item = fc.record({
		type: maybe(fc.constantFrom('order.shipped', 'order.status.*', 'x')),
		name: maybe(text),
		url,
		method: maybe(fc.constantFrom('POST', 'put', 'GET', 'TRACE')),
		headers: fc.array(header, { maxLength: 2 }),
	});
	await fc.assert(
		fc.asyncProperty(
			fc.array(item, { minLength: 1, maxLength: 8 }),
			stop,
			async (input, stopOnFail) => {
				const headerCount = Math.max(0, ...input.map((entry) => entry.headers.length));
				await runAndCheck(
					{
						resource: 'webhookHandler',
						operation: 'add',
						eventType: 'custom',
						customEventType: '={{ $json.type }}',
						name: '={{ $json.name }}',
						url: '={{ $json.url }}',
						method: '={{ $json.method }}',
						headers: {
							header: Array.from({ length: headerCount }, (_, index) => ({
								name: `={{ $json.headers[${index}]?.name }}`,
								value: `={{ $json.headers[${index}]?.value }}`,
							})),
						},
					},
					input,
					{ writeRoute: '/api/webhook/add_handler', stop: stopOnFail },
				);
			},
		),
		settings,
	);
	// Some handlers were added with a password in their URL, and their output said it was removed.
	expect(tally.credentialsRemoved).toBeGreaterThan(0);
});

test('Webhook Handler -> Remove: hostile handler ids', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.record({ id: maybe(fc.oneof(text, fc.constant('EXISTING'))) }), {
				minLength: 1,
				maxLength: 6,
			}),
			async (items) => {
				await ctx.sandbox.reset();
				const response = await fetch(`${ctx.sandbox.baseUrl}/webhook/add_handler`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${ctx.sandbox.demoToken}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({
						type: 'order.shipped',
						name: 'to remove',
						handler: { url: 'https://example.com/x' },
					}),
				});
				const { _id } = await response.json();
				// One item at most names the existing handler: a second removal of it would be the
				// service's refusal.
				let used = false;
				const input = items.map(({ id }) => ({
					id: id === 'EXISTING' && !used ? ((used = true), _id) : id === 'EXISTING' ? 'gone' : id,
				}));
				await runAndCheck(
					{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
					input,
					{
						writeRoute: '/api/webhook/remove_handler',
						reset: false,
						learnsAfterSuccess: true,
					},
				);
			},
		),
		settings,
	);
});
