// "Gone" only on proof (issues 47, 58). A remove_handler answer counts as "the service does not
// know the handler" only when it is the answer the service gave, at the same remove_handler URL, to
// an id it cannot know (learnt at publish, from a probe), and the path beside it that nothing
// serves answers otherwise (compareBeside in transport/verdicts.ts). A gateway's page, a 404
// without words, an answer unlike the learnt one, a Base URL where nothing was learnt, or a path
// beside that answers nothing or the same keeps the handler recorded, reports it with its id, and
// the next publish tries again. Counted at the sandbox, over real HTTP.
const { PROBING_SEED, useTriggerHarness } = require('./helpers/setup');

const REMOVE_ROUTE = '/api/webhook/remove_handler';
const GATEWAY_PAGE =
	'<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>';
const BESIDE = /\/webhook\/no-such-operation-n8n-path-check$/;

// Handler ids the trigger can shape a probe on.
const context = useTriggerHarness({ fakeSleep: true, seed: PROBING_SEED });
let harness;
let sandbox;
beforeEach(async () => {
	({ harness, sandbox } = context);
	await harness.admin('POST', '/config', {
		addHandlerId: 'top',
		removeUnknown: 404,
		errorBodies: 'spec',
		errorCodes: 'sandbox',
		unknownPaths: 'plain',
	});
});
afterEach(() => harness.changeCredential({}));

const calls = async () => (await harness.admin('GET', '/calls')).calls;
const removals = async () =>
	(await calls()).filter((call) => call.route.endsWith('/webhook/remove_handler'));
const besideCalls = async () => (await calls()).filter((call) => BESIDE.test(call.route));
const learnt = (stored) => harness.unknownIdAnswer(stored.staticData);
const LEARNT_HERE = () => ({
	at: `${sandbox.baseUrl}/webhook/remove_handler`,
	fingerprint: expect.any(String),
});

async function published(id) {
	const stored = harness.storedWorkflow({
		id,
		name: 'Not found',
		parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
	});
	await harness.activate(stored);
	const [handler] = await harness.handlers();
	return { stored, handler };
}

/**
 * The service removes the handler behind the trigger's back (as a user might): it no longer knows
 * the id.
 */
async function removeOnTheService(id) {
	const response = await fetch(`${sandbox.baseUrl}/webhook/remove_handler`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.demoToken}`, 'content-type': 'application/json' },
		body: JSON.stringify({ _id: id }),
	});
	expect(await response.json()).toEqual({ success: true });
}

/**
 * Unpublished while remove_handler answers as the test set up: kept, reported with its id and
 * `why`.
 */
async function expectKept(stored, handler, why, { stillOnService = true } = {}) {
	harness.warnings.length = 0;
	expect(await harness.deactivate(stored)).toBe(false);
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([
		handler._id,
	]);
	const lines = harness.warnings.filter((text) =>
		text.startsWith('Inventory Ops Trigger: unpublishing could not remove'),
	);
	expect(lines).toHaveLength(1);
	const [warning] = lines;
	expect(warning).toContain(
		`the webhook handler "${handler.name}" (id ${handler._id}, event type order.shipped, URL `,
	);
	expect(warning).toMatch(why);
	expect(warning).toContain('The handler may still exist: check it in Inventory Ops.');
	expect(warning).toContain(
		' It stays recorded and is tried again at every publish and unpublish, ',
	);
	expect((await harness.handlers()).map((left) => left._id)).toEqual(
		stillOnService ? [handler._id] : [],
	);
}

/**
 * The next publish, where remove_handler answers as the service does: the kept handler removed
 * first, one new one added.
 */
async function expectRetriedAtNextPublish(stored, handler) {
	const before = (await removals()).length;
	await harness.activate(stored);
	const after = await removals();
	expect(after.slice(before).map((call) => call.body._id)).toEqual([handler._id]);
	const now = await harness.handlers();
	expect(now).toHaveLength(1);
	expect(now[0]._id).not.toBe(handler._id);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
}

test("a gateway's 404 page: not proof, though the service's answer to an unknown id is learnt; kept, reported, retried at the next publish", async () => {
	const { stored, handler } = await published('wf-nf-page');
	expect(learnt(stored)).toEqual(LEARNT_HERE());
	await harness.admin('POST', '/faults', {
		route: REMOVE_ROUTE,
		count: 1,
		status: 404,
		body: GATEWAY_PAGE,
	});
	await expectKept(
		stored,
		handler,
		/Nothing shows that the service does not know the handler: the answer was a web page, as a gateway gives for any path it does not know\./,
	);
	await expectRetriedAtNextPublish(stored, handler);
});

test('a catch-all 404 without a code, at the probe and at the removal alike, the same as the path beside: nothing learnt, so kept; the next publish learns', async () => {
	// The service's wrong paths answer { error: { message: 'Not Found' } } without a code, and so
	// does remove_handler here from the publish on: its probe shows a catch-all's answer, which
	// proves nothing.
	await harness.admin('POST', '/config', { unknownPaths: 'service-error' });
	const notFound = { status: 404, body: { error: { message: 'Not Found', statusCode: 404 } } };
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, ...notFound });
	const { stored, handler } = await published('wf-nf-json');
	expect((await besideCalls()).map((call) => call.status)).toEqual([404]);
	expect(learnt(stored)).toBeUndefined();
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, ...notFound });
	await expectKept(
		stored,
		handler,
		/Nothing shows that the service does not know the handler: no answer to an unknown id is learnt at this Base URL yet\./,
	);
	await expectRetriedAtNextPublish(stored, handler);
	// The service answering for itself again: this publish's probe learnt its answer.
	expect(learnt(stored)).toEqual(LEARNT_HERE());
});

test('a JSON 404 that says nothing: kept without asking the path beside it', async () => {
	const { stored, handler } = await published('wf-nf-empty');
	const asked = (await besideCalls()).length;
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 404, body: {} });
	await expectKept(
		stored,
		handler,
		/Nothing shows that the service does not know the handler: the answer held nothing to tell it apart\./,
	);
	expect(await besideCalls()).toHaveLength(asked);
});

test("a worded 404 unlike the service's learnt answer to an unknown id: not proof, kept without asking the path beside it", async () => {
	// The words say "not found", and the path beside answers otherwise: before issue 58 that read as
	// gone.
	const { stored, handler } = await published('wf-nf-words');
	const asked = (await besideCalls()).length;
	await harness.admin('POST', '/faults', {
		route: REMOVE_ROUTE,
		count: 1,
		status: 404,
		body: { error: { code: 'HANDLER_NOT_FOUND', message: 'Handler not found' } },
	});
	await expectKept(
		stored,
		handler,
		/Nothing shows that the service does not know the handler: it is not the answer to an unknown id\./,
	);
	expect(await besideCalls()).toHaveLength(asked);
	await expectRetriedAtNextPublish(stored, handler);
});

test.each([
	['its own error shape without a code', 'service-error'],
	['a 404 naming the path', 'plain'],
])(
	'a Base URL changed between publish and unpublish, the address answering wrong paths in %s: nothing learnt there, kept, and removed once it is put back',
	async (_, unknownPaths) => {
		await harness.admin('POST', '/config', { unknownPaths });
		const { stored, handler } = await published(`wf-nf-moved-${unknownPaths}`);
		expect(learnt(stored)).toEqual(LEARNT_HERE());
		harness.changeCredential({ baseUrl: `${sandbox.origin}/moved/api` });
		await expectKept(
			stored,
			handler,
			/Nothing shows that the service does not know the handler: no answer to an unknown id is learnt at this Base URL yet\./,
		);
		expect((await removals()).map((call) => [call.route, call.status])).toEqual([
			['/moved/api/webhook/remove_handler', 404],
		]);
		harness.changeCredential({});
		await expectRetriedAtNextPublish(stored, handler);
	},
);

test("a service whose wrong paths answer in its own error shape, and a handler it no longer has: its 404 is the learnt answer to an unknown id, unlike the path beside's, so it is gone", async () => {
	await harness.admin('POST', '/config', { unknownPaths: 'service-error', errorCodes: 'none' });
	const { stored, handler } = await published('wf-nf-gone');
	expect(learnt(stored)).toEqual(LEARNT_HERE());
	await removeOnTheService(handler._id);
	harness.warnings.length = 0;
	expect(await harness.deactivate(stored)).toBe(true);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
	expect(harness.warnings.filter((text) => text.includes('could not remove'))).toEqual([]);
	// One removal (answered "No webhook handler with _id …"), one request beside it (answered "Not
	// Found").
	expect(
		(await calls()).slice(-2).map((call) => [call.route.replace(/^\/api/, ''), call.status]),
	).toEqual([
		['/webhook/remove_handler', 404],
		['/webhook/no-such-operation-n8n-path-check', 404],
	]);
});

test('a service whose errors are all web pages, and a handler it no longer has: nothing proves it gone, so it stays reported', async () => {
	await harness.admin('POST', '/config', { errorBodies: 'html' });
	const { stored, handler } = await published('wf-nf-pages');
	// Its answer to the probe was a page too: nothing to learn.
	expect(learnt(stored)).toBeUndefined();
	await removeOnTheService(handler._id);
	await expectKept(
		stored,
		handler,
		/the answer was a web page, as a gateway gives for any path it does not know/,
		{ stillOnService: false },
	);
});

test('a 404 that gives a code and no message, when that is what the service answered the probe: the same answer proves the handler gone', async () => {
	const codeOnly = { status: 404, body: { error: { code: 'HANDLER_NOT_FOUND', statusCode: 404 } } };
	// The publish's one remove_handler is its probe, for an id the sandbox never issued: this fault
	// answers it.
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, ...codeOnly });
	const { stored, handler } = await published('wf-nf-code');
	const probes = (await harness.admin('GET', `/calls?route=${REMOVE_ROUTE}&probes=true`)).calls;
	expect(probes.map((call) => call.status)).toEqual([404]);
	expect(probes[0].body._id).not.toBe(handler._id);
	expect(learnt(stored)).toEqual(LEARNT_HERE());
	await removeOnTheService(handler._id);
	const asked = (await besideCalls()).length;
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, ...codeOnly });
	expect(await harness.deactivate(stored)).toBe(true);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
	expect(await besideCalls()).toHaveLength(asked + 1);
});

test('the path beside gives no answer: nothing to compare with, so the handler is kept, and the log says why', async () => {
	const { stored, handler } = await published('wf-nf-beside-lost');
	// The learnt answer itself: only the path beside could still make it proof.
	await removeOnTheService(handler._id);
	harness.beforeRequest(async (options) => {
		if (BESIDE.test(String(options.url))) throw new Error('connection reset');
	});
	try {
		await expectKept(
			stored,
			handler,
			/no-such-operation-n8n-path-check, a path nothing serves, answered nothing \(nothing to compare with\)\./,
			{ stillOnService: false },
		);
	} finally {
		harness.beforeRequest(async () => {});
	}
});
