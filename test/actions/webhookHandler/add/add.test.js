// Webhook Handler -> Add through n8n's engine against the sandbox.
const { useInventoryOps } = require('../../../helpers/inventoryOps');
const { answers, refusalSeen, sandboxCode } = require('../../../helpers/profile');

const ADD = '/api/webhook/add_handler';
const ctx = useInventoryOps({ orders: 10 });

const addParameters = (extra = {}) => ({
	resource: 'webhookHandler',
	operation: 'add',
	eventType: 'order.status.*',
	name: 'Notify warehouse',
	url: 'https://example.com/hooks/inventory',
	method: 'POST',
	headers: { header: [{ name: 'X-Secret', value: 's3cret' }] },
	...extra,
});

test('add sends the body the service expects and outputs the new _id without echoing header values', async () => {
	await ctx.sandbox.config({ wildcards: 'suffix' }); // a refused wildcard: the next test
	const result = await ctx.run(addParameters());
	expect(result.error).toBeUndefined();
	expect((await ctx.sandbox.calls(ADD)).map((call) => call.body)).toEqual([
		{
			type: 'order.status.*',
			name: 'Notify warehouse',
			handler: {
				url: 'https://example.com/hooks/inventory',
				method: 'POST',
				headers: { 'X-Secret': 's3cret' },
			},
		},
	]);
	expect(JSON.stringify(result.items)).not.toContain('s3cret');
	const [handler] = await ctx.sandbox.handlers();
	const sent = {
		type: 'order.status.*',
		name: 'Notify warehouse',
		url: 'https://example.com/hooks/inventory',
		method: 'POST',
	};
	// How the profile's service answers add_handler: where the new _id is (top, nested with the
	// handler, none).
	const byIdPlace = {
		top: { success: true, _id: handler._id, idReturned: true, ...sent },
		nested: {
			success: true,
			handler: { _id: handler._id, type: 'order.status.*', name: 'Notify warehouse' },
			_id: handler._id,
			idReturned: true,
			...sent,
		},
		none: {
			success: true,
			idReturned: false,
			missingFromAnswer: ['_id'],
			notice: expect.stringContaining('lacks: _id. Find it on the service'),
			...sent,
		},
	};
	expect(result.items).toEqual([
		{ json: byIdPlace[answers.addHandlerId], pairedItem: { item: 0 } },
	]);
});

test('a service that refuses wildcards: the add fails with its reason, and no handler is left', async () => {
	await ctx.sandbox.config({ wildcards: 'refused' });
	const result = await ctx.run(addParameters(), { continueOnFail: true });
	const seen = refusalSeen(400);
	expect(result.items[0].json.details).toMatchObject({
		httpCode: seen.httpCode,
		outcome: 'refused',
		changeApplied: 'no',
	});
	if (seen.serviceMessage)
		expect(result.items[0].json.error).toMatch(
			/\. The service said: .*Event type "order\.status\.\*" is a wildcard/,
		);
	if (seen.code)
		expect(result.items[0].json.details.code).toBe(sandboxCode('WILDCARD_NOT_SUPPORTED'));
	expect(await ctx.sandbox.handlers()).toEqual([]);
});

test('a custom event type is sent as typed', async () => {
	await ctx.run(
		addParameters({ eventType: 'custom', customEventType: 'item.created', headers: {} }),
	);
	expect((await ctx.sandbox.calls(ADD))[0].body).toEqual({
		type: 'item.created',
		name: 'Notify warehouse',
		handler: { url: 'https://example.com/hooks/inventory', method: 'POST', headers: {} },
	});
});

test('when the service returns no _id the output says so instead of inventing one', async () => {
	await ctx.sandbox.config({ addHandlerReturnsId: false, wildcards: 'suffix' });
	const result = await ctx.run(addParameters());
	expect(result.items[0].json).toEqual({
		success: true,
		idReturned: false,
		missingFromAnswer: ['_id'],
		notice:
			'The service added the handler, but its answer lacks: _id. Find it on the service to remove it. Do not run this item again.',
		type: 'order.status.*',
		name: 'Notify warehouse',
		url: 'https://example.com/hooks/inventory',
		method: 'POST',
	});
	expect(result.items[0].json._id).toBeUndefined();
});

test('lists in the answer stay lists, with the password of every URL in them removed', async () => {
	// A service that answers with the handler's delivery targets, one of them carrying the
	// credentials it was given.
	await ctx.sandbox.fault({
		route: ADD,
		count: 1,
		status: 200,
		body: {
			success: true,
			_id: 'h-lists',
			targets: ['https://hooks:pw@example.com/a', 'https://example.com/b'],
			retries: [1, 5],
		},
	});
	const result = await ctx.run(addParameters());
	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({
		_id: 'h-lists',
		targets: ['https://example.com/a', 'https://example.com/b'],
		retries: [1, 5],
	});
	expect(JSON.stringify(result.items)).not.toContain('pw@');
});

test('bad URL and header name fail the item before any call, naming the field', async () => {
	const result = await ctx.run(
		addParameters({
			url: '={{ $json.url }}',
			headers: { header: [{ name: '={{ $json.header }}', value: 'v' }] },
		}),
		{
			items: [
				{ url: 'ftp://example.com', header: 'X-Ok' },
				{ url: 'https://example.com', header: 'Bad Header' },
			],
			continueOnFail: true,
		},
	);
	expect(result.items.map((item) => [item.pairedItem.item, item.json.error])).toEqual([
		[
			0,
			"Item 0: 'URL' must be an http:// or https:// address with a host, e.g. https://example.com/hook",
		],
		[1, "Item 1: 'Headers[0].name' is not a valid HTTP header name"],
	]);
	expect(await ctx.sandbox.calls(ADD)).toHaveLength(0);
});

test('an answer lost after the service added the handler: the node fails and add was sent exactly once', async () => {
	await ctx.sandbox.fault({ route: ADD, count: 1, drop: 'after' });
	const result = await ctx.run(addParameters());
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'noAnswer',
		changeApplied: 'maybe',
		sent: true,
	});
	expect(await ctx.sandbox.calls(ADD)).toHaveLength(1);
	// The service applied what it would have answered: the handler, or its refusal of a wildcard.
	expect(await ctx.sandbox.handlers()).toHaveLength(answers.wildcards === 'refused' ? 0 : 1);
});

describe('the event type and method are checked before any call, naming the item and the field', () => {
	const HINT =
		'Write event types as dot-separated words (order.status.cancelled), with ".*" only at the end (order.status.*).';
	/**
	 * Runs Add with continueOnFail over `items`; returns each output item's json (an error item or an
	 * answer).
	 */
	async function addEach(extra, items) {
		const result = await ctx.run(addParameters({ headers: {}, ...extra }), {
			items,
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem.item)).toEqual(
			items.map((_, index) => index),
		);
		return result.items.map((item) => item.json);
	}
	const failure = (itemIndex, field, problem) => ({
		error: `Item ${itemIndex}: '${field}' ${problem}`,
		details: expect.objectContaining({
			description: `Fix the value of '${field}' in input item ${itemIndex} and run again.`,
		}),
	});

	test('a custom event type that is not one fails naming Custom Event Type; a good one is sent', async () => {
		const outputs = await addEach({ eventType: 'custom', customEventType: '={{ $json.type }}' }, [
			{ type: 'order shipped' },
			{ type: 'order.*.shipped' },
			{ type: 'item.created' },
		]);
		expect(outputs.slice(0, 2)).toEqual([
			failure(0, 'Custom Event Type', `must be an event type, not "order shipped". ${HINT}`),
			failure(1, 'Custom Event Type', `must be an event type, not "order.*.shipped". ${HINT}`),
		]);
		expect(outputs[2]).toMatchObject({ type: 'item.created', name: 'Notify warehouse' });
		expect((await ctx.sandbox.calls(ADD)).map((call) => call.body.type)).toEqual(['item.created']);
	});

	// The editor lets Event Type take an expression (workflows arrive by import and API too); it can
	// give any text. n8n then shows, and requires, Custom Event Type as well (its display rule cannot
	// know the expression's value), but the node reads it only when the expression gives "custom".
	test('an Event Type expression that gives no event type, or nothing, fails naming Event Type', async () => {
		const outputs = await addEach(
			{ eventType: '={{ $json.type }}', customEventType: 'item.created' },
			[{ type: 'order shipped' }, { type: '' }, { type: 'order.tags' }],
		);
		expect(outputs.slice(0, 2)).toEqual([
			failure(0, 'Event Type', `must be an event type, not "order shipped". ${HINT}`),
			failure(1, 'Event Type', 'is required and must not be empty'),
		]);
		expect(outputs[2]).toMatchObject({ type: 'order.tags' });
		expect((await ctx.sandbox.calls(ADD)).map((call) => call.body.type)).toEqual(['order.tags']);
	});

	test('the method is sent as chosen, in capitals; one the service does not take fails naming Method', async () => {
		const outputs = await addEach({ method: '={{ $json.method }}' }, [
			{ method: 'PUT' },
			{ method: 'patch' },
			{ method: 'TRACE' },
			{ method: 'GET' },
		]);
		expect(outputs[2]).toEqual(
			failure(2, 'Method', 'must be one of POST, PUT, PATCH, GET, DELETE, got text'),
		);
		// What was sent, read at the sandbox: a service need not echo the method in its answer (the
		// reshaped profile).
		expect((await ctx.sandbox.calls(ADD)).map((call) => call.body.handler.method)).toEqual([
			'PUT',
			'PATCH',
			'GET',
		]);
	});

	test('a method chosen in the list is the one sent', async () => {
		await ctx.run(addParameters({ method: 'DELETE', headers: {} }));
		expect((await ctx.sandbox.calls(ADD)).map((call) => call.body.handler.method)).toEqual([
			'DELETE',
		]);
	});
});
