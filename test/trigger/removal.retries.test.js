// The repeats of failed removals at unpublish (trigger/removal.ts, removeHandlerRecords): which
// failures are tried again, and the 10 s budget after the first round. Over real HTTP against the
// sandbox, its fault injection failing the calls; the waits between rounds run on the fake clock
// (helpers/setup.js, useFakeSleep), which is also what Date.now returns, so each try's time is
// exact.
const { closedPort } = require('../helpers/closedPort');
const { answers } = require('../helpers/profile');
const { useTriggerHarness, publishedWorkflow } = require('./helpers/setup');

const REMOVE_ROUTE = '/api/webhook/remove_handler';
const REMOVABLE = answers.addHandlerId !== 'none';

const context = useTriggerHarness({ fakeSleep: true });
let harness;
beforeEach(() => ({ harness } = context));

/**
 * The fake-clock time of each remove_handler call from now on; `callTakes` ms pass on the clock
 * during each.
 */
function removalTimes(callTakes = 0) {
	const times = [];
	harness.beforeRequest(async (options) => {
		if (!String(options.url).endsWith('/webhook/remove_handler')) return;
		times.push(context.clock.now);
		context.clock.now += callTakes;
	});
	return times;
}

test('the budget counts from the unpublish, whatever the clock reads: at 50 s, a failed removal is still tried again 1 s later', async () => {
	if (!REMOVABLE) return;
	const stored = await publishedWorkflow(harness, 'wf-late-clock');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 503 });
	context.clock.now = 50_000;
	const times = removalTimes();

	expect(await harness.deactivate(stored)).toBe(true);
	expect(times).toEqual([50_000, 51_000]);
	expect(await harness.handlers()).toEqual([]);
});

test('a round that would start exactly 10 s after the first is sent; one that would start 3 ms later is not', async () => {
	if (!REMOVABLE) return;
	// Each call takes 1 s: rounds at 0, 2, 5 and 10 s (waits 1, 2 and 4 s after each call).
	let stored = await publishedWorkflow(harness, 'wf-budget-exact');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 4, status: 500 });
	let times = removalTimes(1000);
	expect(await harness.deactivate(stored)).toBe(false);
	expect(times).toEqual([0, 2000, 5000, 10_000]);

	// 1 ms more per call: the 4th round would start at 10.003 s.
	await harness.admin('POST', '/reset');
	stored = await publishedWorkflow(harness, 'wf-budget-past');
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 4, status: 500 });
	context.clock.now = 0;
	times = removalTimes(1001);
	expect(await harness.deactivate(stored)).toBe(false);
	expect(times).toEqual([0, 2001, 5002]);
});

test('a refusal stays a failure while another handler is tried again and removed: it is kept and logged, not lost', async () => {
	if (!REMOVABLE) return;
	const stored = await publishedWorkflow(harness, 'wf-mixed', {
		events: ['order.shipped', 'item.inventory'],
	});
	// The first round's two calls: one refused (not tried again), one failing for a moment (removed 1
	// s later).
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 403 });
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 503 });
	const times = removalTimes();

	expect(await harness.deactivate(stored)).toBe(false);
	expect(times).toEqual([0, 0, 1000]);
	const left = await harness.handlers();
	expect(left).toHaveLength(1);
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([
		left[0]._id,
	]);
	const lines = harness.warnings.filter((text) =>
		text.startsWith('Inventory Ops Trigger: unpublishing'),
	);
	expect(lines).toEqual([
		expect.stringContaining(
			`could not remove the webhook handler "${left[0].name}" (id ${left[0]._id}, event type ${left[0].type}, URL `,
		),
	]);
});

test('a removal that fails before anything is sent (a credential n8n cannot decrypt) is not tried again: no waits', async () => {
	if (!REMOVABLE) return;
	const stored = await publishedWorkflow(harness, 'wf-no-credential');
	harness.storeEncryptedCredential('encrypted with another instance key');
	context.clock.now = 0;

	expect(await harness.deactivate(stored)).toBe(false);
	// No round was waited for: the unpublish returned at once on the clock the waits move.
	expect(context.clock.now).toBe(0);
	expect((await harness.admin('GET', `/calls?route=${REMOVE_ROUTE}`)).calls).toHaveLength(0);
	const [warning] = harness.warnings.filter((text) =>
		text.startsWith('Inventory Ops Trigger: unpublishing'),
	);
	expect(warning).toContain('Could not read the Inventory Ops API credential');
	expect(harness.staticState(stored.staticData).leftovers).toHaveLength(1);
});

test('a removal that could not connect (nothing listened) is tried again: it sent nothing, so a repeat is safe', async () => {
	if (!REMOVABLE) return;
	const stored = await publishedWorkflow(harness, 'wf-not-connected');
	// The first round goes to a port where nothing listens (ECONNREFUSED); the second reaches the
	// sandbox.
	const closed = `http://127.0.0.1:${await closedPort()}/api/webhook/remove_handler`;
	const times = [];
	harness.beforeRequest(async (options) => {
		if (!String(options.url).endsWith('/webhook/remove_handler')) return;
		times.push(context.clock.now);
		if (times.length === 1) options.url = closed;
	});

	expect(await harness.deactivate(stored)).toBe(true);
	expect(times).toEqual([0, 1000]);
	expect(await harness.handlers()).toEqual([]);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
});
