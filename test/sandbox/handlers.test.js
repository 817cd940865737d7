// POST {base_url}/webhook/add_handler and remove_handler (docs/service-interface.md, Add / Remove
// webhook handler) and their switches, over real HTTP.
const { start, expectError } = require('./support');

let client;
beforeAll(async () => {
	client = await start();
});
afterAll(() => client.close());
afterEach(() => client.reset());

const handler = {
	type: 'order.status.*',
	name: 'Status changes',
	handler: { url: 'http://127.0.0.1:9/hook', method: 'POST', headers: { 'X-Secret': 'abc' } },
};
const add = (body) => client.api('/webhook/add_handler', body);
const remove = (id) => client.api('/webhook/remove_handler', { _id: id });
const stored = async () => (await client.admin.get('/handlers')).handlers;

test('add_handler stores the handler and answers { success, _id } by default', async () => {
	const response = await add(handler);
	expect(response.status).toBe(200);
	expect(response.data).toEqual({ success: true, _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
	expect(await stored()).toEqual([
		{ _id: response.data._id, ...handler, created_at: expect.stringMatching(/Z$/) },
	]);
});

test('addHandlerReturnsId: false answers { success } only; the handler is still stored', async () => {
	await client.sandbox.config({ addHandlerReturnsId: false });
	const response = await add(handler);
	expect(response.data).toEqual({ success: true });
	expect(await stored()).toHaveLength(1);
});

test('method defaults to POST and headers to {}; adding twice makes two handlers', async () => {
	const bare = {
		type: 'item.inventory',
		name: 'Stock',
		handler: { url: 'https://example.com/hook' },
	};
	await add(bare);
	await add(bare);
	const handlers = await stored();
	expect(handlers).toHaveLength(2);
	expect(handlers[0].handler).toEqual({
		url: 'https://example.com/hook',
		method: 'POST',
		headers: {},
	});
	expect(handlers[0]._id).not.toBe(handlers[1]._id);
});

test('type, name and handler.url are required; types are checked', async () => {
	expect(
		expectError(await add({ ...handler, type: undefined }), 400, 'MISSING_FIELD').message,
	).toBe('body.type is required');
	expect(
		expectError(await add({ ...handler, name: undefined }), 400, 'MISSING_FIELD').message,
	).toBe('body.name is required');
	expect(expectError(await add({ ...handler, handler: {} }), 400, 'MISSING_FIELD').message).toBe(
		'body.handler.url is required',
	);
	expectError(await add({ ...handler, handler: { url: 'ftp://x' } }), 400, 'INVALID_FIELD');
	expectError(await add({ ...handler, type: '' }), 400, 'INVALID_FIELD');
	expectError(
		await add({ ...handler, handler: { url: 'http://x', headers: { n: 1 } } }),
		400,
		'INVALID_FIELD_TYPE',
	);
	expectError(await add({ ...handler, handler: 'http://x' }), 400, 'INVALID_FIELD_TYPE');
	expect(await stored()).toEqual([]);
});

test('remove_handler removes the handler and answers { success: true }', async () => {
	const { _id: keep } = (await add(handler)).data;
	const { _id: gone } = (await add({ ...handler, name: 'other' })).data;
	const response = await remove(gone);
	expect(response.status).toBe(200);
	expect(response.data).toEqual({ success: true });
	expect((await stored()).map((h) => h._id)).toEqual([keep]);
});

test('remove of an unknown _id is 404 HANDLER_NOT_FOUND by default', async () => {
	const { _id } = (await add(handler)).data;
	await remove(_id);
	const error = expectError(await remove(_id), 404, 'HANDLER_NOT_FOUND');
	expect(error.message).toContain(_id);
});

test('removeUnknown: success-false answers 200 { success: false }', async () => {
	const config = await client.sandbox.config({ removeUnknown: 'success-false' });
	expect(config.removeUnknown).toBe('success-false');
	const response = await remove('ffffffffffffffffffffffff');
	expect(response.status).toBe(200);
	expect(response.data).toEqual({ success: false });
});

test('remove needs an _id string', async () => {
	expectError(await client.api('/webhook/remove_handler', {}), 400, 'MISSING_FIELD');
	expectError(await client.api('/webhook/remove_handler', { _id: 12 }), 400, 'INVALID_FIELD_TYPE');
});

test('reset clears handlers', async () => {
	await add(handler);
	await client.reset();
	expect(await stored()).toEqual([]);
});
