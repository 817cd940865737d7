// Deliveries from the sandbox's own event API to the trigger's webhook(), through a local HTTP
// server (see helpers/harness.js). A run is counted when webhook() hands n8n workflow data; 401/400
// answers start nothing.
const { answers } = require('../helpers/profile');
const { addHandlerAsClient } = require('../helpers/sandbox');
const { publishedWorkflow, useTriggerHarness } = require('./helpers/setup');

const SECRET_HEADER = 'x-inventory-ops-webhook-secret';

const context = useTriggerHarness();
let harness;
let sandbox;
beforeEach(() => ({ harness, sandbox } = context));

const published = (id, parameters) => publishedWorkflow(harness, id, parameters);

function secretOf(stored) {
	const state = harness.staticState(stored.staticData);
	return state.registrations[harness.webhookUrl(stored, false)].secret;
}

// What a run's item holds besides the event depends on how the service answers (the profile): a
// delivery of the record alone carries no event id or time, so the item keeps the raw body; a
// handler added without an id returned is named in `warnings`.
const RECORD_ONLY = answers.deliveryBody === 'record';
const eventFields = (eventId, data) =>
	RECORD_ONLY
		? { eventId: null, createdAt: null, rawBody: data }
		: { eventId, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) };
const warningsOf = (count) =>
	answers.addHandlerId === 'none'
		? {
				warnings: Array.from({ length: count }, () =>
					expect.stringMatching(/^This trigger cannot remove the webhook handler /),
				),
			}
		: {};

/** Registers a handler on the service directly (not through the trigger), as someone else could. */
async function addForeignHandler(type, url, headers) {
	return await addHandlerAsClient(sandbox, {
		type,
		name: 'not ours',
		handler: { url, method: 'POST', headers },
	});
}

async function statusByHandler(eventId) {
	const deliveries = await harness.deliveries(eventId);
	return Object.fromEntries(deliveries.map((delivery) => [delivery.handler_id, delivery.status]));
}

test('the right secret starts exactly one run with the event, and the secret is not in the output', async () => {
	const stored = await published('wf-right');
	const { event_id: eventId, handlers } = await harness.emit('order.shipped', {
		order_number: '1001',
		store_id: 's1',
	});
	expect(handlers).toBe(1);

	expect(harness.runs).toHaveLength(1);
	const [item] = harness.runs[0].items;
	expect(item).toEqual({
		...eventFields(eventId, { order_number: '1001', store_id: 's1' }),
		eventType: 'order.shipped',
		receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
		data: { order_number: '1001', store_id: 's1' },
		...warningsOf(1),
	});
	expect(JSON.stringify(harness.runs)).not.toContain(secretOf(stored));
	expect(Object.values(await statusByHandler(eventId))).toEqual([200]);
});

test('a wrong secret and a missing secret get 401 and start nothing', async () => {
	const stored = await published('wf-wrong');
	const url = harness.webhookUrl(stored, false);
	const wrong = await addForeignHandler('order.shipped', url, { [SECRET_HEADER]: 'f'.repeat(64) });
	const missing = await addForeignHandler('order.shipped', url, {});
	const sameLengthPrefix = await addForeignHandler('order.shipped', url, {
		[SECRET_HEADER]: secretOf(stored).slice(0, 63),
	});

	const { event_id: eventId, handlers } = await harness.emit('order.shipped', {
		order_number: '1002',
	});
	expect(handlers).toBe(4);
	const statuses = await statusByHandler(eventId);
	expect(statuses[wrong]).toBe(401);
	expect(statuses[missing]).toBe(401);
	expect(statuses[sameLengthPrefix]).toBe(401);
	expect(Object.values(statuses).filter((status) => status === 200)).toHaveLength(1);
	expect(harness.runs).toHaveLength(1);
});

test('no stored secret: every delivery is refused (fails closed)', async () => {
	const stored = await published('wf-closed');
	const url = harness.webhookUrl(stored, false);
	const oldSecret = secretOf(stored);
	await harness.deactivate(stored);

	// The service would not deliver to a removed handler, so the request a forger could send is sent
	// by hand.
	for (const headers of [{ [SECRET_HEADER]: oldSecret }, { [SECRET_HEADER]: '' }, {}]) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify({ id: 'evt_x', type: 'order.shipped', data: {} }),
		});
		expect(response.status).toBe(401);
	}

	// A stored registration whose secret is empty (damaged static data) refuses an empty header too.
	await harness.activate(stored);
	const state = harness.staticState(stored.staticData);
	state.registrations[url].secret = '';
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [SECRET_HEADER]: '' },
		body: JSON.stringify({ id: 'evt_y', type: 'order.shipped', data: {} }),
	});
	expect(response.status).toBe(401);
	expect(harness.runs).toHaveLength(0);
});

test('a body that is not JSON, or JSON with no event type from body or handler, gets 400 and starts nothing', async () => {
	const stored = await published('wf-bad-body');
	const url = harness.webhookUrl(stored, false);
	const bodies = [
		{ contentType: 'text/plain', body: 'hello' },
		{ contentType: 'application/json', body: '{"id":"evt_1","data":{}}' },
		{ contentType: 'application/json', body: '[{"id":"evt_2"}]' },
	];
	for (const { contentType, body } of bodies) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': contentType, [SECRET_HEADER]: secretOf(stored) },
			body,
		});
		expect(response.status).toBe(400);
	}
	expect(harness.runs).toHaveLength(0);
});

test('an event type outside the selection is acknowledged with 200 and ignored', async () => {
	const stored = await published('wf-other-type');
	// A handler with our URL and secret but another type, as a service could still hold from an
	// earlier selection.
	const other = await addForeignHandler('item.updated', harness.webhookUrl(stored, false), {
		[SECRET_HEADER]: secretOf(stored),
	});
	const { event_id: eventId } = await harness.emit('item.updated', { item_id: 'i1' });
	// A record alone names no type, and this handler (not the trigger's) sends no type header:
	// refused, not guessed.
	expect((await statusByHandler(eventId))[other]).toBe(RECORD_ONLY ? 400 : 200);
	expect(harness.runs).toHaveLength(0);
});

test('a wildcard selection receives every type under it, and only those', async () => {
	if (answers.wildcards === 'refused') {
		// The service refuses the pattern: the activation fails with its message
		// (test/trigger/lifecycle.wildcards.test.js).
		await expect(published('wf-wildcard', { events: ['order.status.*'] })).rejects.toThrow(
			/WILDCARD|wildcard/,
		);
		expect(await harness.handlers()).toEqual([]);
		return;
	}
	await published('wf-wildcard', { events: ['order.status.*'] });
	await harness.emit('order.status.shipped', { order_number: '1' });
	await harness.emit('order.status.on_hold', { order_number: '2' });
	const { handlers } = await harness.emit('order.shipped', { order_number: '3' });
	expect(handlers).toBe(0);
	// A record alone carries no type: the item has the type the handler was registered for, the
	// pattern.
	expect(harness.runs.map((run) => run.items[0].eventType)).toEqual(
		RECORD_ONLY
			? ['order.status.*', 'order.status.*']
			: ['order.status.shipped', 'order.status.on_hold'],
	);
});

test('a custom event type is registered and received', async () => {
	await published('wf-custom', { events: [], customEventTypes: 'order.created' });
	expect((await harness.handlers()).map((handler) => handler.type)).toEqual(['order.created']);
	await harness.emit('order.created', { order_number: '9' });
	expect(harness.runs).toHaveLength(1);
});

test('Include Request Headers adds the headers without the secret', async () => {
	await published('wf-headers', { options: { includeHeaders: true } });
	await harness.emit('order.shipped', {});
	const { headers } = harness.runs[0].items[0];
	expect(headers['content-type']).toBe('application/json');
	expect(Object.keys(headers)).not.toContain(SECRET_HEADER);
});

test('a delivery uses the Options of the published version, kept at activation: an unpublished edit changes nothing', async () => {
	const stored = await published('wf-options-kept', { options: { includeHeaders: true } });
	stored.parameters = { ...stored.parameters, options: { includeHeaders: false } };
	await harness.emit('order.shipped', {});
	expect(harness.runs[0].items[0].headers['content-type']).toBe('application/json');
});

test('the Options are kept with the registration at activation', async () => {
	const stored = await published('wf-options-record', { options: { includeHeaders: true } });
	const registration = harness.staticState(stored.staticData).registrations[
		harness.webhookUrl(stored, false)
	];
	expect(registration).toMatchObject({ ignoreRepeats: true, includeHeaders: true });
});

test('a repeated delivery of the same event id starts one run, unless the option is off', async () => {
	await published('wf-repeat');
	await harness.emit('order.shipped', { n: 1 }, 'evt_same');
	const { event_id: eventId } = await harness.emit('order.shipped', { n: 1 }, 'evt_same');
	// A record alone carries no event id, so a repeat cannot be told from a new event: both run.
	expect(harness.runs).toHaveLength(RECORD_ONLY ? 2 : 1);
	expect((await harness.deliveries(eventId)).map((delivery) => delivery.status)).toEqual([
		200, 200,
	]);

	await harness.admin('POST', '/reset');
	harness.runs.length = 0;
	await published('wf-repeat-off', { options: { ignoreRepeatedDeliveries: false } });
	await harness.emit('order.shipped', {}, 'evt_twice');
	await harness.emit('order.shipped', {}, 'evt_twice');
	expect(harness.runs).toHaveLength(2);
});

test('eight deliveries of one event id in flight at once start one run, and no delivery writes static data', async () => {
	const stored = await published('wf-repeat-concurrent');
	const before = JSON.stringify(stored.staticData);
	const url = harness.webhookUrl(stored, false);
	const body = JSON.stringify({
		id: 'evt_in_flight',
		type: 'order.shipped',
		created_at: new Date().toISOString(),
		data: {},
	});
	const post = () =>
		fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', [SECRET_HEADER]: secretOf(stored) },
			body,
		});
	const statuses = (await Promise.all(Array.from({ length: 8 }, post))).map(
		(response) => response.status,
	);
	expect(statuses).toEqual(Array(8).fill(200));
	expect(harness.runs).toHaveLength(1);
	// Static data belongs to the lifecycle: a delivery that wrote it could put back a registration a
	// later activation replaced (n8n 1.x saves a delivery's whole copy after the run).
	expect(JSON.stringify(stored.staticData)).toBe(before);

	// A new activation is a new registration (a new secret): its memory of event ids starts empty.
	await harness.deactivate(stored);
	await harness.activate(stored);
	harness.runs.length = 0;
	const again = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [SECRET_HEADER]: secretOf(stored) },
		body,
	});
	expect(again.status).toBe(200);
	expect(harness.runs).toHaveLength(1);
});
