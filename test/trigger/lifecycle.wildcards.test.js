// A service that refuses suffix wildcards (sandbox switch `wildcards: refused`: add_handler answers
// 400 WILDCARD_NOT_SUPPORTED for a type with `*`): what the trigger does and says. The activation
// fails naming the pattern and the service's reason, removes the handlers it had added before it,
// keeps nothing in static data, and tells the user to select exact types, which then work.
const { answers } = require('../helpers/profile');
const { publishedWorkflow, useTriggerHarness } = require('./helpers/setup');

const context = useTriggerHarness();
let harness;
beforeEach(async () => {
	({ harness } = context);
	await harness.admin('POST', '/config', { wildcards: 'refused' });
});

// How the refusal reaches the trigger depends on the profile: a 400 error body of its shape, or 200
// success: false. Only a gateway's HTML page loses the service's words (its title is all there is).
const REASON_LOST = answers.errorBodies === 'html' && answers.refusals === 'status';

test('a selection with order.status.*: activation fails with the reason and the advice, and nothing stays registered', async () => {
	const stored = harness.storedWorkflow({
		id: 'wf-refused',
		name: 'Refused wildcard',
		parameters: { events: ['order.shipped', 'order.status.*'], customEventTypes: '', options: {} },
	});
	const error = await harness.activate(stored).then(
		() => undefined,
		(thrown) => thrown,
	);
	expect(error).toBeDefined();
	// All in the message, which the toast shows on both n8n lines: our conclusion, the service's
	// words, what was undone, what to do instead.
	expect(error.message).toMatch(
		/^Publishing failed at the webhook handler for "order\.status\.\*" \(2 of 2\)\. /,
	);
	if (!REASON_LOST)
		expect(error.message).toMatch(
			/\. The service said: Event type "order\.status\.\*" is a wildcard; register each event type on its own\. (Check the fields the service names\. )?[^]*Handlers added/,
		);
	const hint =
		'If the service takes no wildcards, select exact types instead, such as order.status.shipped.';
	if (answers.addHandlerId === 'none') {
		// The service gave the order.shipped handler no id: nothing can remove it, and the error says
		// so.
		expect(error.message).toMatch(
			new RegExp(
				`Handlers added before it and removed again: 0 of 1\\. This trigger cannot remove the webhook handler [^]*\\(no id, event type order\\.shipped, [^]*\\. ${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
			),
		);
		expect((await harness.handlers()).map((handler) => handler.type)).toEqual(['order.shipped']);
	} else {
		expect(
			error.message.endsWith(`Handlers added before it and removed again: 1 of 1. ${hint}`),
		).toBe(true);
		expect(await harness.handlers()).toEqual([]);
	}
	expect(harness.staticState(stored.staticData)?.registrations ?? {}).toEqual({});
	expect(stored.active).toBe(false);
});

test('the exact types instead: one handler each, and an event starts one run', async () => {
	await publishedWorkflow(harness, 'wf-exact', {
		events: ['order.shipped'],
		customEventTypes: 'order.status.shipped, order.status.cancelled',
	});
	expect((await harness.handlers()).map((handler) => handler.type).sort()).toEqual([
		'order.shipped',
		'order.status.cancelled',
		'order.status.shipped',
	]);
	await harness.emit('order.status.cancelled', { order_number: '1001', store_id: '1002' });
	expect(harness.runs).toHaveLength(1);
	expect(harness.runs[0].items[0].eventType).toBe('order.status.cancelled');
});
