// Webhook deliveries (chosen in sandbox/README.md) to a local receiver, over real HTTP.
const { start } = require('./support');
const { startReceiver } = require('./receiver');

let client;
let receiver;
beforeAll(async () => {
	// Short backoff so retries settle fast; the shape of the backoff is not what these tests time.
	client = await start({ delivery: { maxAttempts: 3, baseDelayMs: 20, timeoutMs: 1000 } });
	receiver = await startReceiver();
});
afterAll(async () => {
	await client.close();
	await receiver.close();
});
afterEach(async () => {
	await client.reset();
	receiver.clear();
});

async function addHandler(type, headers = {}, path = '/hook') {
	const response = await client.api('/webhook/add_handler', {
		type,
		name: type,
		handler: { url: `${receiver.url}${path}`, method: 'POST', headers },
	});
	return response.data._id;
}
const emit = async (type, data, id) =>
	(await client.admin.post('/events?wait=true', { type, data, id })).data;
const deliveries = async (eventId) =>
	(await client.admin.get('/deliveries', eventId ? { event_id: eventId } : undefined)).deliveries;

test('an event is POSTed as { id, type, created_at, data } with the handler headers verbatim', async () => {
	const handlerId = await addHandler('order.shipped', {
		'X-Webhook-Secret': 's3cret',
		'X-Workflow': 'wf-1',
	});
	const result = await emit('order.shipped', { order_number: '1000', store_id: '1001' });
	expect(result).toEqual({ event_id: expect.stringMatching(/^evt_/), handlers: 1 });
	expect(receiver.received).toHaveLength(1);
	const [delivery] = receiver.received;
	expect(delivery.method).toBe('POST');
	expect(delivery.url).toBe('/hook');
	expect(delivery.headers['content-type']).toBe('application/json');
	expect(delivery.headers['x-webhook-secret']).toBe('s3cret');
	expect(delivery.headers['x-workflow']).toBe('wf-1');
	expect(delivery.body).toEqual({
		id: result.event_id,
		type: 'order.shipped',
		created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
		data: { order_number: '1000', store_id: '1001' },
	});
	expect(await deliveries(result.event_id)).toEqual([
		expect.objectContaining({
			event_id: result.event_id,
			type: 'order.shipped',
			handler_id: handlerId,
			url: `${receiver.url}/hook`,
			attempt: 1,
			status: 200,
			error: null,
		}),
	]);
});

test('a suffix wildcard matches the types under it, and only those; exact types match exactly', async () => {
	await addHandler('order.status.*', {}, '/status');
	await addHandler('order.shipped', {}, '/shipped');
	expect((await emit('order.status.shipped', {})).handlers).toBe(1);
	expect((await emit('order.status.cancelled', {})).handlers).toBe(1);
	expect((await emit('order.statusx', {})).handlers).toBe(0);
	expect((await emit('order.status', {})).handlers).toBe(0);
	expect((await emit('order.shipped.late', {})).handlers).toBe(0);
	expect((await emit('item.inventory', {})).handlers).toBe(0);
	expect(receiver.received.map((d) => [d.url, d.body.type])).toEqual([
		['/status', 'order.status.shipped'],
		['/status', 'order.status.cancelled'],
	]);
});

test('an event goes to every matching handler', async () => {
	await addHandler('purchase_order.*', {}, '/a');
	await addHandler('purchase_order.created', {}, '/b');
	const { handlers } = await emit('purchase_order.created', { number: 'PO-1' });
	expect(handlers).toBe(2);
	expect(receiver.received.map((d) => d.url).sort()).toEqual(['/a', '/b']);
});

test('a failed delivery is retried with the same id up to maxAttempts, every attempt recorded', async () => {
	await addHandler('order.tracking');
	receiver.answerWith([500, 'hang-up']);
	const { event_id: eventId } = await emit('order.tracking', { tracking: 'T1' });
	expect(receiver.received.map((d) => d.body.id)).toEqual([eventId, eventId, eventId]);
	const attempts = await deliveries(eventId);
	expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
		[1, 500],
		[2, null],
		[3, 200],
	]);
	expect(attempts[0].error).toBe('answered 500');
	expect(typeof attempts[1].error).toBe('string');
	expect(attempts[2].error).toBeNull();
});

test('delivery stops after maxAttempts', async () => {
	await addHandler('order.tags');
	receiver.answerWith([503, 503, 503, 503]);
	const { event_id: eventId } = await emit('order.tags', {});
	expect(receiver.received).toHaveLength(3);
	expect((await deliveries(eventId)).map((a) => a.status)).toEqual([503, 503, 503]);
});

test('a handler that never answers is recorded as a failed attempt', async () => {
	await addHandler('shipment.voided', {}, '/x');
	await client.api('/webhook/add_handler', {
		type: 'shipment.voided',
		name: 'closed port',
		handler: { url: 'http://127.0.0.1:9/closed' },
	});
	const { event_id: eventId } = await emit('shipment.voided', {});
	const closed = (await deliveries(eventId)).filter((a) => a.url.endsWith('/closed'));
	expect(closed).toHaveLength(3);
	expect(closed.every((a) => a.status === null && typeof a.error === 'string')).toBe(true);
});

test('retries stop once the handler is removed', async () => {
	// The handler goes while the first attempt waits for its answer, so it is gone before any retry,
	// however slow the machine; `emit` waits until the event has no retry left.
	const id = await addHandler('order.status.*');
	receiver.answerWith([500, 500, 500]);
	receiver.beforeNextAnswer(() => client.api('/webhook/remove_handler', { _id: id }));
	const { event_id: eventId } = await emit('order.status.open', {});
	expect(receiver.received).toHaveLength(1);
	expect((await deliveries(eventId)).map((a) => a.status)).toEqual([500]);
});

test('an event id given to the admin API is used as is', async () => {
	await addHandler('item.updated');
	const result = await emit('item.updated', { sku: 'SKU-0001' }, 'evt_fixed_1');
	expect(result.event_id).toBe('evt_fixed_1');
	expect(receiver.received[0].body.id).toBe('evt_fixed_1');
});

test('a removed handler gets nothing', async () => {
	const id = await addHandler('order.shipped');
	await client.api('/webhook/remove_handler', { _id: id });
	expect((await emit('order.shipped', {})).handlers).toBe(0);
	expect(receiver.received).toEqual([]);
});

test('restore_inventory emits item.inventory for each line it puts back', async () => {
	await addHandler('item.*');
	const [shipment] = (await client.admin.get('/shipments', { deducted: 'true', limit: 1 }))
		.shipments;
	const response = await client.app('/ship/shipping/restore_inventory', {
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
	});
	expect(response.status).toBe(200);
	const expected = shipment.request.order_items.length;
	// The route answers before its events are delivered: wait for them (up to 20 s on a loaded
	// machine).
	for (let i = 0; i < 1000 && receiver.received.length < expected; i++)
		await new Promise((r) => setTimeout(r, 20));
	expect(receiver.received).toHaveLength(expected);
	const [item] = (
		await client.admin.get('/items', { item_id: shipment.request.order_items[0].item_id })
	).items;
	const first = receiver.received.find((d) => d.body.data.item_id === item.item_id).body;
	expect(first.type).toBe('item.inventory');
	expect(first.data).toEqual({
		item_id: item.item_id,
		sku: item.sku,
		location_id: shipment.request.order_items[0].location_id,
		previous_on_hand: expect.any(Number),
		on_hand: item.inventory.find(
			(p) => p.location_id === shipment.request.order_items[0].location_id,
		).on_hand,
		change: shipment.request.order_items[0].quantity,
		reason: 'restore_inventory',
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
	});
	expect(first.data.on_hand - first.data.previous_on_hand).toBe(first.data.change);
});

test('reset clears deliveries', async () => {
	await addHandler('order.shipped');
	await emit('order.shipped', {});
	expect(await deliveries()).toHaveLength(1);
	await client.reset();
	expect(await deliveries()).toEqual([]);
});
