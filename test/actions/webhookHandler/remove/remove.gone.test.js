// Webhook Handler -> Remove: when an error item says the handler is gone already (issue 58),
// through n8n's engine against the sandbox over real HTTP. Only proof says so: the answer is the
// one the service gave, in this run, to an id it no longer knew (the node removes a handler it has
// just removed once more to learn it), and the path beside remove_handler, which nothing serves,
// answers otherwise. Words never make proof, nor does a status that refuses access, limits the rate
// or fails. Every row of the table alone: test/transport/verdicts.test.js.
const axios = require('axios');

const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');
const { useGateway } = require('../../../helpers/gateway');
const { errorSeen } = require('../../../helpers/profile');

const REMOVE = '/api/webhook/remove_handler';
const BESIDE = '/api/webhook/no-such-operation-n8n-path-check';
const ctx = useInventoryOps({ orders: 10 });
const gateway = useGateway(() => ctx.sandbox);

const remove = (ids, options = {}) =>
	ctx.run(
		{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
		{ items: ids.map((id) => ({ id })), continueOnFail: true, ...options },
	);
/**
 * Removes a handler over the service API, as a user would by hand (or another workflow) before the
 * node runs.
 */
const removeByHand = async (id) => {
	const { data } = await axios.post(
		`${ctx.sandbox.baseUrl}/webhook/remove_handler`,
		{ _id: id },
		{ headers: { authorization: `Bearer ${ctx.sandbox.demoToken}` } },
	);
	expect(data).toEqual({ success: true });
};
/** Two live handlers, the second removed by hand: the service no longer knows it. */
const liveAndRemoved = async () => {
	const [live, removed] = [
		await ctx.sandbox.addHandler(),
		await ctx.sandbox.addHandler('order.created'),
	];
	await removeByHand(removed);
	return [live, removed];
};
const routes = async () =>
	(await ctx.sandbox.calls()).map(({ route, status }) => `${route} ${status}`);
const GONE =
	/^The service does not know this handler: it is the answer to an unknown id, and http:\/\/127\.0\.0\.1:\d+\/api\/webhook\/no-such-operation-n8n-path-check, a path nothing serves, answered differently \(\d+\)\. It is gone already, or the ID is wrong\./;
const NOT_SHOWN = 'Nothing shows that the service does not know the handler: ';
const SAYS_GONE = /does not know this handler|gone already/;

describe('proven gone: the answer learnt in this run, and the path beside answering otherwise', () => {
	test('the service answers an unknown id with a 404 in its words: item 0 removes a live handler, item 1 one removed by hand is gone already', async () => {
		await ctx.sandbox.config({ removeUnknown: 404 });
		const [live, removed] = await liveAndRemoved();
		const result = await remove([live, removed]);
		// Only the service's words tell an unknown id from an unknown path: a web page (the profile's
		// gateway) proves nothing.
		const worded = errorSeen(404).serviceMessage;
		const [first, second] = jsonOf(result.items);
		expect(first).toEqual({ _id: live, success: true, removed: true });
		expect(second.details).toMatchObject({
			httpCode: '404',
			outcome: 'refused',
			changeApplied: 'no',
			handlerGone: worded,
		});
		if (worded) {
			expect(second.details.description).toMatch(GONE);
			expect(second.error).not.toContain(NOT_SHOWN);
		} else {
			expect(second.error).toContain(`${NOT_SHOWN}the answer was a web page`);
		}
		// Item 0, the same id again (learning), item 1; the path beside at learning and at item 1's
		// verdict.
		expect((await ctx.sandbox.calls(REMOVE)).map(({ body, status }) => [body._id, status])).toEqual(
			[
				[removed, 200],
				[live, 200],
				[live, 404],
				[removed, 404],
			],
		);
		expect((await routes()).filter((route) => route.startsWith(BESIDE))).toHaveLength(
			worded ? 2 : 0,
		);
		expect(await ctx.sandbox.handlers()).toEqual([]);
	});

	test('the service answers an unknown id with a 200 refusal with a code and a message: the same proof', async () => {
		const [live, removed] = await liveAndRemoved();
		const refusal = { success: false, code: 'E_NO_HANDLER', message: 'No handler with this id' };
		// Item 0 goes to the service as it is (a fault that changes nothing); the learning and item 1
		// get the refusal.
		await ctx.sandbox.fault({ route: REMOVE, count: 1, delayMs: 0 });
		await ctx.sandbox.fault({ route: REMOVE, count: 2, status: 200, body: refusal });
		const [first, second] = jsonOf((await remove([live, removed])).items);
		expect(first).toEqual({ _id: live, success: true, removed: true });
		expect(second.details).toMatchObject({
			httpCode: '200',
			outcome: 'refused',
			changeApplied: 'no',
			handlerGone: true,
			code: 'E_NO_HANDLER',
		});
		expect(second.details.description).toMatch(GONE);
		expect(second.error).toBe(
			'The service refused /webhook/remove_handler with success: false. The service said: No handler with this id.',
		);
	});

	test('a second run learns again: what a run learnt is not carried to the next (the engine gives each run fresh static data)', async () => {
		await ctx.sandbox.config({ removeUnknown: 404, errorBodies: 'spec' });
		const [live, removed] = await liveAndRemoved();
		expect(jsonOf((await remove([live])).items)).toEqual([
			{ _id: live, success: true, removed: true },
		]);
		const [item] = jsonOf((await remove([removed])).items);
		expect(item.details.handlerGone).toBe(false);
		expect(item.error).toContain(
			`${NOT_SHOWN}no answer to an unknown id is learnt at this Base URL yet.`,
		);
	});
});

describe('never proof', () => {
	test("a fresh run with nothing learnt: the service's own unknown-id answer cannot prove it, handlerGone false with the reason; nothing else sent", async () => {
		await ctx.sandbox.config({ removeUnknown: 404, errorBodies: 'spec' });
		const [, removed] = await liveAndRemoved();
		const result = await remove([removed]);
		const [item] = jsonOf(result.items);
		expect(item.details).toMatchObject({ httpCode: '404', outcome: 'refused', handlerGone: false });
		expect(item.error).toBe(
			`The service answered /webhook/remove_handler with 404 (not found). The service said: No webhook handler with _id ${removed}. ${NOT_SHOWN}no answer to an unknown id is learnt at this Base URL yet. The handler may still exist: check it in Inventory Ops.`,
		);
		expect(item.details.description).not.toMatch(SAYS_GONE);
		// Neither the path beside nor a probe: only the removal by hand and the node's one call.
		expect(await ctx.sandbox.calls(REMOVE, { probes: true })).toHaveLength(2);
		expect((await routes()).filter((route) => route.startsWith(BESIDE))).toEqual([]);
	});

	test("a bare success: false, the service's answer to an unknown id: nothing to learn, so item 1 is not proven gone either", async () => {
		await ctx.sandbox.config({ removeUnknown: 'success-false' });
		const [live, removed] = await liveAndRemoved();
		const [first, second] = jsonOf((await remove([live, removed])).items);
		expect(first).toEqual({ _id: live, success: true, removed: true });
		expect(second.details).toMatchObject({
			httpCode: '200',
			outcome: 'refused',
			handlerGone: false,
		});
		expect(second.error).toBe(
			`The service refused /webhook/remove_handler with success: false. ${NOT_SHOWN}the answer held nothing to tell it apart. The handler may still exist: check it in Inventory Ops.`,
		);
		expect((await routes()).filter((route) => route.startsWith(BESIDE))).toEqual([]);
	});

	// The answers of issue 58, each after the node has learnt the service's answer to an unknown id
	// in this run (item 0 and its learning go to the service as it is): none is that answer, whatever
	// its words, so none proves the handler gone; each item quotes the service and says what to
	// check.
	test.each([
		[
			'403 about a store',
			403,
			{ success: false, message: 'Store not found for this key' },
			/^The access token lacks the permission \(scope\) \/webhook\/remove_handler needs \(403\)\. The service said: Store not found for this key\.$/,
			/^Use a token with that scope in the credential\./,
		],
		[
			'a 200 refusal about a lock',
			200,
			{ success: false, message: 'Unknown lock state, retry later' },
			/^The service refused \/webhook\/remove_handler with success: false\. The service said: Unknown lock state, retry later\. Nothing shows that the service does not know the handler: it is not the answer to an unknown id\. The handler may still exist: check it in Inventory Ops\.$/,
			/^Nothing shows/,
		],
		[
			'a 404 of the real route about something else',
			404,
			{ error: { code: 'STORE_NOT_FOUND', message: 'No store for this key' } },
			/^The service answered \/webhook\/remove_handler with 404 \(not found\)\. The service said: No store for this key\. Nothing shows that the service does not know the handler: it is not the answer to an unknown id\. The handler may still exist: check it in Inventory Ops\.$/,
			/^Nothing shows.*The service's code: STORE_NOT_FOUND\.$/,
		],
		[
			'a 401 naming an unknown API key',
			401,
			{ success: false, message: 'unknown API key' },
			/^The service refused the access token \(401\)\. The service said: unknown API key\.$/,
			/^Check the Access Token in the credential\./,
		],
	])(
		"%s: an error item with the service's words and what to check, never gone",
		async (_, status, body, message, description) => {
			await ctx.sandbox.config({ removeUnknown: 404, errorBodies: 'spec' });
			const [live, removed] = await liveAndRemoved();
			// Item 2: the service's own answer to an unknown id, which proves it gone: the learning
			// worked.
			const third = await ctx.sandbox.addHandler('order.cancelled');
			await removeByHand(third);
			await ctx.sandbox.fault({ route: REMOVE, count: 2, delayMs: 0 });
			await ctx.sandbox.fault({ route: REMOVE, count: 1, status, body });
			const [first, second, control] = jsonOf((await remove([live, removed, third])).items);
			expect(first).toEqual({ _id: live, success: true, removed: true });
			expect(second.error).toMatch(message);
			expect(second.details).toMatchObject({
				httpCode: String(status),
				outcome: 'refused',
				changeApplied: 'no',
				handlerGone: false,
			});
			expect(second.details.description).toMatch(description);
			expect(`${second.error} ${second.details.description}`).not.toMatch(SAYS_GONE);
			expect(control.details).toMatchObject({ httpCode: '404', handlerGone: true });
		},
	);

	// A service (or a gateway in front of it) whose answer to an unknown id is the one it gives any
	// path it does not serve: the answer learnt would prove nothing, so none is learnt.
	test('a 404 {"success":false,"message":"Resource not found"} that the path beside gives too: nothing learnt, not gone', async () => {
		const NOT_FOUND = JSON.stringify({ success: false, message: 'Resource not found' });
		gateway.answers.push({
			path: /no-such-operation-n8n-path-check/,
			status: 404,
			body: NOT_FOUND,
		});
		const [live, removed] = await liveAndRemoved();
		await ctx.sandbox.fault({ route: REMOVE, count: 1, delayMs: 0 });
		await ctx.sandbox.fault({ route: REMOVE, count: 2, status: 404, body: JSON.parse(NOT_FOUND) });
		const credentials = gateway.credentials(ctx.sandbox.credentials());
		const [first, second] = jsonOf((await remove([live, removed], { credentials })).items);
		expect(first).toEqual({ _id: live, success: true, removed: true });
		expect(second.details).toMatchObject({ httpCode: '404', handlerGone: false });
		expect(second.error).toBe(
			`The service answered /webhook/remove_handler with 404 (not found). The service said: Resource not found. ${NOT_SHOWN}no answer to an unknown id is learnt at this Base URL yet. The handler may still exist: check it in Inventory Ops.`,
		);
	});

	test('the same 404, learnt while the path beside answered otherwise, then given by the path beside too (a catch-all put in front): not gone', async () => {
		const NOT_FOUND = JSON.stringify({ success: false, message: 'Resource not found' });
		// The path beside: at the learning, the service's own "no route"; from then on, the catch-all's
		// answer.
		gateway.answers.push({
			path: /no-such-operation-n8n-path-check/,
			status: 404,
			body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No route' } }),
			times: 1,
		});
		gateway.answers.push({
			path: /no-such-operation-n8n-path-check/,
			status: 404,
			body: NOT_FOUND,
		});
		const [live, removed] = await liveAndRemoved();
		await ctx.sandbox.fault({ route: REMOVE, count: 1, delayMs: 0 });
		await ctx.sandbox.fault({ route: REMOVE, count: 2, status: 404, body: JSON.parse(NOT_FOUND) });
		const credentials = gateway.credentials(ctx.sandbox.credentials());
		const [, second] = jsonOf((await remove([live, removed], { credentials })).items);
		expect(second.details).toMatchObject({ httpCode: '404', handlerGone: false });
		expect(second.error).toMatch(
			new RegExp(
				`${NOT_SHOWN}http://127\\.0\\.0\\.1:\\d+/api/webhook/no-such-operation-n8n-path-check, a path nothing serves, answered the same\\. The handler may still exist`,
			),
		);
	});

	test.each([
		['a 3xx', 302, { success: true }],
		['a 5xx', 503, { success: true }],
		[
			'a 429 after the retries',
			429,
			{ success: false, message: 'No webhook handler with that id' },
		],
	])(
		'%s whatever its body: not removed, not gone, even after learning',
		async (_, status, body) => {
			await ctx.sandbox.config({ removeUnknown: 404, errorBodies: 'spec' });
			const [live, removed] = await liveAndRemoved();
			await ctx.sandbox.fault({ route: REMOVE, count: 2, delayMs: 0 });
			await ctx.sandbox.fault({
				route: REMOVE,
				count: 10,
				status,
				body,
				...(status === 429 ? { retryAfter: 0 } : {}),
			});
			const [first, second] = jsonOf((await remove([live, removed])).items);
			expect(first).toEqual({ _id: live, success: true, removed: true });
			expect(second).not.toHaveProperty('removed');
			expect(second.details).toMatchObject({ httpCode: String(status), handlerGone: false });
			expect(`${second.error} ${second.details.description}`).not.toMatch(SAYS_GONE);
		},
	);
});

test('removed: true only on a 2xx success: true, a 201 too; a failed removal is not sent again to learn from', async () => {
	const [live, removed] = await liveAndRemoved();
	await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 201, body: { success: true } });
	expect(jsonOf((await remove([live])).items)).toEqual([
		{ _id: live, success: true, removed: true },
	]);
	// After a removal, the same id once more (to learn).
	expect((await ctx.sandbox.calls(REMOVE)).filter(({ body }) => body._id === live)).toHaveLength(2);
	await ctx.sandbox.fault({
		route: REMOVE,
		count: 1,
		status: 409,
		body: { error: { message: 'Handler is busy' } },
	});
	const [refused] = jsonOf((await remove([removed])).items);
	expect(refused).not.toHaveProperty('removed');
	expect(refused.details.handlerGone).toBe(false);
	// The removal failed, so the service may still know the id: nothing learnt from it. By hand, then
	// the node's one call.
	expect((await ctx.sandbox.calls(REMOVE)).filter(({ body }) => body._id === removed)).toHaveLength(
		2,
	);
});
