// Webhook Handler -> Remove through n8n's engine against the sandbox.
const { useInventoryOps } = require('../../../helpers/inventoryOps');
const { answers, errorSeen, sandboxCode } = require('../../../helpers/profile');

const REMOVE = '/api/webhook/remove_handler';
const ctx = useInventoryOps({ orders: 10 });

test('remove sends the _id and outputs the answer; an unknown _id is a 404 error item', async () => {
	const id = await ctx.sandbox.addHandler();
	const result = await ctx.run(
		{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
		{ items: [{ id }, { id }], continueOnFail: true },
	);
	expect((await ctx.sandbox.calls(REMOVE)).map((call) => call.body)).toEqual([{ _id: id }, { _id: id }]);
	expect(result.items[0]).toEqual({ json: { _id: id, success: true, removed: true }, pairedItem: { item: 0 } });
	// The profile's service says "unknown handler" with a 404, or with a bare 200 success: false: an error item
	// either way (a bare success: false proves nothing removed, nor the handler unknown).
	const refusedBare = answers.removeUnknown === 'success-false';
	expect(result.items[1]).toEqual({
		json: {
			error: expect.any(String),
			details: expect.objectContaining({
				httpCode: refusedBare ? '200' : '404',
				outcome: 'refused',
				// Only the service's own words for a 404, unlike those of a path nothing serves, prove the handler unknown.
				handlerGone: !refusedBare && Boolean(errorSeen(404).serviceMessage),
				...(!refusedBare && errorSeen(404).code ? { code: sandboxCode('HANDLER_NOT_FOUND') } : {}),
			}),
		},
		pairedItem: { item: 1 },
	});
	expect(await ctx.sandbox.handlers()).toEqual([]);
});

// remove_handler changes data: after an answer lost on the way back it is never sent again (the handler is gone; a
// second call would answer "unknown handler" and hide that the first one worked), and the error says so.
test('an answer lost after the service removed the handler: the node fails, saying so, and remove was sent once', async () => {
	const id = await ctx.sandbox.addHandler();
	await ctx.sandbox.fault({ route: REMOVE, count: 1, drop: 'after' });
	const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: id });
	expect(result.error.errorResponse).toMatchObject({ outcome: 'noAnswer', changeApplied: 'maybe', sent: true });
	expect(await ctx.sandbox.calls(REMOVE)).toHaveLength(1);
	expect(await ctx.sandbox.handlers()).toEqual([]);
});

// The same reading as the trigger's (transport/index.ts): a 404 proves the handler unknown only when it differs, in
// words, from the answer of the path beside it that nothing serves; otherwise the handler may exist (handlerGone: false).
describe('a 404 that cannot be told from "no such path"', () => {
	const GATEWAY_PAGE = '<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>';

	test("a gateway's page: the handler may still exist", async () => {
		const id = await ctx.sandbox.addHandler();
		await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 404, body: GATEWAY_PAGE });
		const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: id });
		expect(result.error.errorResponse).toMatchObject({ outcome: 'refused', statusCode: 404, handlerGone: false });
		// The doubt on the handler says what to check (the Base URL); a 404's own advice would point elsewhere.
		expect(result.error.description).not.toContain('Check the identifiers sent');
		expect((await ctx.sandbox.handlers()).map((handler) => handler._id)).toEqual([id]);
	});

	test('a wrong Base URL whose wrong paths answer in the service\'s own error shape: the same answer beside it, so the handler may still exist', async () => {
		await ctx.sandbox.config({ unknownPaths: 'service-error', errorBodies: 'spec' });
		const id = await ctx.sandbox.addHandler();
		const credentials = { ...ctx.sandbox.credentials(), baseUrl: `${ctx.sandbox.server.origin}/moved/api` };
		const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: id }, { credentials });
		expect(result.error.errorResponse).toMatchObject({ outcome: 'refused', statusCode: 404, handlerGone: false });
		expect((await ctx.sandbox.handlers()).map((handler) => handler._id)).toEqual([id]);
	});
});

// What the error says about the handler, as data too (errorResponse.handlerGone), for a workflow that branches on it.
describe('whether the handler is gone, in the error', () => {
	test('a 500: nothing says it is gone (handlerGone false), and the removal may have happened', async () => {
		const id = await ctx.sandbox.addHandler();
		await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 500 });
		const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: id });
		expect(result.error.errorResponse).toMatchObject({ outcome: 'failed', changeApplied: 'maybe', handlerGone: false });
	});

	test('a success: false whose words name the handler unknown proves it gone, and says so first', async () => {
		const id = await ctx.sandbox.addHandler();
		await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 200, body: { success: false, error: { message: 'Handler not found' } } });
		const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: id });
		expect(result.error).toMatchObject({ httpCode: '200', errorResponse: { outcome: 'refused', changeApplied: 'no', handlerGone: true } });
		expect(result.error.description).toMatch(/^The service does not know this handler: its refusal says so\. It is gone already, or the ID is wrong\./);
	});
});
