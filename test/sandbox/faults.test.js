// Fault injection through POST /__sandbox/faults, over real HTTP.
const { start, expectError } = require('./support');

let client;
beforeAll(async () => {
	client = await start();
});
afterAll(() => client.close());
afterEach(() => client.reset());

const fault = async (body) => {
	const response = await client.admin.post('/faults', body);
	expect(response.status).toBe(200);
	expect(response.data).toEqual({ ok: true });
};
const createKit = (sku) => client.api('/kit/create', { data: { name: sku, sku } });
const kitSkus = async () => (await client.admin.get('/kits')).kits.map((kit) => kit.sku);

test('a status fault answers that status in the error shape with Retry-After, for the next count calls only', async () => {
	await fault({ route: '/api/kit/create', count: 2, status: 429, retryAfter: 3 });
	for (const sku of ['K-1', 'K-2']) {
		const response = await createKit(sku);
		expectError(response, 429, 'RATE_LIMITED');
		expect(response.headers['retry-after']).toBe('3');
	}
	const third = await createKit('K-3');
	expect(third.status).toBe(200);
	expect(third.headers['retry-after']).toBeUndefined();
	expect(await kitSkus()).toEqual(['K-3']);
});

test('a fault applies only to its route', async () => {
	await fault({ route: '/api/kit/create', status: 500 });
	expect((await client.bulk([])).status).toBe(200);
	expectError(await createKit('K-1'), 500, 'INTERNAL_ERROR');
	expect((await createKit('K-1')).status).toBe(200);
});

test('a 5xx fault is a server error in the error shape; a given body is answered verbatim', async () => {
	await fault({ route: '/api/order/get_single_bulk', status: 503 });
	const error = expectError(await client.bulk([]), 503, 'SERVICE_UNAVAILABLE');
	expect(error.display).toBe('panel');
	await fault({ route: '/api/order/get_single_bulk', status: 502, body: { oops: true } });
	const response = await client.bulk([]);
	expect(response.status).toBe(502);
	expect(response.data).toEqual({ oops: true });
});

test('a delay holds the call back and then serves it', async () => {
	await fault({ route: '/api/webhook/add_handler', delayMs: 150 });
	const response = await client.api('/webhook/add_handler', {
		type: 'order.shipped',
		name: 'n',
		handler: { url: 'http://127.0.0.1:9/' },
	});
	expect(response.status).toBe(200);
	expect((await client.admin.get('/handlers')).handlers).toHaveLength(1);
	expect((await client.admin.get('/faults')).faults).toEqual([]);
});

test("drop: 'before' closes the connection without processing", async () => {
	await fault({ route: '/api/kit/create', drop: 'before' });
	await expect(createKit('K-DROP')).rejects.toThrow();
	expect(await kitSkus()).toEqual([]);
	const [call] = await client.admin
		.get('/calls', { route: '/api/kit/create' })
		.then((body) => body.calls);
	expect(call).toEqual(
		expect.objectContaining({
			status: null,
			dropped: 'before',
			body: { data: { name: 'K-DROP', sku: 'K-DROP' } },
		}),
	);
});

test("drop: 'after' commits the change, then closes the connection without answering", async () => {
	await fault({ route: '/api/kit/create', drop: 'after' });
	await expect(createKit('K-AFTER')).rejects.toThrow();
	expect(await kitSkus()).toEqual(['K-AFTER']);
	// Sent again blindly, the same kit now clashes: why a write is never repeated without looking.
	expectError(await createKit('K-AFTER'), 409, 'DUPLICATE_SKU');
	const calls = (await client.admin.get('/calls', { route: '/api/kit/create' })).calls;
	expect(calls.map((call) => [call.status, call.dropped])).toEqual([
		[200, 'after'],
		[409, undefined],
	]);
});

test("drop: 'after' on restore_inventory commits the restore", async () => {
	const [shipment] = (await client.admin.get('/shipments', { deducted: 'true', limit: 1 }))
		.shipments;
	const body = {
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
	};
	await fault({ route: '/s/ship/shipping/restore_inventory', drop: 'after' });
	await expect(client.app('/ship/shipping/restore_inventory', body)).rejects.toThrow();
	expectError(await client.app('/ship/shipping/restore_inventory', body), 409, 'ALREADY_RESTORED');
});

test("drop: 'after' on get_single_bulk closes the connection after the lookup", async () => {
	await fault({ route: '/api/order/get_single_bulk', drop: 'after' });
	await expect(client.bulk([{ store_id: '1001', order_number: '1000' }])).rejects.toThrow();
	const [call] = (await client.admin.get('/calls')).calls;
	expect(call).toEqual(
		expect.objectContaining({ route: '/api/order/get_single_bulk', status: 200, dropped: 'after' }),
	);
	expect((await client.bulk([{ store_id: '1001', order_number: '1000' }])).data).toHaveLength(1);
});

test('a status fault comes before auth: it answers even a call without a token', async () => {
	await fault({ route: '/api/webhook/remove_handler', status: 500 });
	const response = await client.http.post(`${client.sandbox.baseUrl}/webhook/remove_handler`, {
		_id: 'x',
	});
	expectError(response, 500, 'INTERNAL_ERROR');
});

test('faults are validated: a known route and one of status, delayMs, drop', async () => {
	expectError(
		await client.admin.post('/faults', { route: '/api/nope', status: 500 }),
		400,
		'INVALID_FIELD',
	);
	expectError(
		await client.admin.post('/faults', { route: '/api/kit/create' }),
		400,
		'INVALID_FAULT',
	);
	expectError(
		await client.admin.post('/faults', { route: '/api/kit/create', drop: 'sideways' }),
		400,
		'INVALID_FIELD',
	);
	expectError(await client.admin.post('/faults', { status: 500 }), 400, 'MISSING_FIELD');
});

test('reset clears armed faults', async () => {
	await fault({ route: '/api/order/get_single_bulk', status: 500, count: 5 });
	await client.reset();
	expect((await client.bulk([])).status).toBe(200);
});

describe("route 'unserved': the paths no route serves, as a gateway's or a framework's catch-all answers them", () => {
	const CATCH_ALL = { success: false, message: 'Resource not found' };
	const beside = (base) =>
		client.http.post(`${base}/webhook/no-such-operation-n8n-path-check`, { _id: 'x' });

	test('answers any unserved path (under either base URL, without a token) for the next count calls, then the 404 again; service routes are untouched', async () => {
		await fault({ route: 'unserved', count: 2, status: 404, body: CATCH_ALL });
		expect((await client.bulk([])).status).toBe(200);
		const first = await beside(client.sandbox.baseUrl);
		expect([first.status, first.data]).toEqual([404, CATCH_ALL]);
		const second = await client.http.get(`${client.sandbox.appBaseUrl}/ship/anything`);
		expect([second.status, second.data]).toEqual([404, CATCH_ALL]);
		expect((await client.admin.get('/faults')).faults).toEqual([]);
		expectError(await beside(client.sandbox.baseUrl), 404, 'NOT_FOUND');
	});

	test('with a service route fault of the same answer, the route and the path beside it answer alike (a deploy)', async () => {
		await fault({ route: '/api/webhook/remove_handler', status: 404, body: CATCH_ALL });
		await fault({ route: 'unserved', status: 404, body: CATCH_ALL });
		const removed = await client.api('/webhook/remove_handler', { _id: 'x' });
		const unserved = await beside(client.sandbox.baseUrl);
		expect([removed.status, removed.data]).toEqual([unserved.status, unserved.data]);
		expect(unserved.data).toEqual(CATCH_ALL);
	});

	test("a status without a body answers in the error shape; a 403 as AWS API Gateway's; drop: 'before' closes; the call is recorded", async () => {
		await fault({ route: 'unserved', status: 503 });
		expectError(await beside(client.sandbox.baseUrl), 503, 'SERVICE_UNAVAILABLE');
		await fault({
			route: 'unserved',
			status: 403,
			body: { message: 'Missing Authentication Token' },
		});
		const refused = await beside(client.sandbox.appBaseUrl);
		expect([refused.status, refused.data]).toEqual([
			403,
			{ message: 'Missing Authentication Token' },
		]);
		await fault({ route: 'unserved', drop: 'before' });
		await expect(beside(client.sandbox.baseUrl)).rejects.toThrow();
		const calls = (await client.admin.get('/calls')).calls.map(({ route, status, dropped }) => [
			route,
			status,
			dropped,
		]);
		expect(calls).toEqual([
			['/api/webhook/no-such-operation-n8n-path-check', 503, undefined],
			['/s/webhook/no-such-operation-n8n-path-check', 403, undefined],
			['/api/webhook/no-such-operation-n8n-path-check', null, 'before'],
		]);
	});

	test('the admin API is never answered by it', async () => {
		await fault({
			route: 'unserved',
			status: 403,
			body: { message: 'Missing Authentication Token' },
		});
		expect((await client.http.get(`${client.sandbox.adminUrl}/no-such-admin-call`)).status).toBe(
			404,
		);
		expect((await client.admin.get('/faults')).faults).toHaveLength(1);
	});
});
