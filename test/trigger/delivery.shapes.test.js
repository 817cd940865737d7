// Deliveries in every body shape the sandbox can send (switch deliveryBody): each starts one run
// whose item has the event type (from the body, or from the handler's own registration header), the
// data, and the raw body when the shape was not an event. Also: overlapping selections register one
// handler per event.
const { answers } = require('../helpers/profile');
const { publishedWorkflow, useTriggerHarness } = require('./helpers/setup');

const context = useTriggerHarness();
let harness;
beforeEach(() => ({ harness } = context));

const published = (id, parameters) => publishedWorkflow(harness, id, parameters);

const data = { order_number: '1001', store_id: '1002' };

test.each([
	['event', { withId: true, raw: false }],
	['envelope', { withId: true, raw: false }],
	['array', { withId: true, raw: false }],
	['record', { withId: false, raw: true }],
])(
	'deliveryBody %s: one run with type, data and (when known) the event id',
	async (shape, { withId, raw }) => {
		await harness.admin('POST', '/config', { deliveryBody: shape });
		await published(`wf-${shape}`);
		const { event_id: eventId } = await harness.emit('order.shipped', data);
		expect(harness.runs).toHaveLength(1);
		const [item] = harness.runs[0].items;
		expect(item).toMatchObject({
			eventType: 'order.shipped',
			data,
			eventId: withId ? eventId : null,
		});
		if (raw) expect(item.rawBody).toEqual(data);
		// Not even a key holding undefined: the next node (Object.keys($json), a table column) would
		// show one.
		else expect(item).not.toHaveProperty('rawBody');
	},
);

test('order.status.* and order.status.shipped selected: one handler, one run per event', async () => {
	const selection = { events: ['order.status.*'], customEventTypes: 'order.status.shipped' };
	if (answers.wildcards === 'refused') {
		// Only the pattern is registered, and the profile's service refuses it
		// (test/trigger/lifecycle.wildcards.test.js).
		await expect(published('wf-overlap', selection)).rejects.toThrow('"order.status.*" (1 of 1)');
		expect(await harness.handlers()).toEqual([]);
		return;
	}
	await published('wf-overlap', selection);
	expect((await harness.handlers()).map((handler) => handler.type)).toEqual(['order.status.*']);
	await harness.emit('order.status.shipped', data);
	expect(harness.runs).toHaveLength(1);
});
