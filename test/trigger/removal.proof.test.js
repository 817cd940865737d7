// A handler counts as gone only on proof, and no verdict reads the service's words (issue 58). At
// publish, once every add has shown the service working, the trigger sends remove_handler once for
// an id the service cannot know (the probe) and keeps its answer, unless that is an answer of a
// kind that never proves anything (a refusal of access, a 429, a 5xx, a web page, nothing to tell
// it apart, a catch-all's that the path beside gives too). Later, at unpublish or at the next
// publish, a remove_handler answer proves a handler gone only when it is that same answer and the
// path beside answers otherwise. Whatever else it says ("not found", "unknown"), the handler stays
// recorded as a leftover, n8n's log names it, and it is tried again. Everything over real HTTP
// against the sandbox; the probe is counted in its admin /calls with probes=true (it lists a
// remove_handler for an id it never issued only then).
const { answers } = require('../helpers/profile');
const { useGateway } = require('../helpers/gateway');
const { PROBING_SEED, useTriggerHarness } = require('./helpers/setup');

const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const STATIC_KEY = 'node:Inventory Ops Trigger';
const BESIDE = /\/webhook\/no-such-operation-n8n-path-check$/;
const TWO_TYPES = ['order.shipped', 'item.inventory'];
const UNPUBLISH_LINE = 'Inventory Ops Trigger: unpublishing could not remove the webhook handler ';
// Ids from add_handler under every profile (without one there is nothing to remove, and nothing to
// shape a probe on).
const WITH_IDS = answers.addHandlerId === 'none' ? { addHandlerId: 'top' } : {};
// A service whose answer to an unknown id can be learnt: a 404 in the profile's error shape, a page
// made JSON (a page proves nothing, test/trigger/removal.notFound.test.js).
const LEARNABLE = {
	...WITH_IDS,
	removeUnknown: 404,
	...(answers.errorBodies === 'html' ? { errorBodies: 'spec' } : {}),
};

// Handler ids the trigger can shape a probe on.
const context = useTriggerHarness({ fakeSleep: true, seed: PROBING_SEED });
// In front of the sandbox, to answer the path beside remove_handler as a catch-all does; everything
// else passes on.
const gateway = useGateway(() => ({ baseUrl: context.sandbox.baseUrl, server: context.sandbox }));
let harness;
let sandbox;
beforeEach(async () => {
	({ harness, sandbox } = context);
	await harness.admin('POST', '/config', WITH_IDS);
});
afterEach(() => harness.changeCredential({}));

function workflow(id, events = ['order.shipped']) {
	return harness.storedWorkflow({
		id,
		name: `Proof ${id}`,
		parameters: { events, customEventTypes: '', options: {} },
	});
}

const idsOf = (records) => records.map((record) => record._id ?? record.id).sort();
const state = (stored) => harness.staticState(stored.staticData);
const learnt = (stored) => harness.unknownIdAnswer(stored.staticData);
const listed = async (query) =>
	(await harness.admin('GET', `/calls?route=${REMOVE_ROUTE}${query}`)).calls;
/**
 * The remove_handler calls for ids the sandbox issued, in order (what the admin /calls lists
 * without probes=true).
 */
const removals = () => listed('');
/** The remove_handler calls for ids it never issued: the probes. */
async function probes() {
	const issued = new Set((await removals()).map((call) => call.body._id));
	return (await listed('&probes=true')).filter((call) => !issued.has(call.body._id));
}
const learntAt = (baseUrl) => ({
	at: `${baseUrl}/webhook/remove_handler`,
	fingerprint: expect.any(String),
});

/** The trigger's Base URL goes through the gateway from now on; returns that Base URL. */
function throughGateway() {
	const credentials = gateway.credentials({
		accessToken: sandbox.demoToken,
		baseUrl: sandbox.baseUrl,
		appBaseUrl: sandbox.appBaseUrl,
	});
	harness.changeCredential(credentials);
	return credentials.baseUrl;
}

/**
 * The service removes a handler behind the trigger's back (as a user might): it no longer knows the
 * id.
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
 * The lines of n8n's log that name `handler` (by name, id, type and URL) as not removed at
 * unpublish.
 */
const unpublishLinesAbout = (handler) =>
	harness.warnings.filter(
		(line) =>
			line.startsWith(UNPUBLISH_LINE) &&
			line.includes(
				`"${handler.name}" (id ${handler._id}, event type ${handler.type}, URL ${handler.handler.url})`,
			),
	);

describe('words are never proof: the handlers stay leftovers, the log names them, the next publish removes them', () => {
	// Each answers remove_handler for both handlers at unpublish. Before issue 58 each read as gone:
	// its words match /not found|unknown/, in a success: false; the catch-all's and the last also in
	// a 404 unlike the path beside's.
	const ANSWERS = [
		[
			'401 "Unknown API key" (a revoked token)',
			{ status: 401, body: { success: false, message: 'Unknown API key' } },
		],
		[
			'200 "Unknown lock state, retry later"',
			{ status: 200, body: { success: false, message: 'Unknown lock state, retry later' } },
		],
		[
			'403 "Store not found for this key"',
			{ status: 403, body: { success: false, message: 'Store not found for this key' } },
		],
		[
			'404 "Resource not found", which the path beside gives too (a catch-all)',
			{ status: 404, body: { success: false, message: 'Resource not found' }, catchAll: true },
		],
		[
			'404 "store not found" from the real route, the path beside answering its "No route" 404',
			{ status: 404, body: { success: false, message: 'store not found' } },
		],
	];

	test.each(ANSWERS)('remove_handler answering %s', async (_, { status, body, catchAll }) => {
		await harness.admin('POST', '/config', LEARNABLE);
		const baseUrl = throughGateway();
		const stored = workflow(
			`wf-words-${status}${catchAll ? '-catch-all' : ''}-${body.message.length}`,
			TWO_TYPES,
		);
		await harness.activate(stored);
		const handlers = await harness.handlers();
		expect(handlers).toHaveLength(2);
		// The service's own answer to an unknown id is known: the answers below are not it, whatever
		// they say.
		expect(learnt(stored)).toEqual(learntAt(baseUrl));

		// From the unpublish on, as a deploy's catch-all: the path nothing serves answers just as
		// remove_handler does.
		if (catchAll) gateway.answers.push({ path: BESIDE, status, body: JSON.stringify(body) });
		await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 2, status, body });
		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(false);
		expect(idsOf(state(stored).leftovers)).toEqual(idsOf(handlers));
		for (const handler of handlers) expect(unpublishLinesAbout(handler)).toHaveLength(1);
		// One try each (a refusal would recur), answered as set up; both still on the service.
		expect((await removals()).map((call) => [call.body._id, call.status]).sort()).toEqual(
			idsOf(handlers).map((id) => [id, status]),
		);
		expect(idsOf(await harness.handlers())).toEqual(idsOf(handlers));

		// The service answers for itself again: the next publish removes both leftovers, and its
		// unpublish the new ones.
		gateway.answers.length = 0;
		await harness.activate(stored);
		expect(state(stored).leftovers).toEqual([]);
		const fresh = await harness.handlers();
		expect(fresh).toHaveLength(2);
		expect(idsOf(fresh).filter((id) => idsOf(handlers).includes(id))).toEqual([]);
		expect(await harness.deactivate(stored)).toBe(true);
		expect(await harness.handlers()).toEqual([]);
	});
});

describe("proof: the service's learnt answer to an id it does not know", () => {
	test('a handler removed by hand, the service answering unknown ids with a 404: proven gone at unpublish, no leftover', async () => {
		await harness.admin('POST', '/config', { removeUnknown: 404 });
		// A service whose errors are web pages (the gateway profile) answers the probe with one:
		// nothing is learnt there, and the handler stays a leftover.
		const pages = answers.errorBodies === 'html';
		const stored = workflow('wf-proof-404');
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		expect(learnt(stored)).toEqual(pages ? undefined : learntAt(sandbox.baseUrl));
		await removeOnTheService(handler._id);

		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(!pages);
		expect(idsOf(state(stored).leftovers)).toEqual(pages ? [handler._id] : []);
		expect(unpublishLinesAbout(handler)).toHaveLength(pages ? 1 : 0);
		// Removed by hand (200), then the trigger's removal, answered as for any id the service does
		// not know (404).
		expect((await removals()).map((call) => [call.body._id, call.status])).toEqual([
			[handler._id, 200],
			[handler._id, 404],
		]);
	});

	test('a service answering unknown ids with a 200 refusal with a code and message: the same refusal proves a handler removed by hand gone', async () => {
		const noHandler = {
			success: false,
			code: 'E_NO_HANDLER',
			message: 'No handler 64b7f0c2e1a9d3b4c5f60718',
		};
		// The publish's only remove_handler is its probe: this fault answers it, and another the
		// removal later.
		await harness.admin('POST', '/faults', {
			route: REMOVE_ROUTE,
			count: 1,
			status: 200,
			body: noHandler,
		});
		const stored = workflow('wf-proof-refusal');
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		expect((await probes()).map((call) => call.status)).toEqual([200]);
		expect(learnt(stored)).toEqual(learntAt(sandbox.baseUrl));
		await removeOnTheService(handler._id);

		await harness.admin('POST', '/faults', {
			route: REMOVE_ROUTE,
			count: 1,
			status: 200,
			body: noHandler,
		});
		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(true);
		expect(state(stored).leftovers).toEqual([]);
		expect(unpublishLinesAbout(handler)).toEqual([]);
		expect((await removals()).map((call) => [call.body._id, call.status])).toEqual([
			[handler._id, 200],
			[handler._id, 200],
		]);
		expect(await harness.handlers()).toEqual([]);
	});

	test('a service answering unknown ids only with a bare success: false: nothing to learn, so a handler removed by hand stays a leftover', async () => {
		await harness.admin('POST', '/config', { removeUnknown: 'success-false' });
		const stored = workflow('wf-proof-bare');
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		// The probe was sent, and its answer held nothing to tell it from any other refusal.
		expect(await probes()).toHaveLength(1);
		expect(learnt(stored)).toBeUndefined();
		await removeOnTheService(handler._id);

		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(false);
		expect(idsOf(state(stored).leftovers)).toEqual([handler._id]);
		const [line] = unpublishLinesAbout(handler);
		expect(line).toContain('the answer held nothing to tell it apart');
		// Tried again at the next publish, with the same answer: still kept, its tries counted; that
		// publish probes again.
		await harness.activate(stored);
		expect(state(stored).leftovers).toEqual([
			expect.objectContaining({ id: handler._id, tries: 2 }),
		]);
		expect(await probes()).toHaveLength(2);
	});

	test('an answer learnt at another Base URL proves nothing here, the same service behind both: kept until a publish there learns', async () => {
		await harness.admin('POST', '/config', LEARNABLE);
		const stored = workflow('wf-proof-elsewhere');
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		expect(learnt(stored)).toEqual(learntAt(sandbox.baseUrl));
		await removeOnTheService(handler._id);

		// The gateway's address reaches the same service, which answers just as it answered the probe.
		const baseUrl = throughGateway();
		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(false);
		expect(idsOf(state(stored).leftovers)).toEqual([handler._id]);
		const [line] = unpublishLinesAbout(handler);
		expect(line).toContain('no answer to an unknown id is learnt at this Base URL yet');
		expect((await removals()).map((call) => call.status)).toEqual([200, 404]);

		// A publish there learns its answer (after trying the leftover), and the unpublish after it
		// proves it gone.
		await harness.activate(stored);
		expect(learnt(stored)).toEqual(learntAt(baseUrl));
		expect(await harness.deactivate(stored)).toBe(true);
		expect(state(stored).leftovers).toEqual([]);
		expect(await harness.handlers()).toEqual([]);
	});

	test('records from before this change (no learnt answer) get no "gone" on the unknown-id answer until a publish learns it', async () => {
		await harness.admin('POST', '/config', LEARNABLE);
		const stored = workflow('wf-proof-before');
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		// As a version before issue 58 saved them: the same records, no unknownIdAnswer beside them.
		expect(learnt(stored)).toEqual(learntAt(sandbox.baseUrl));
		delete stored.staticData[STATIC_KEY].unknownIdAnswer;
		await removeOnTheService(handler._id);

		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(false);
		expect(idsOf(state(stored).leftovers)).toEqual([handler._id]);
		const [line] = unpublishLinesAbout(handler);
		expect(line).toContain('no answer to an unknown id is learnt at this Base URL yet');
		// The next publish tries the leftover before its adds and its probe: no proof yet. The probe
		// learns.
		await harness.activate(stored);
		expect(state(stored).leftovers).toEqual([
			expect.objectContaining({ id: handler._id, tries: 2 }),
		]);
		expect(learnt(stored)).toEqual(learntAt(sandbox.baseUrl));
		// Now the same answer proves it gone.
		expect(await harness.deactivate(stored)).toBe(true);
		expect(state(stored).leftovers).toEqual([]);
		expect(await harness.handlers()).toEqual([]);
	});
});

describe('the probe', () => {
	test("sent once at publish, after the adds, for an id of the length and alphabet of the sandbox's ids that it never issued", async () => {
		await harness.admin('POST', '/config', LEARNABLE);
		const stored = workflow('wf-probe-once', TWO_TYPES);
		await harness.activate(stored);
		const handlers = await harness.handlers();
		const sent = await probes();
		expect(sent).toHaveLength(1);
		const [
			{
				body: { _id: id },
			},
		] = sent;
		expect(handlers.map((handler) => handler._id)).toEqual([
			expect.stringMatching(/^[0-9a-f]{24}$/),
			expect.stringMatching(/^[0-9a-f]{24}$/),
		]);
		expect(id).toMatch(/^[0-9a-f]{24}$/);
		expect(idsOf(handlers)).not.toContain(id);
		// Never issued: the admin /calls lists it only with probes=true.
		expect(await removals()).toEqual([]);
		const routes = (await harness.admin('GET', '/calls?probes=true')).calls.map(
			(call) => call.route,
		);
		expect(routes.slice(0, 3)).toEqual([ADD_ROUTE, ADD_ROUTE, REMOVE_ROUTE]);
		expect(learnt(stored)).toEqual(learntAt(sandbox.baseUrl));
	});

	test('no id from add_handler: nothing to shape a probe on, so none is sent', async () => {
		await harness.admin('POST', '/config', { ...LEARNABLE, addHandlerId: 'none' });
		const stored = workflow('wf-probe-no-id');
		await harness.activate(stored);
		expect(await harness.handlers()).toHaveLength(1);
		expect(await probes()).toEqual([]);
		expect(learnt(stored)).toBeUndefined();
	});

	test('the first add answered without an id, the second with one: the probe is shaped on the id there is', async () => {
		await harness.admin('POST', '/config', LEARNABLE);
		// The first add's answer replaced by one without an _id (the sandbox then adds nothing for it).
		await harness.admin('POST', '/faults', {
			route: ADD_ROUTE,
			count: 1,
			status: 200,
			body: { success: true },
		});
		const stored = workflow('wf-probe-second-id', TWO_TYPES);
		await harness.activate(stored);
		const sent = await probes();
		expect(sent).toHaveLength(1);
		expect(sent[0].body._id).toMatch(/^[0-9a-f]{24}$/);
		expect(learnt(stored)).toEqual(learntAt(sandbox.baseUrl));
	});

	test('with the answer learnt at the same Base URL, a restart or a republish sends no probe; another Base URL gets its own', async () => {
		await harness.admin('POST', '/config', LEARNABLE);
		const stored = workflow('wf-probe-learnt');
		await harness.activate(stored);
		expect(await probes()).toHaveLength(1);
		const first = learnt(stored);
		expect(first).toEqual(learntAt(sandbox.baseUrl));

		// A restart: n8n activates from the saved static data, and checkExists finds the registration.
		await harness.activate(stored);
		// A republish: unpublished, then published again (create runs: a second add_handler).
		expect(await harness.deactivate(stored)).toBe(true);
		await harness.activate(stored);
		expect((await harness.admin('GET', `/calls?route=${ADD_ROUTE}`)).calls).toHaveLength(2);
		expect(await probes()).toHaveLength(1);
		expect(learnt(stored)).toEqual(first);

		// Another Base URL (the gateway's, to the same service): its answer is learnt there, with a
		// probe of its own.
		const baseUrl = throughGateway();
		expect(await harness.deactivate(stored)).toBe(true);
		await harness.activate(stored);
		expect(await probes()).toHaveLength(2);
		expect(learnt(stored)).toEqual(learntAt(baseUrl));
	});

	const CATCH_ALL = { success: false, message: 'Resource not found' };
	// Before each, the same publish learns the answer (the test above); a probe that meets one of
	// these learns nothing.
	const MEETS = [
		['a 429', { fault: { status: 429, retryAfter: 1 } }],
		['a 500', { fault: { status: 500 } }],
		[
			'a catch-all, the path beside answering the same',
			{ fault: { status: 404, body: CATCH_ALL }, catchAll: true },
		],
		['a time-out (the answer after more than 3 s)', { fault: { delayMs: 3500 } }],
	];

	test.each(MEETS)(
		'meeting %s: it learns nothing, once, and the publish succeeds all the same; the next publish learns',
		async (_, { fault, catchAll }) => {
			await harness.admin('POST', '/config', LEARNABLE);
			const baseUrl = catchAll ? throughGateway() : sandbox.baseUrl;
			if (catchAll)
				gateway.answers.push({
					path: BESIDE,
					status: 404,
					body: JSON.stringify(CATCH_ALL),
					times: 1,
				});
			await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, ...fault });
			const stored = workflow(`wf-probe-meets-${fault.status ?? 'timeout'}`, TWO_TYPES);
			await harness.activate(stored);
			expect(await harness.handlers()).toHaveLength(2);
			expect(Object.keys(state(stored).registrations)).toEqual([harness.webhookUrl(stored, false)]);
			expect(learnt(stored)).toBeUndefined();
			// One probe, not retried; a time-out's is answered late, after the publish: waited for here.
			for (
				let waited = 0;
				waited < 50 && (await probes()).some((call) => call.status === null);
				waited++
			)
				await new Promise((resolve) => setTimeout(resolve, 100));
			expect((await probes()).map((call) => call.status)).toEqual([fault.status ?? 404]);

			// Nothing learnt, so the next publish probes again, and learns.
			expect(await harness.deactivate(stored)).toBe(true);
			await harness.activate(stored);
			expect(await probes()).toHaveLength(2);
			expect(learnt(stored)).toEqual(learntAt(baseUrl));
		},
	);
});
