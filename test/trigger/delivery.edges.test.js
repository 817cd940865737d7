// Delivery bodies no other test sent (found by the mutation run, mutation/README.md), posted
// straight to the published trigger's URL with its secret, as a service would: several events in
// one body, some not selected; the answer that says what was ignored; an event without data; the
// other field names an event may use.
const { publishedWorkflow, useTriggerHarness } = require('./helpers/setup');

const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const TYPE_HEADER = 'x-inventory-ops-event-type';

const context = useTriggerHarness();
let harness;
beforeEach(() => ({ harness } = context));

/**
 * Publishes a trigger for `events` and returns a function that posts a body to it: { status, answer
 * }.
 */
async function publishedPoster(id, events, options = {}) {
	const stored = await publishedWorkflow(harness, id, { events, options });
	const url = harness.webhookUrl(stored, false);
	const { secret } = harness.staticState(stored.staticData).registrations[url];
	return async (body, headers = {}) => {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret, ...headers },
			body: typeof body === 'string' ? body : JSON.stringify(body),
		});
		return { status: response.status, answer: await response.json() };
	};
}

const itemsOfRuns = () => harness.runs.flatMap((run) => run.items);

test('several events in one body: the selected ones become items, in order; the others are left out', async () => {
	const post = await publishedPoster('wf-many', ['order.shipped', 'item.inventory']);
	const { status } = await post([
		{ id: 'm1', type: 'order.shipped', data: { n: 1 } },
		{ id: 'm2', type: 'shipment.voided', data: { n: 2 } },
		{ id: 'm3', type: 'item.inventory', data: { n: 3 } },
	]);
	expect(status).toBe(200);
	expect(harness.runs).toHaveLength(1);
	expect(itemsOfRuns().map((item) => [item.eventId, item.eventType, item.data])).toEqual([
		['m1', 'order.shipped', { n: 1 }],
		['m3', 'item.inventory', { n: 3 }],
	]);
});

test('nothing selected in a body: 200 with what was ignored and why (one reason as text, several as a list)', async () => {
	const post = await publishedPoster('wf-ignored', ['order.shipped']);
	expect(await post({ id: 'i1', type: 'item.updated', data: {} })).toEqual({
		status: 200,
		answer: { received: true, ignored: 'event type item.updated is not selected' },
	});
	expect(
		await post([
			{ id: 'i2', type: 'item.updated', data: {} },
			{ id: 'i3', type: 'shipment.voided', data: {} },
		]),
	).toEqual({
		status: 200,
		answer: {
			received: true,
			ignored: [
				'event type item.updated is not selected',
				'event type shipment.voided is not selected',
			],
		},
	});
	expect(harness.runs).toHaveLength(0);
});

test('a repeated event id is ignored with its reason, also inside one body', async () => {
	const post = await publishedPoster('wf-repeats', ['order.shipped']);
	await post({ id: 'r1', type: 'order.shipped', data: { first: true } });
	expect(await post({ id: 'r1', type: 'order.shipped', data: { again: true } })).toEqual({
		status: 200,
		answer: { received: true, ignored: 'event r1 was already received' },
	});
	await post([
		{ id: 'r2', type: 'order.shipped', data: {} },
		{ id: 'r2', type: 'order.shipped', data: {} },
	]);
	expect(itemsOfRuns().map((item) => item.eventId)).toEqual(['r1', 'r2']);
});

test('an event without a data field keeps its whole body as rawBody, and data is empty', async () => {
	const post = await publishedPoster('wf-no-data', ['order.shipped']);
	const body = { id: 'd1', type: 'order.shipped', order_number: '1001' };
	await post(body);
	const [item] = itemsOfRuns();
	expect(item).toMatchObject({
		eventId: 'd1',
		eventType: 'order.shipped',
		data: {},
		rawBody: body,
	});
});

test('an event read from the other common field names: event_type, eventId, occurred_at, payload', async () => {
	const post = await publishedPoster('wf-aliases', ['order.shipped']);
	await post({
		event_type: 'order.shipped',
		eventId: 'a1',
		occurred_at: '2026-11-23T10:00:00Z',
		payload: { p: 1 },
	});
	await post({ topic: 'order.shipped', delivery_id: 42, timestamp: 1700000000, object: { o: 2 } });
	await post({ eventType: 'order.shipped', event_id: ' ', id: 'a3', createdAt: '', data: null });
	expect(
		itemsOfRuns().map(({ eventId, eventType, createdAt, data, rawBody }) => ({
			eventId,
			eventType,
			createdAt,
			data,
			rawBody,
		})),
	).toEqual([
		{
			eventId: 'a1',
			eventType: 'order.shipped',
			createdAt: '2026-11-23T10:00:00Z',
			data: { p: 1 },
			rawBody: undefined,
		},
		{
			eventId: '42',
			eventType: 'order.shipped',
			createdAt: '1700000000',
			data: { o: 2 },
			rawBody: undefined,
		},
		{ eventId: 'a3', eventType: 'order.shipped', createdAt: null, data: {}, rawBody: undefined },
	]);
});

test('a numeric type is no type: the handler header gives it, or the body is refused', async () => {
	const post = await publishedPoster('wf-numeric-type', ['order.shipped']);
	expect((await post({ type: 7, data: {} })).status).toBe(400);
	await post({ type: 7, id: 'n1', data: {} }, { [TYPE_HEADER]: 'order.shipped' });
	// No string type in the body: the body is the record, sent whole, and its own id is not the
	// event's.
	expect(itemsOfRuns()).toEqual([
		expect.objectContaining({
			eventId: null,
			eventType: 'order.shipped',
			data: { type: 7, id: 'n1', data: {} },
		}),
	]);
});

test('JSON sent as text is read as JSON; a record without a type takes the type from the handler header', async () => {
	const post = await publishedPoster('wf-text', ['order.shipped']);
	await post(JSON.stringify({ id: 't1', type: 'order.shipped', data: { t: 1 } }), {
		'content-type': 'text/plain',
	});
	await post({ order_number: '5' }, { [TYPE_HEADER]: 'order.shipped' });
	expect(
		itemsOfRuns().map(({ eventId, eventType, data, rawBody }) => ({
			eventId,
			eventType,
			data,
			rawBody,
		})),
	).toEqual([
		{ eventId: 't1', eventType: 'order.shipped', data: { t: 1 }, rawBody: undefined },
		{
			eventId: null,
			eventType: 'order.shipped',
			data: { order_number: '5' },
			rawBody: { order_number: '5' },
		},
	]);
});

test('a JSON null body, or a list with one unreadable entry, is refused whole, saying what a body must be', async () => {
	const post = await publishedPoster('wf-null', ['order.shipped']);
	const refusal = {
		status: 400,
		answer: {
			error:
				'The body is not an Inventory Ops event: expected JSON (an event, a list of events or a record)',
		},
	};
	expect(await post('null')).toEqual(refusal);
	expect(await post([{ id: 'u1', type: 'order.shipped', data: {} }, 5])).toEqual(refusal);
	expect(await post([null])).toEqual(refusal);
	expect(await post('not json', { 'content-type': 'text/plain' })).toEqual(refusal);
	expect(harness.runs).toHaveLength(0);
});

test('an empty body is refused as no event, even when the handler header names a type', async () => {
	const post = await publishedPoster('wf-empty', ['order.shipped']);
	const refusal = {
		status: 400,
		answer: {
			error:
				'The body is not an Inventory Ops event: expected JSON (an event, a list of events or a record)',
		},
	};
	// n8n hands webhook() no body at all here (its body parser reads nothing from an empty body).
	expect(await post('', { [TYPE_HEADER]: 'order.shipped' })).toEqual(refusal);
	expect(await post('', { 'content-type': 'text/plain', [TYPE_HEADER]: 'order.shipped' })).toEqual(
		refusal,
	);
	expect(harness.runs).toHaveLength(0);
});

test('a wrong secret is answered 401 with a reason that names no secret', async () => {
	const post = await publishedPoster('wf-401', ['order.shipped']);
	expect(
		await post({ id: 's1', type: 'order.shipped', data: {} }, { [SECRET_HEADER]: 'f'.repeat(64) }),
	).toEqual({
		status: 401,
		answer: { error: 'Missing or invalid webhook secret' },
	});
});

test('entries that are not objects take the type from the handler header, each kept whole as data and rawBody', async () => {
	const post = await publishedPoster('wf-scalars', ['order.shipped']);
	await post([5, 'text', [1]], { [TYPE_HEADER]: 'order.shipped' });
	expect(
		itemsOfRuns().map(({ eventType, data, rawBody }) => ({ eventType, data, rawBody })),
	).toEqual([
		{ eventType: 'order.shipped', data: 5, rawBody: 5 },
		{ eventType: 'order.shipped', data: 'text', rawBody: 'text' },
		{ eventType: 'order.shipped', data: [1], rawBody: [1] },
	]);
});

// delivery.ts, repeated event ids: each registration remembers its last 1000 event ids; the oldest
// is forgotten first.
test('the 1001st event id pushes the oldest out: it starts a run again, the newest is still a repeat', async () => {
	const post = await publishedPoster('wf-recent', ['order.shipped']);
	const ids = Array.from({ length: 1001 }, (_, index) => `e${index}`);
	await post(ids.map((id) => ({ id, type: 'order.shipped', data: {} })));
	expect(itemsOfRuns()).toHaveLength(1001);
	expect((await post({ id: 'e1000', type: 'order.shipped', data: {} })).answer).toEqual({
		received: true,
		ignored: 'event e1000 was already received',
	});
	expect((await post({ id: 'e1', type: 'order.shipped', data: {} })).answer).toEqual({
		received: true,
		ignored: 'event e1 was already received',
	});
	harness.runs.length = 0;
	await post({ id: 'e0', type: 'order.shipped', data: {} });
	expect(itemsOfRuns().map((item) => item.eventId)).toEqual(['e0']);
});
