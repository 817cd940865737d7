// The admin API (/__sandbox/) and the rate limit, over real HTTP.
const { start, expectError } = require('./support');

let client;
beforeAll(async () => {
	client = await start();
});
afterAll(() => client.close());
afterEach(() => client.reset());

test('calls records every request outside the admin API, in order, with route, status and body', async () => {
	await client.bulk([{ store_id: '1001', order_number: '1000' }]);
	await client.api('/kit/create', { data: { name: 'K', sku: 'K-CALLS' } });
	await client.api('/kit/create', { data: { name: 'K' } });
	await client.http.post(`${client.sandbox.origin}/api/nowhere`, {});
	await client.http.post(`${client.sandbox.baseUrl}/kit/create`, { data: {} });
	const { calls } = await client.admin.get('/calls');
	expect(calls.map((call) => [call.route, call.status])).toEqual([
		['/api/order/get_single_bulk', 200],
		['/api/kit/create', 200],
		['/api/kit/create', 400],
		['/api/nowhere', 404],
		['/api/kit/create', 401],
	]);
	expect(calls[1]).toEqual({
		route: '/api/kit/create',
		method: 'POST',
		status: 200,
		body: { data: { name: 'K', sku: 'K-CALLS' } },
		time: expect.stringMatching(/Z$/),
		ms: expect.any(Number),
		concurrent: 1,
	});
	const kitCalls = (await client.admin.get('/calls', { route: '/api/kit/create' })).calls;
	expect(kitCalls).toHaveLength(3);
	// A filter that can match nothing is refused: "no call to it" would prove nothing (the restore
	// route is under /s).
	for (const route of ['/ship/shipping/restore_inventory', '/api/nowhere']) {
		const refused = await client.http.get(`${client.sandbox.adminUrl}/calls`, {
			params: { route },
		});
		expectError(refused, 400, 'UNKNOWN_ROUTE');
	}
});

test('orders can be listed with limit, store_id and order_number', async () => {
	expect((await client.admin.get('/orders')).orders).toHaveLength(100);
	expect(
		(await client.admin.get('/orders', { limit: 3 })).orders.map(
			(o) => `${o.store_id}/${o.order_number}`,
		),
	).toEqual(['1001/1000', '1002/1000', '1003/1000']);
	const inStore = (await client.admin.get('/orders', { store_id: '1004', limit: 5 })).orders;
	expect(inStore.map((o) => o.store_id)).toEqual(['1004', '1004', '1004', '1004', '1004']);
	expect(
		(await client.admin.get('/orders', { order_number: '1003' })).orders.map((o) => o.store_id),
	).toEqual(['1001', '1002', '1003', '1004']);
	expect(
		(await client.admin.get('/orders', { store_id: '1002', order_number: '1003' })).orders,
	).toHaveLength(1);
	expect((await client.admin.get('/orders', { store_id: '9999' })).orders).toEqual([]);
	expect((await client.admin.get('/orders', { order_number: '999999' })).orders).toEqual([]);
	expect((await client.admin.get('/orders', { limit: 0 })).orders).toEqual([]);
});

test('items show stock per location; stores lists stores and locations', async () => {
	const { items } = await client.admin.get('/items');
	expect(items).toHaveLength(200);
	expect(items[0]).toEqual({
		item_id: expect.any(String),
		sku: 'SKU-0001',
		name: expect.any(String),
		inventory: expect.any(Array),
	});
	expect(items[0].inventory[0]).toEqual({
		location_id: expect.any(String),
		on_hand: expect.any(Number),
		alert: expect.any(Number),
		inbound: expect.any(Number),
	});
	expect((await client.admin.get('/items', { item_id: items[5].item_id })).items).toEqual([
		items[5],
	]);
	expect((await client.admin.get('/items', { item_id: 'nope' })).items).toEqual([]);
	const { stores, locations } = await client.admin.get('/stores');
	expect(stores.map((s) => s.store_id)).toEqual(['1001', '1002', '1003', '1004']);
	expect(locations).toHaveLength(4);
});

test('tokens are issued with the scopes and lifetime asked for', async () => {
	const { data } = await client.admin.post('/tokens', {
		scopes: ['platformUser'],
		expiresInSeconds: 90,
	});
	const claims = JSON.parse(Buffer.from(data.token.split('.')[1], 'base64url').toString());
	expect(claims.scopes).toEqual(['platformUser']);
	expect(claims.exp - claims.iat).toBe(90);
	const defaults = (await client.admin.post('/tokens')).data.token;
	expect(JSON.parse(Buffer.from(defaults.split('.')[1], 'base64url').toString()).scopes).toEqual([
		'platformGeneric',
		'platformApi',
	]);
	expectError(
		await client.admin.post('/tokens', { scopes: 'platformApi' }),
		400,
		'INVALID_FIELD_TYPE',
	);
});

test('config answers the whole config, validates switches, and reset restores the starting config', async () => {
	const whole = (
		await client.admin.post('/config', { bulkOrder: 'shuffled', removeUnknown: '404' })
	).data;
	expect(whole).toEqual({
		bulkOrder: 'shuffled',
		bulkUnmatched: 'omit',
		bulkMaxLength: 500,
		addHandlerId: 'top',
		removeUnknown: 404,
		bulkTooLongStatus: 400,
		bulkOrderFields: 'all',
		bulkReferencePattern: null,
		latencyMs: 0,
		latencyPerKbMs: 0,
		refusals: 'status',
		errorBodies: 'spec',
		retryAfter: 'seconds',
		deliveryBody: 'event',
		wildcards: 'suffix',
		bulkEntries: 'wrapped',
		errorCodes: 'sandbox',
		restoreChecks: 'request-first',
		unknownPaths: 'plain',
		rateLimit: false,
		delivery: { maxAttempts: 4, baseDelayMs: 200, timeoutMs: 5000 },
	});
	expect(await client.admin.get('/config')).toEqual(whole);
	expectError(await client.admin.post('/config', { bulkOrder: 'random' }), 400, 'INVALID_FIELD');
	expectError(await client.admin.post('/config', { noSuchSwitch: true }), 400, 'INVALID_FIELD');
	expectError(
		await client.admin.post('/config', { bulkMaxLength: 'ten' }),
		400,
		'INVALID_FIELD_TYPE',
	);
	await client.reset();
	expect((await client.admin.get('/config')).bulkOrder).toBe('request');
});

test('startSandbox config sets the starting switches, which reset keeps', async () => {
	const other = await start({
		orders: 50,
		config: { bulkUnmatched: 'entry', addHandlerReturnsId: false },
	});
	try {
		await other.reset();
		const config = await other.admin.get('/config');
		expect(config).toEqual(
			expect.objectContaining({
				bulkUnmatched: 'entry',
				addHandlerId: 'none',
				bulkOrder: 'request',
			}),
		);
		expect((await other.bulk([{ store_id: '1001', order_number: 'x' }])).data).toEqual([
			{ store_id: '1001', order_number: 'x', metrics: { matched: false } },
		]);
	} finally {
		await other.close();
	}
});

test('reset clears calls and answers how long seeding took', async () => {
	await client.bulk([]);
	const { data } = await client.admin.post('/reset');
	expect(data).toEqual({ ok: true, seedMs: expect.any(Number) });
	expect((await client.admin.get('/calls')).calls).toEqual([]);
});

test('stats report the sandbox thread CPU time, the number of calls and the heap', async () => {
	const before = await client.admin.get('/stats');
	await client.bulk([{ store_id: '1001', order_number: '1000' }]);
	const after = await client.admin.get('/stats');
	expect(after).toEqual({
		threadCpuMs: expect.any(Number),
		calls: 1,
		tooManyRequests: 0,
		connections: 1,
		heapUsedMb: expect.any(Number),
	});
	expect(after.threadCpuMs).toBeGreaterThanOrEqual(before.threadCpuMs);
	expect(before.calls).toBe(0);
});

test('an unknown admin path is 404 in the error shape', async () => {
	expectError(await client.http.get(`${client.sandbox.adminUrl}/nope`), 404, 'NOT_FOUND');
});

describe('rate limit', () => {
	test('stats count the 429s answered (the bench reads them, not the calls beyond one per batch)', async () => {
		await client.sandbox.config({ rateLimit: { max: 1, windowMs: 60_000 } });
		for (let i = 0; i < 3; i++) await client.bulk([]);
		expect((await client.admin.get('/stats')).tooManyRequests).toBe(2);
	});

	test('over the limit per token: 429 RATE_LIMITED with Retry-After in seconds; other tokens are not affected', async () => {
		await client.sandbox.config({ rateLimit: { max: 3, windowMs: 60_000 } });
		for (let i = 0; i < 3; i++) expect((await client.bulk([])).status).toBe(200);
		const limited = await client.bulk([]);
		const error = expectError(limited, 429, 'RATE_LIMITED');
		expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
		expect(error.message).toContain(limited.headers['retry-after']);
		const other = await client.sandbox.issueToken({ scopes: ['platformApi'] });
		expect((await client.bulk([], { token: other })).status).toBe(200);
	});

	test('the window passes', async () => {
		// A window of a second: a loaded machine took more than 100 ms between two calls, and the
		// second went through.
		await client.sandbox.config({ rateLimit: { max: 1, windowMs: 1000 } });
		expect((await client.bulk([])).status).toBe(200);
		expect((await client.bulk([])).status).toBe(429);
		await new Promise((resolve) => setTimeout(resolve, 1100));
		expect((await client.bulk([])).status).toBe(200);
	});

	test('rateLimit: false turns it off', async () => {
		await client.sandbox.config({ rateLimit: { max: 1, windowMs: 60_000 } });
		await client.bulk([]);
		expect((await client.bulk([])).status).toBe(429);
		await client.sandbox.config({ rateLimit: false });
		for (let i = 0; i < 5; i++) expect((await client.bulk([])).status).toBe(200);
	});

	test('the default limit of startSandbox is 600 calls a minute per token', async () => {
		const other = await require('../../sandbox').startSandbox({ port: 0, orders: 10 });
		try {
			expect((await other.config({})).rateLimit).toEqual({ max: 600, windowMs: 60_000 });
		} finally {
			await other.close();
		}
	});
});

test('the inbox keeps what was posted to it, in order, until a reset', async () => {
	expect((await client.admin.get('/inbox')).messages).toEqual([]);
	expect((await client.admin.post('/inbox', { text: 'first' })).data).toEqual({
		ok: true,
		messages: 1,
	});
	await client.admin.post('/inbox', { text: 'second', channel: '#orders' });
	const { messages } = await client.admin.get('/inbox');
	expect(messages).toEqual([
		{ time: expect.stringMatching(/Z$/), body: { text: 'first' } },
		{ time: expect.stringMatching(/Z$/), body: { text: 'second', channel: '#orders' } },
	]);
	// The inbox is not a service route: posting to it is not a call of the service.
	expect((await client.admin.get('/calls')).calls).toEqual([]);
	await client.admin.post('/reset');
	expect((await client.admin.get('/inbox')).messages).toEqual([]);
});
