// POST {base_url}/kit/create (docs/service-interface.md, Create kit), over real HTTP.
const { start, expectError } = require('./support');

let client;
let items;
beforeAll(async () => {
	client = await start();
	items = (await client.admin.get('/items')).items;
});
afterAll(() => client.close());
afterEach(() => client.reset());

const createKit = (data) => client.api('/kit/create', { data });

test('a kit with components is created: { success, _id, new_kit_id } and listed by the admin API', async () => {
	const response = await createKit({
		name: 'Starter bundle',
		sku: 'KIT-START',
		items: [
			{ item_id: items[0].item_id, quantity: 2, type: 'item' },
			{ sku: items[1].sku, quantity: 1 },
		],
		barcodes: ['0123456789012'],
		tags: ['tag_bundle'],
		cost: 10,
		retail: 25.5,
		active: true,
		weight: 16,
		lag_time: 2,
	});
	expect(response.status).toBe(200);
	expect(response.data).toEqual({
		success: true,
		_id: expect.stringMatching(/^[0-9a-f]{24}$/),
		new_kit_id: expect.stringMatching(/^[0-9a-f]{24}$/),
	});
	expect(response.data._id).not.toBe(response.data.new_kit_id);

	const [kit] = (await client.admin.get('/kits')).kits;
	expect(kit).toEqual(
		expect.objectContaining({
			_id: response.data._id,
			new_kit_id: response.data.new_kit_id,
			name: 'Starter bundle',
			sku: 'KIT-START',
			retail: 25.5,
		}),
	);
	expect(kit.items).toEqual([
		{ item_id: items[0].item_id, sku: items[0].sku, quantity: 2, type: 'item' },
		{ item_id: items[1].item_id, sku: items[1].sku, quantity: 1, type: 'item' },
	]);
	// new_kit_id is the catalogue item the kit is sold as.
	const [asItem] = (await client.admin.get('/items', { item_id: response.data.new_kit_id })).items;
	expect(asItem).toEqual(expect.objectContaining({ sku: 'KIT-START', inventory: [] }));
});

test('name and sku are the only required fields', async () => {
	const response = await createKit({ name: 'Bare kit', sku: 'KIT-BARE' });
	expect(response.status).toBe(200);
	expect(response.data.success).toBe(true);
	expectError(await createKit({ sku: 'KIT-NONAME' }), 400, 'MISSING_FIELD');
	const error = expectError(await createKit({ name: 'No SKU' }), 400, 'MISSING_FIELD');
	expect(error.message).toBe('body.data.sku is required');
	expectError(await client.api('/kit/create', { name: 'x', sku: 'y' }), 400, 'MISSING_FIELD');
	expect((await client.admin.get('/kits')).kits).toHaveLength(1);
});

test('wrong field types are 400 INVALID_FIELD_TYPE naming the field', async () => {
	const error = expectError(
		await createKit({ name: 'Kit', sku: 'KIT-T', cost: '10' }),
		400,
		'INVALID_FIELD_TYPE',
	);
	expect(error.message).toBe('body.data.cost must be number');
	expectError(
		await createKit({
			name: 'Kit',
			sku: 'KIT-T',
			items: [{ item_id: items[0].item_id, quantity: '2' }],
		}),
		400,
		'INVALID_FIELD_TYPE',
	);
	expectError(
		await createKit({ name: 'Kit', sku: 'KIT-T', active: 'yes' }),
		400,
		'INVALID_FIELD_TYPE',
	);
	expectError(await client.api('/kit/create', { data: 'Kit' }), 400, 'INVALID_FIELD_TYPE');
});

test('a component needs a positive quantity and an item_id or sku', async () => {
	expectError(
		await createKit({
			name: 'Kit',
			sku: 'KIT-Q',
			items: [{ item_id: items[0].item_id, quantity: 0 }],
		}),
		400,
		'INVALID_FIELD',
	);
	expectError(
		await createKit({ name: 'Kit', sku: 'KIT-Q', items: [{ item_id: items[0].item_id }] }),
		400,
		'MISSING_FIELD',
	);
	const error = expectError(
		await createKit({ name: 'Kit', sku: 'KIT-Q', items: [{ quantity: 1 }] }),
		400,
		'MISSING_FIELD',
	);
	expect(error.message).toContain('body.data.items[0]');
});

test('an unknown component is 400 UNKNOWN_COMPONENT naming it, and no kit is made', async () => {
	const byId = expectError(
		await createKit({
			name: 'Kit',
			sku: 'KIT-U',
			items: [
				{ item_id: items[0].item_id, quantity: 1 },
				{ item_id: 'ffffffffffffffffffffffff', quantity: 1 },
			],
		}),
		400,
		'UNKNOWN_COMPONENT',
	);
	expect(byId.message).toContain('body.data.items[1]');
	expect(byId.message).toContain('ffffffffffffffffffffffff');
	expectError(
		await createKit({ name: 'Kit', sku: 'KIT-U', items: [{ sku: 'NO-SUCH-SKU', quantity: 1 }] }),
		400,
		'UNKNOWN_COMPONENT',
	);
	expect((await client.admin.get('/kits')).kits).toEqual([]);
});

test('a duplicate SKU is 409 DUPLICATE_SKU, against kits and items, case-insensitively', async () => {
	expect((await createKit({ name: 'First', sku: 'KIT-DUP' })).status).toBe(200);
	const kitClash = expectError(
		await createKit({ name: 'Second', sku: ' kit-dup ' }),
		409,
		'DUPLICATE_SKU',
	);
	expect(kitClash.message).toContain('kit');
	expectError(await createKit({ name: 'Item clash', sku: items[3].sku }), 409, 'DUPLICATE_SKU');
	expect((await client.admin.get('/kits')).kits).toHaveLength(1);
});

test('a kit can be a component of another kit through its new_kit_id', async () => {
	const inner = (await createKit({ name: 'Inner', sku: 'KIT-INNER' })).data;
	const outer = await createKit({
		name: 'Outer',
		sku: 'KIT-OUTER',
		items: [{ item_id: inner.new_kit_id, quantity: 2 }],
	});
	expect(outer.status).toBe(200);
});

test('reset forgets kits and frees their SKUs', async () => {
	expect((await createKit({ name: 'Kit', sku: 'KIT-RESET' })).status).toBe(200);
	await client.reset();
	expect((await client.admin.get('/kits')).kits).toEqual([]);
	expect((await createKit({ name: 'Kit', sku: 'KIT-RESET' })).status).toBe(200);
});
