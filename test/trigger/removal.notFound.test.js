// "Gone" only where the answer proves it (issue 47). A remove_handler 404 counts as "the service does not know the
// handler" only when its answer, in words, differs from the answer of the path beside it that nothing serves
// (compareBeside in transport/verdicts.ts); a gateway's page, a 404 without words, or the same answer as that path (a changed Base
// URL, a gateway, a service whose wrong paths answer in its own error shape) keeps the handler recorded, reports it
// with its id, and the next publish tries again. Counted at the sandbox, over real HTTP.
const { useTriggerHarness } = require('./helpers/setup');

const REMOVE_ROUTE = '/api/webhook/remove_handler';
const GATEWAY_PAGE = '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>';
const BESIDE = /\/webhook\/no-such-operation-n8n-path-check$/;

const context = useTriggerHarness({ fakeSleep: true });
let harness;
let sandbox;
beforeEach(async () => {
	({ harness, sandbox } = context);
	await harness.admin('POST', '/config', { addHandlerId: 'top', removeUnknown: 404, errorBodies: 'spec', errorCodes: 'sandbox', unknownPaths: 'plain' });
});
afterEach(() => harness.changeCredential({}));

const calls = async () => (await harness.admin('GET', '/calls')).calls;
const removals = async () => (await calls()).filter((call) => call.route.endsWith('/webhook/remove_handler'));

async function published(id) {
	const stored = harness.storedWorkflow({ id, name: 'Not found', parameters: { events: ['order.shipped'], customEventTypes: '', options: {} } });
	await harness.activate(stored);
	const [handler] = await harness.handlers();
	return { stored, handler };
}

/** Unpublished while remove_handler answers as `answer` sets up: kept, reported with its id and `why`. */
async function expectKept(stored, handler, why) {
	harness.warnings.length = 0;
	expect(await harness.deactivate(stored)).toBe(false);
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([handler._id]);
	const lines = harness.warnings.filter((text) => text.startsWith('Inventory Ops Trigger: unpublishing could not remove'));
	expect(lines).toHaveLength(1);
	const [warning] = lines;
	expect(warning).toContain(`the webhook handler "${handler.name}" (id ${handler._id}, event type order.shipped, URL `);
	expect(warning).toMatch(why);
	expect(warning).toContain('The handler may still exist: check the Base URL.');
	expect(warning).toContain(' It stays recorded and is tried again at every publish and unpublish, ');
	expect((await harness.handlers()).map((left) => left._id)).toEqual([handler._id]);
}

/** The next publish, where remove_handler answers as the service does: the kept handler removed first, one new one added. */
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

test("a gateway's 404 page: not proof, whatever the path beside answers; kept, reported, retried at the next publish", async () => {
	const { stored, handler } = await published('wf-nf-page');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 404, body: GATEWAY_PAGE });
	await expectKept(stored, handler, /Nothing shows that the service does not know the handler: the answer was a web page, as a gateway gives for any path it does not know\./);
	await expectRetriedAtNextPublish(stored, handler);
});

test('a JSON 404 without a code, the same as the answer beside it: kept, reported, retried at the next publish', async () => {
	// The service's wrong paths answer { error: { message: 'Not Found' } } without a code, and so does remove_handler here.
	await harness.admin('POST', '/config', { unknownPaths: 'service-error' });
	const { stored, handler } = await published('wf-nf-json');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 404, body: { error: { message: 'Not Found', statusCode: 404 } } });
	await expectKept(stored, handler, /no-such-operation-n8n-path-check, a path nothing serves, answered the same\./);
	expect((await calls()).map((call) => call.route).filter((route) => BESIDE.test(route))).toHaveLength(1);
	await expectRetriedAtNextPublish(stored, handler);
});

test('a JSON 404 that says nothing: kept without asking the path beside it', async () => {
	const { stored, handler } = await published('wf-nf-empty');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 404, body: {} });
	await expectKept(stored, handler, /Nothing shows that the service does not know the handler: the answer gave no reason\./);
	expect((await calls()).map((call) => call.route).filter((route) => BESIDE.test(route))).toEqual([]);
});

test.each([
	['its own error shape without a code', 'service-error'],
	['a 404 naming the path', 'plain'],
])('a Base URL changed between publish and unpublish, the address answering wrong paths in %s: kept, and removed once it is put back', async (_, unknownPaths) => {
	await harness.admin('POST', '/config', { unknownPaths });
	const { stored, handler } = await published(`wf-nf-moved-${unknownPaths}`);
	harness.changeCredential({ baseUrl: `${sandbox.origin}/moved/api` });
	await expectKept(stored, handler, /moved\/api\/webhook\/no-such-operation-n8n-path-check, a path nothing serves, answered the same/);
	expect((await removals()).map((call) => [call.route, call.status])).toEqual([['/moved/api/webhook/remove_handler', 404]]);
	harness.changeCredential({});
	await expectRetriedAtNextPublish(stored, handler);
});

test("a service whose wrong paths answer in its own error shape, and a handler it no longer has: its 404 differs from the path beside it's, so it is gone", async () => {
	await harness.admin('POST', '/config', { unknownPaths: 'service-error', errorCodes: 'none' });
	const { stored, handler } = await published('wf-nf-gone');
	await fetch(`${sandbox.baseUrl}/webhook/remove_handler`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.demoToken}`, 'content-type': 'application/json' },
		body: JSON.stringify({ _id: handler._id }),
	});
	harness.warnings.length = 0;
	expect(await harness.deactivate(stored)).toBe(true);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
	expect(harness.warnings.filter((text) => text.includes('could not remove'))).toEqual([]);
	// One removal (answered "No webhook handler with _id …"), one request beside it (answered "Not Found").
	expect((await calls()).slice(-2).map((call) => [call.route.replace(/^\/api/, ''), call.status])).toEqual([
		['/webhook/remove_handler', 404],
		['/webhook/no-such-operation-n8n-path-check', 404],
	]);
});

test('a service whose errors are all web pages, and a handler it no longer has: nothing proves it gone, so it stays reported', async () => {
	await harness.admin('POST', '/config', { errorBodies: 'html' });
	const { stored, handler } = await published('wf-nf-pages');
	await fetch(`${sandbox.baseUrl}/webhook/remove_handler`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.demoToken}`, 'content-type': 'application/json' },
		body: JSON.stringify({ _id: handler._id }),
	});
	harness.warnings.length = 0;
	expect(await harness.deactivate(stored)).toBe(false);
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([handler._id]);
	expect(harness.warnings.join('\n')).toContain('the answer was a web page, as a gateway gives for any path it does not know');
});

test('a 404 that gives a code and no message is words enough: unlike the answer beside it, so the handler is gone', async () => {
	const { stored } = await published('wf-nf-code');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 404, body: { error: { code: 'HANDLER_NOT_FOUND', statusCode: 404 } } });
	expect(await harness.deactivate(stored)).toBe(true);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
	expect((await calls()).map((call) => call.route).filter((route) => BESIDE.test(route))).toHaveLength(1);
});

test('the path beside gives no answer: nothing to compare with, so the handler is kept, and the log says why', async () => {
	const { stored, handler } = await published('wf-nf-beside-lost');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 404, body: { error: { message: 'No such handler' } } });
	harness.beforeRequest(async (options) => {
		if (BESIDE.test(String(options.url))) throw new Error('connection reset');
	});
	try {
		await expectKept(stored, handler, /no-such-operation-n8n-path-check, a path nothing serves, answered nothing \(nothing to compare with\)\./);
	} finally {
		harness.beforeRequest(async () => {});
	}
});
