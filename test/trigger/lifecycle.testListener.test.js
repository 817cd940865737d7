// What the user reads when "Listen for test event" cannot register or remove its handlers: the
// words name the test listener, not a publish or unpublish (trigger/lifecycle.ts, `doing` and the
// unpublish warning). Over real HTTP against the sandbox; the failures are the sandbox's own fault
// injection.
const { answers } = require('../helpers/profile');
const { useTriggerHarness } = require('./helpers/setup');

const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const REMOVABLE = answers.addHandlerId !== 'none';

const context = useTriggerHarness({ fakeSleep: true });
let harness;
beforeEach(() => ({ harness } = context));

function workflow(id) {
	return harness.storedWorkflow({
		id,
		name: `Listener ${id}`,
		parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
	});
}

test('listening for a test event fails at add_handler: the error says "Listening for a test event", not "Publishing"', async () => {
	await harness.admin('POST', '/faults', { route: ADD_ROUTE, count: 1, status: 500 });
	const error = await harness.listenForTest(workflow('wf-listen-fails')).then(
		() => undefined,
		(thrown) => thrown,
	);
	expect(error.message).toMatch(
		/^Listening for a test event failed at the webhook handler for "order\.shipped" \(1 of 1\)\. /,
	);
});

test('stopping the test listener cannot remove its handler: the log says "stopping the test listener", not "unpublishing"', async () => {
	if (!REMOVABLE) return;
	const stored = workflow('wf-listen-stop');
	const listener = await harness.listenForTest(stored);
	// The first try and the 3 repeats all fail.
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 4, status: 503 });

	expect(await harness.stopTest(stored, listener)).toBe(false);
	const warnings = harness.warnings.filter((text) =>
		text.includes('could not remove the webhook handler'),
	);
	expect(warnings).toHaveLength(1);
	expect(
		warnings[0].startsWith(
			'Inventory Ops Trigger: stopping the test listener could not remove the webhook handler ',
		),
	).toBe(true);
});
