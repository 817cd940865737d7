// Which event types a trigger registers when Events and Custom Event Types come from expressions
// (n8n does not check an expression's result against the listed options), and which delivered types
// start a workflow. trigger/lifecycle.ts reads the selection (with shared/events.ts); delivery.ts
// matches every delivered event against it.
const { publishedWorkflow, useTriggerHarness } = require('./helpers/setup');

const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const TYPE_HEADER = 'x-inventory-ops-event-type';

const context = useTriggerHarness();
let harness;
beforeEach(() => ({ harness } = context));

const handlerTypes = async () => (await harness.handlers()).map((handler) => handler.type).sort();

describe('Custom Event Types given by an expression', () => {
	test('a list: each entry is read as typed text (split at commas), an entry that is not text adds nothing', async () => {
		await publishedWorkflow(harness, 'wf-custom-list', {
			events: ['order.shipped'],
			customEventTypes: '={{ ["order.created", " order.tags, item.updated ", null] }}',
		});
		expect(await handlerTypes()).toEqual([
			'item.updated',
			'order.created',
			'order.shipped',
			'order.tags',
		]);
		await harness.emit('order.created', { order_number: '1001', store_id: '1002' });
		expect(harness.runs.map((run) => run.items.map((item) => item.eventType))).toEqual([
			['order.created'],
		]);
	});

	test('an undefined entry (an expression naming a missing value) adds nothing, as null does', async () => {
		await publishedWorkflow(harness, 'wf-custom-undefined', {
			events: ['order.shipped'],
			customEventTypes: '={{ ["order.created", undefined] }}',
		});
		expect(await handlerTypes()).toEqual(['order.created', 'order.shipped']);
	});

	test('nothing (null): no custom type, the selected events are registered alone', async () => {
		await publishedWorkflow(harness, 'wf-custom-null', {
			events: ['order.shipped', 'item.updated'],
			customEventTypes: '={{ null }}',
		});
		expect(await handlerTypes()).toEqual(['item.updated', 'order.shipped']);
	});
});

test('a type both selected and typed (or typed twice) gets one handler', async () => {
	await publishedWorkflow(harness, 'wf-custom-repeat', {
		events: ['order.shipped'],
		customEventTypes: 'order.shipped, order.created, order.created',
	});
	expect(await handlerTypes()).toEqual(['order.created', 'order.shipped']);
});

test('Events given by an expression: entries are trimmed and empty ones dropped, one handler per type', async () => {
	await publishedWorkflow(harness, 'wf-events-expression', {
		events: '={{ [" order.shipped ", "", "  ", "item.updated"] }}',
		customEventTypes: '',
	});
	expect(await handlerTypes()).toEqual(['item.updated', 'order.shipped']);
	await harness.emit('order.shipped', { order_number: '1001', store_id: '1002' });
	expect(harness.runs).toHaveLength(1);
	expect(harness.runs[0].items[0].eventType).toBe('order.shipped');
});

test('a delivery whose handler header is blank, and whose body names no type, is refused as no event, as without the header', async () => {
	const stored = await publishedWorkflow(harness, 'wf-empty-type', {
		events: ['order.shipped', 'item.updated'],
	});
	const url = harness.webhookUrl(stored, false);
	const { secret } = harness.staticState(stored.staticData).registrations[url];
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret, [TYPE_HEADER]: '' },
		body: JSON.stringify({ order_number: '1001', store_id: '1002' }),
	});
	// It said 200 `ignored: 'event type is not selected'`, where the same body without the header
	// gets 400.
	expect(response.status).toBe(400);
	expect((await response.json()).error).toMatch(/^The body is not an Inventory Ops event/);
	expect(harness.runs).toHaveLength(0);
});

describe('Events given by an expression are checked as typed ones are', () => {
	const activationError = async (id, events) => {
		const stored = harness.storedWorkflow({
			id,
			name: id,
			parameters: { events, customEventTypes: '', options: {} },
		});
		return await harness.activate(stored).then(
			() => undefined,
			(error) => error,
		);
	};

	test('an entry that is not an event type fails the activation naming Events, and nothing is added', async () => {
		const error = await activationError(
			'wf-events-bad',
			'={{ ["order.shipped", "order shipped!", "a.*.b"] }}',
		);
		expect(error?.message).toBe('Events: "order shipped!", "a.*.b" are not event types');
		expect(error.description).toBe(
			'Write event types as dot-separated words (order.status.cancelled), with ".*" only at the end (order.status.*).',
		);
		expect(await harness.handlers()).toEqual([]);
	});

	test('an entry that is not text fails naming Events and the value, not with a bare TypeError', async () => {
		const error = await activationError('wf-events-number', '={{ ["order.shipped", 5] }}');
		expect(error?.message).toBe('Events: 5 is not an event type');
		expect(await harness.handlers()).toEqual([]);
	});

	test('one event type as text (not a list) is registered', async () => {
		await publishedWorkflow(harness, 'wf-events-text', {
			events: '={{ "order.shipped" }}',
			customEventTypes: '',
		});
		expect(await handlerTypes()).toEqual(['order.shipped']);
	});
});
