// Webhook Handler -> Remove through n8n's engine against the sandbox.
const { useInventoryOps } = require('../../../helpers/inventoryOps');
const { answers, errorSeen, sandboxCode } = require('../../../helpers/profile');

const REMOVE = '/api/webhook/remove_handler';
const ctx = useInventoryOps({ orders: 10 });

test('remove sends the _id and outputs the answer; the same _id again in the run is gone only where the service words its unknown-id answer', async () => {
	const id = await ctx.sandbox.addHandler();
	const result = await ctx.run(
		{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
		{ items: [{ id }, { id }], continueOnFail: true },
	);
	// Item 0, then the same _id once more to learn the service's answer to an id it no longer knows,
	// then item 1.
	expect((await ctx.sandbox.calls(REMOVE)).map((call) => call.body)).toEqual([
		{ _id: id },
		{ _id: id },
		{ _id: id },
	]);
	expect(result.items[0]).toEqual({
		json: { _id: id, success: true, removed: true },
		pairedItem: { item: 0 },
	});
	// The profile's service says "unknown handler" with a 404, or with a bare 200 success: false: an
	// error item either way. Only a worded answer, the same as the one learnt and unlike that of the
	// path beside it, proves the handler gone; a bare success: false proves nothing removed, nor the
	// handler unknown.
	const refusedBare = answers.removeUnknown === 'success-false';
	const gone = !refusedBare && Boolean(errorSeen(404).serviceMessage);
	expect(result.items[1]).toEqual({
		json: {
			error: expect.any(String),
			details: expect.objectContaining({
				httpCode: refusedBare ? '200' : '404',
				outcome: 'refused',
				handlerGone: gone,
				...(!refusedBare && errorSeen(404).code ? { code: sandboxCode('HANDLER_NOT_FOUND') } : {}),
			}),
		},
		pairedItem: { item: 1 },
	});
	if (gone)
		expect(result.items[1].json.details.description).toMatch(
			/^The service does not know this handler: it is the answer to an unknown id, and \S+\/api\/webhook\/no-such-operation-n8n-path-check, a path nothing serves, answered differently \(404\)\./,
		);
	else
		expect(result.items[1].json.error).toContain(
			'Nothing shows that the service does not know the handler: the answer held nothing to tell it apart.',
		);
	expect(await ctx.sandbox.handlers()).toEqual([]);
});

// remove_handler changes data: after an answer lost on the way back it is never sent again (the
// handler is gone; a second call would answer "unknown handler" and hide that the first one
// worked), and the error says so.
test('an answer lost after the service removed the handler: the node fails, saying so, and remove was sent once', async () => {
	const id = await ctx.sandbox.addHandler();
	await ctx.sandbox.fault({ route: REMOVE, count: 1, drop: 'after' });
	const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: id });
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'noAnswer',
		changeApplied: 'maybe',
		sent: true,
	});
	expect(await ctx.sandbox.calls(REMOVE)).toHaveLength(1);
	expect(await ctx.sandbox.handlers()).toEqual([]);
});

// The same reading as the trigger's (transport/verdicts.ts, handlerVerdict): a 404 proves the
// handler unknown only when it is the answer learnt for an unknown id and differs from the answer
// of the path beside it that nothing serves; otherwise the handler may exist (handlerGone: false).
// Every row: remove.gone.test.js.
describe('a 404 that cannot be told from "no such path"', () => {
	const GATEWAY_PAGE =
		'<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>';

	test("a gateway's page: the handler may still exist", async () => {
		const id = await ctx.sandbox.addHandler();
		await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 404, body: GATEWAY_PAGE });
		const result = await ctx.run({
			resource: 'webhookHandler',
			operation: 'remove',
			handlerId: id,
		});
		expect(result.error.errorResponse).toMatchObject({
			outcome: 'refused',
			statusCode: 404,
			handlerGone: false,
		});
		// The doubt on the handler says why and what to check; a 404's own advice would point
		// elsewhere.
		expect(result.error.message).toContain(
			'Nothing shows that the service does not know the handler: the answer was a web page, as a gateway gives for any path it does not know. The handler may still exist: check it in Inventory Ops.',
		);
		expect(result.error.description).not.toContain('Check the identifiers sent');
		expect((await ctx.sandbox.handlers()).map((handler) => handler._id)).toEqual([id]);
	});

	test("a wrong Base URL whose wrong paths answer in the service's own error shape: nothing removed there, so nothing learnt, and the handler may still exist", async () => {
		await ctx.sandbox.config({ unknownPaths: 'service-error', errorBodies: 'spec' });
		const id = await ctx.sandbox.addHandler();
		const credentials = {
			...ctx.sandbox.credentials(),
			baseUrl: `${ctx.sandbox.server.origin}/moved/api`,
		};
		const result = await ctx.run(
			{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
			{ items: [{ id }, { id: '64f1c2a9e8b7d6c5b4a39281' }], credentials, continueOnFail: true },
		);
		for (const item of result.items) {
			expect(item.json.details).toMatchObject({
				outcome: 'refused',
				httpCode: '404',
				handlerGone: false,
			});
			expect(item.json.error).toContain(
				'no answer to an unknown id is learnt at this Base URL yet',
			);
		}
		expect((await ctx.sandbox.handlers()).map((handler) => handler._id)).toEqual([id]);
	});
});

// What the error says about the handler, as data too (errorResponse.handlerGone), for a workflow
// that branches on it.
describe('whether the handler is gone, in the error', () => {
	test('a 500: nothing says it is gone (handlerGone false), and the removal may have happened', async () => {
		const id = await ctx.sandbox.addHandler();
		await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 500 });
		const result = await ctx.run({
			resource: 'webhookHandler',
			operation: 'remove',
			handlerId: id,
		});
		expect(result.error.errorResponse).toMatchObject({
			outcome: 'failed',
			changeApplied: 'maybe',
			handlerGone: false,
		});
	});

	// Words never make proof (issue 58): a service may say "not found" of a store, a key or a lock as
	// well.
	test.each([
		[{ success: false, error: { message: 'Handler not found' } }],
		[{ success: false, code: 'UNKNOWN_HANDLER', message: 'No such handler' }],
		[{ success: false, message: 'Handler does not exist' }],
	])(
		'a success: false whose words name the handler unknown (%j) proves nothing on its own: handlerGone false, with the reason',
		async (body) => {
			const id = await ctx.sandbox.addHandler();
			await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 200, body });
			const result = await ctx.run({
				resource: 'webhookHandler',
				operation: 'remove',
				handlerId: id,
			});
			expect(result.error).toMatchObject({
				httpCode: '200',
				errorResponse: { outcome: 'refused', changeApplied: 'no', handlerGone: false },
			});
			expect(result.error.message).toContain(
				'Nothing shows that the service does not know the handler: no answer to an unknown id is learnt at this Base URL yet. The handler may still exist',
			);
			expect(result.error.description).not.toMatch(/does not know this handler|gone already/);
		},
	);
});
