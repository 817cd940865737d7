// Activation and deactivation sequences of the Inventory Ops Trigger against the sandbox over HTTP,
// counted in the sandbox's own handler table. The contexts are n8n-core's
// HookContext/WebhookContext (see helpers/harness.js).
const { answers } = require('../helpers/profile');
const { PROBING_SEED, useTriggerHarness } = require('./helpers/setup');
const sequences = require('./helpers/sequences');

const THREE_TYPES = ['order.shipped', 'item.inventory', 'shipment.created'];
// Whether the profile's service returns the new handler's id (top or nested). When it returns none,
// nothing can remove a handler: each one added stays on the service (the trigger logs it), and the
// counts below say so.
const REMOVABLE = answers.addHandlerId !== 'none';
// The profile's service may refuse suffix wildcards (test/trigger/lifecycle.wildcards.test.js):
// then an exact type instead.
const STATUS_TYPE = answers.wildcards === 'refused' ? 'order.status.shipped' : 'order.status.*';
const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';

const context = useTriggerHarness({
	fakeSleep: true,
	// Handler ids the trigger can shape a probe on, as a real service's: what proves an unknown
	// handler gone is learnt.
	seed: PROBING_SEED,
	afterAllExtra: () => sequences.write('trigger-lifecycle-handler-counts.json'),
});
let harness;
let sandbox;
beforeEach(() => ({ harness, sandbox } = context));

function workflow(id, events = THREE_TYPES, extra = {}) {
	return harness.storedWorkflow({
		id,
		name: `Orders flow ${id}`,
		parameters: { events, customEventTypes: '', options: {}, ...extra },
	});
}

const typesOf = (handlers) => handlers.map((handler) => handler.type).sort();
const idsOf = (handlers) => handlers.map((handler) => handler._id).sort();

async function expectOnePerType(stored, types, isTest = false) {
	const url = harness.webhookUrl(stored, isTest);
	const handlers = (await harness.handlers()).filter((handler) => handler.handler.url === url);
	expect(typesOf(handlers)).toEqual([...types].sort());
	return handlers;
}

/**
 * Makes the service fail the n-th call of `route` from now on, using the sandbox's own fault
 * injection.
 */
function failNthCall(route, n, fault = { status: 500 }) {
	let calls = 0;
	harness.beforeRequest(async (options) => {
		if (!String(options.url).endsWith(route.replace('/api', ''))) return;
		calls += 1;
		if (calls === n) await harness.admin('POST', '/faults', { route, count: 1, ...fault });
	});
}

test('activate: one handler per selected type, at the production URL, with a 32-byte secret and a recognisable name', async () => {
	const stored = workflow('wf-activate');
	await harness.activate(stored);

	const handlers = await expectOnePerType(stored, THREE_TYPES);
	const secrets = new Set(handlers.map((handler) => handler.handler.headers[SECRET_HEADER]));
	expect(secrets.size).toBe(1);
	expect([...secrets][0]).toMatch(/^[0-9a-f]{64}$/);
	for (const handler of handlers) {
		expect(handler.handler.method).toBe('POST');
		expect(handler.name).toContain('Orders flow wf-activate');
		expect(handler.name).toContain('wf-activate');
	}
	const state = harness.staticState(stored.staticData);
	const registration = state.registrations[harness.webhookUrl(stored, false)];
	expect(registration.handlers.map((handler) => handler.id).sort()).toEqual(
		REMOVABLE ? idsOf(handlers) : handlers.map(() => undefined),
	);
	sequences.record('activate', handlers.length);
});

test('a new activation gets a new secret', async () => {
	const first = workflow('wf-secret');
	await harness.activate(first);
	const earlier = await harness.handlers();
	const [before] = earlier;
	await harness.deactivate(first);
	await harness.activate(first);
	const [after] = (await harness.handlers()).filter(
		(handler) => !idsOf(earlier).includes(handler._id),
	);
	expect(after.handler.headers[SECRET_HEADER]).not.toBe(before.handler.headers[SECRET_HEADER]);
});

test('activate twice without deactivate: checkExists keeps the same handlers; a second create replaces them', async () => {
	const stored = workflow('wf-twice');
	await harness.activate(stored);
	const first = idsOf(await harness.handlers());

	await harness.activate(stored);
	const afterCheckExists = await expectOnePerType(stored, THREE_TYPES);
	expect(idsOf(afterCheckExists)).toEqual(first);

	await harness.createOnly(stored);
	if (!REMOVABLE) {
		// The first three cannot be removed: they stay beside the three new ones.
		expect(typesOf(await harness.handlers())).toEqual([...THREE_TYPES, ...THREE_TYPES].sort());
		return;
	}
	const afterCreate = await expectOnePerType(stored, THREE_TYPES);
	expect(idsOf(afterCreate).some((id) => first.includes(id))).toBe(false);
	expect(await harness.handlers()).toHaveLength(3);
	sequences.record('activate twice without deactivate', (await harness.handlers()).length);
});

test('activate -> deactivate leaves no handler and no secret', async () => {
	const stored = workflow('wf-off');
	await harness.activate(stored);
	expect(await harness.deactivate(stored)).toBe(true);
	const handlers = await harness.handlers();
	expect(handlers).toHaveLength(REMOVABLE ? 0 : 3);
	const state = harness.staticState(stored.staticData);
	expect(Object.keys(state.registrations)).toHaveLength(0);
	expect(state.leftovers).toHaveLength(0);
	sequences.record('activate -> deactivate', handlers.length);
});

test('activate with the 2nd of 3 add_handler calls failing: clear error, nothing left on the service', async () => {
	const stored = workflow('wf-partial');
	// An error body with the service's words (a gateway's page has none): the message must quote
	// them.
	await harness.admin('POST', '/config', { errorBodies: 'spec' });
	failNthCall(ADD_ROUTE, 2);

	const error = await harness.activate(stored).then(
		() => undefined,
		(thrown) => thrown,
	);
	expect(error).toBeDefined();
	// All in the message, which both n8n lines show: our conclusion, the service's words, then what
	// was undone.
	expect(error.message).toMatch(
		/^Publishing failed at the webhook handler for "item\.inventory" \(2 of 3\)\. .*The service said: Fault injected by the sandbox: 500\. /,
	);
	// The end of the message: what was undone, what was left, and the handler the 500 may have added,
	// named.
	expect(error.message).toMatch(
		REMOVABLE
			? /\. Handlers added before it and removed again: 1 of 1\. The failed add may have created its handler all the same\. This trigger cannot remove the webhook handler "n8n: Orders flow wf-partial \(workflow wf-partial\) - item\.inventory" \(no id, event type item\.inventory, URL [^)]+\)\. To remove it by hand, find it by its name in Inventory Ops and remove it there\. Each publish uses a new secret, so the trigger refuses its deliveries meanwhile\.$/
			: /\. Handlers added before it and removed again: 0 of 1\. This trigger cannot remove the webhook handler "n8n: Orders flow wf-partial \(workflow wf-partial\) - order\.shipped" \(no id, event type order\.shipped, URL [^)]+\)\. To remove it by hand, find it by its name in Inventory Ops and remove it there\. The failed add may have created its handler all the same\. This trigger cannot remove the webhook handler "n8n: Orders flow wf-partial \(workflow wf-partial\) - item\.inventory" \(no id, event type item\.inventory, URL [^)]+\)\. To remove it by hand, find it by its name in Inventory Ops and remove it there\. Each publish uses a new secret, so the trigger refuses its deliveries meanwhile\.$/,
	);
	// The transport's error stays attached, with its status and reading: the handler may have been
	// added all the same.
	expect(error.cause.httpCode).toBe('500');
	expect(error.cause.errorResponse).toMatchObject({ outcome: 'failed', changeApplied: 'maybe' });
	const calls = (await harness.admin('GET', `/calls?route=${ADD_ROUTE}`)).calls;
	expect(calls.map((call) => call.status)).toEqual([200, 500]);
	const handlers = await harness.handlers();
	expect(handlers).toHaveLength(REMOVABLE ? 0 : 1);
	expect(stored.active).toBe(false);
	sequences.record('activate with failure on 2nd of 3 types', handlers.length);
});

test('an add_handler answering success: false fails the activation like an error answer', async () => {
	const stored = workflow('wf-refused');
	failNthCall(ADD_ROUTE, 3, { status: 200, body: { success: false } });
	const error = await harness.activate(stored).then(
		() => undefined,
		(thrown) => thrown,
	);
	expect(error.message).toMatch(
		/^Publishing failed at the webhook handler for "shipment\.created" \(3 of 3\)\. /,
	);
	expect(error.cause.errorResponse).toMatchObject({
		outcome: 'refused',
		statusCode: 200,
		changeApplied: 'no',
	});
	expect(error.message).toContain(
		`Handlers added before it and removed again: ${REMOVABLE ? 2 : 0} of 2.`,
	);
	expect(await harness.handlers()).toHaveLength(REMOVABLE ? 0 : 2);
});

test('a 2nd add_handler whose answer is lost: the unknown handler stays on the service but can start nothing', async () => {
	const stored = workflow('wf-lost-answer');
	failNthCall(ADD_ROUTE, 2, { drop: 'after' });

	const error = await harness.activate(stored).then(
		() => undefined,
		(thrown) => thrown,
	);
	expect(error.message).toContain('(2 of 3)');
	expect(error.cause.errorResponse).toMatchObject({ outcome: 'noAnswer', changeApplied: 'maybe' });
	// The service kept the handler whose answer was lost; nobody can know its id. It carries the
	// secret of an activation that never completed, so once the workflow is active its deliveries are
	// refused.
	const handlers = await harness.handlers();
	expect(typesOf(handlers)).toEqual(
		REMOVABLE ? ['item.inventory'] : ['item.inventory', 'order.shipped'],
	);
	await harness.activate(stored);
	expect(await harness.handlers()).toHaveLength(REMOVABLE ? 4 : 5);
	const { event_id: eventId } = await harness.emit('item.inventory', { item_id: 'i1' });
	const statuses = (await harness.deliveries(eventId)).map((delivery) => delivery.status);
	expect(statuses.sort()).toEqual([200, 401]);
	expect(harness.runs).toHaveLength(1);
	sequences.record(
		'activate with the 2nd answer lost (handler committed, id unknown)',
		handlers.length,
	);
});

/**
 * Records the fake clock's time of every remove_handler call the trigger sends, and runs `also`
 * before it.
 */
function removalTimes(also = async () => {}) {
	const times = [];
	harness.beforeRequest(async (options) => {
		if (String(options.url).endsWith('/webhook/remove_handler')) times.push(context.clock.now);
		await also(options);
	});
	return times;
}

test('unpublish while remove_handler fails for a moment (503, or no answer): each removal is tried again 1 s later, nothing is left', async () => {
	if (!REMOVABLE) return;
	for (const fault of [{ status: 503 }, { drop: 'before' }]) {
		const stored = workflow(`wf-flaky-remove-${Object.keys(fault)[0]}`);
		await harness.activate(stored);
		await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 3, ...fault });
		const times = removalTimes();
		context.clock.now = 0;

		expect(await harness.deactivate(stored)).toBe(true);
		expect(times).toEqual([0, 0, 0, 1000, 1000, 1000]);
		expect(await harness.handlers()).toEqual([]);
		expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
	}
	sequences.record('deactivate while remove fails for a moment', 0);
});

test('unpublish while remove_handler keeps failing: 4 tries each at 0, 1, 3 and 7 s, then kept and logged with the ids; the next publish removes them first', async () => {
	const stored = workflow('wf-flaky-remove');
	await harness.admin('POST', '/config', { errorBodies: 'spec' });
	await harness.activate(stored);
	const original = idsOf(await harness.handlers());
	// Every try of the unpublish fails (3 handlers, 4 tries each); the service works again for the
	// next publish.
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 12, status: 503 });
	const times = removalTimes();
	if (!REMOVABLE) {
		// Without ids there is nothing to remove: no remove call, nothing recorded, the handlers stay.
		expect(await harness.deactivate(stored)).toBe(true);
		expect(times).toEqual([]);
		expect(idsOf(await harness.handlers())).toEqual(original);
		expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
		return;
	}

	expect(await harness.deactivate(stored)).toBe(false);
	expect(times).toEqual([0, 0, 0, 1000, 1000, 1000, 3000, 3000, 3000, 7000, 7000, 7000]);
	expect(idsOf(await harness.handlers())).toEqual(original);
	const state = harness.staticState(stored.staticData);
	expect(state.leftovers.map((record) => record.id).sort()).toEqual(original);
	// One line per leftover: its id, event type and URL, the service's words, and how to remove it by
	// hand.
	const lines = harness.warnings.filter((text) =>
		text.startsWith('Inventory Ops Trigger: unpublishing'),
	);
	expect(lines).toHaveLength(3);
	for (const [index, { id, name, type, url }] of state.leftovers.entries()) {
		expect(
			lines[index].startsWith(
				`Inventory Ops Trigger: unpublishing could not remove the webhook handler "${name}" (id ${id}, event type ${type}, URL ${url}). `,
			),
		).toBe(true);
		expect(lines[index]).toMatch(
			/\. The service said: Fault injected by the sandbox: 503\. .* It stays recorded and is tried again at every publish and unpublish, until it has had 10 tries over 30 days \(tried 1 time\(s\) since /,
		);
		expect(
			lines[index].endsWith(
				`To remove it by hand, run the Inventory Ops node's Webhook Handler → Remove with ID ${id}, or find it by its name in Inventory Ops and remove it there.`,
			),
		).toBe(true);
	}
	const afterFailedDeactivate = (await harness.handlers()).length;

	await harness.activate(stored);
	const handlers = await expectOnePerType(stored, THREE_TYPES);
	expect(handlers).toHaveLength(3);
	expect(idsOf(handlers).some((id) => original.includes(id))).toBe(false);
	expect(harness.staticState(stored.staticData).leftovers).toHaveLength(0);
	sequences.record('deactivate while remove fails', afterFailedDeactivate);
	sequences.record('... then activate again', handlers.length);
});

test('unpublish: a refused removal (403) and an answer the node cannot read are not tried again; a slow service gets no try after 10 s', async () => {
	if (!REMOVABLE) return;
	for (const fault of [{ status: 403 }, { status: 200, body: { done: 1 } }]) {
		const stored = workflow(`wf-remove-once-${fault.status}`, ['order.shipped']);
		await harness.activate(stored);
		await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 5, ...fault });
		const times = removalTimes();
		expect(await harness.deactivate(stored)).toBe(false);
		expect(times).toHaveLength(1);
		await harness.admin('POST', '/reset');
	}

	// Each call takes the service 4 s (on the fake clock): tries at 0 and 5 s; a third would start at
	// 11 s.
	const stored = workflow('wf-remove-slow', ['order.shipped']);
	await harness.activate(stored);
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 5, status: 500 });
	context.clock.now = 0;
	const times = removalTimes(async (options) => {
		if (String(options.url).endsWith('/webhook/remove_handler')) context.clock.now += 4000;
	});
	expect(await harness.deactivate(stored)).toBe(false);
	expect(times).toEqual([0, 5000]);
});

// Issue 51: each publish uses a new secret, so a leftover's deliveries are refused; blocking would
// only lose events.
test('leftovers that still cannot be removed do not stop the next activation: it adds its handlers, and they stay recorded', async () => {
	const stored = workflow('wf-stuck');
	await harness.activate(stored);
	// The unpublish's 4 tries per handler, then the next publish's one each.
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 15, status: 500 });
	await harness.deactivate(stored);
	if (!REMOVABLE) {
		// Nothing was recorded as left over (nothing can remove it), so nothing stops the next
		// activation.
		await harness.activate(stored);
		expect(await harness.handlers()).toHaveLength(6);
		return;
	}

	const left = harness
		.staticState(stored.staticData)
		.leftovers.map((record) => record.id)
		.sort();
	harness.warnings.length = 0;
	await harness.activate(stored);
	expect((await harness.admin('GET', `/calls?route=${ADD_ROUTE}`)).calls).toHaveLength(6);
	expect(await harness.handlers()).toHaveLength(6);
	expect(
		harness.staticState(stored.staticData).leftovers.map((record) => [record.id, record.tries]),
	).toEqual(expect.arrayContaining(left.map((id) => [id, 2])));
	for (const id of left) {
		expect(harness.warnings).toContainEqual(
			expect.stringMatching(
				new RegExp(
					`^Inventory Ops Trigger: publishing goes ahead without removing the webhook handler "[^"]*" \\(id ${id}, event type `,
				),
			),
		);
	}

	// The service works again: the next unpublish removes the leftovers and the handlers of the
	// publish.
	await harness.deactivate(stored);
	expect(await harness.handlers()).toHaveLength(0);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
});

test('change the selected events and reactivate: the old types are gone, one handler per new type', async () => {
	const stored = workflow('wf-change');
	await harness.activate(stored);
	stored.parameters = {
		...stored.parameters,
		events: ['order.shipped', STATUS_TYPE],
		customEventTypes: 'order.created',
	};

	await harness.activate(stored);
	if (!REMOVABLE) {
		expect(typesOf(await harness.handlers())).toEqual(
			[...THREE_TYPES, 'order.shipped', STATUS_TYPE, 'order.created'].sort(),
		);
		return;
	}
	const handlers = await expectOnePerType(stored, ['order.shipped', STATUS_TYPE, 'order.created']);
	expect(await harness.handlers()).toHaveLength(3);
	sequences.record('change events and reactivate (3 -> 3 other types)', handlers.length);

	stored.parameters = { ...stored.parameters, events: ['item.updated'], customEventTypes: '' };
	await harness.deactivate(stored);
	await harness.activate(stored);
	await expectOnePerType(stored, ['item.updated']);
	expect(await harness.handlers()).toHaveLength(1);
});

test('an unknown handler counts as removed where its answer proves it; a bare success: false proves nothing', async () => {
	for (const removeUnknown of [404, 'success-false']) {
		await harness.admin('POST', '/reset');
		await harness.admin('POST', '/config', { removeUnknown });
		const stored = workflow(`wf-unknown-${removeUnknown}`);
		await harness.activate(stored);
		const handlers = await harness.handlers();
		for (const handler of handlers) {
			await fetch(`${sandbox.baseUrl}/webhook/remove_handler`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${sandbox.demoToken}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ _id: handler._id }),
			});
		}
		// A 404 proves the handler unknown only as the answer the publish learnt for an id the service
		// cannot know, unlike the answer of the path beside it (issue 58): a service whose errors are
		// web pages gives nothing to learn, and the handlers stay recorded
		// (test/trigger/removal.notFound.test.js, removal.proof.test.js). A bare success: false says
		// neither "removed" nor "unknown" (issue 51).
		const unproven =
			REMOVABLE && (removeUnknown === 'success-false' || answers.errorBodies === 'html');
		expect(await harness.deactivate(stored)).toBe(!unproven);
		expect(harness.staticState(stored.staticData).leftovers).toHaveLength(
			unproven ? handlers.length : 0,
		);
	}
});

test('an add_handler answer that is not an object fails the activation naming it, and removes what was added', async () => {
	failNthCall(ADD_ROUTE, 2, { status: 200, body: 'created' });
	const stored = workflow('wf-add-text', THREE_TYPES);
	const error = await harness.activate(stored).catch((caught) => caught);
	expect(error.cause.errorResponse).toMatchObject({
		outcome: 'unreadable',
		changeApplied: 'probably',
		unexpectedAnswer: 'text "created" where an object was expected',
	});
	if (REMOVABLE) expect(await harness.handlers()).toEqual([]);
});

// The same answers as Webhook Handler -> Remove reads (test/transport/answers.shapes.test.js), read
// in one place.
test('remove_handler answers read as the Remove operation reads them: a bare false and a reason are both kept', async () => {
	if (!REMOVABLE) return;
	const stored = workflow('wf-remove-answers', ['order.shipped']);
	await harness.activate(stored);
	const [handler] = await harness.handlers();
	harness.warnings.length = 0;
	// Not proof of gone (issue 51): the service may not know the handler, or may have kept it.
	await harness.admin('POST', '/faults', {
		route: REMOVE_ROUTE,
		count: 1,
		status: 200,
		body: { success: false },
	});
	expect(await harness.deactivate(stored)).toBe(false);
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([
		handler._id,
	]);
	expect(harness.warnings.join('\n')).toContain(
		`could not remove the webhook handler "${handler.name}" (id ${handler._id}, event type order.shipped, URL ${harness.webhookUrl(stored, false)}). `,
	);

	// The fault answered in the service's place, so the first handler is still there: the next
	// publish removes it.
	await harness.activate(stored);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
	const second = (await harness.handlers()).find((other) => other._id !== handler._id);
	harness.warnings.length = 0;
	await harness.admin('POST', '/faults', {
		route: REMOVE_ROUTE,
		count: 1,
		status: 200,
		body: { success: false, message: 'Handler is locked' },
	});
	expect(await harness.deactivate(stored)).toBe(false);
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toContain(
		second._id,
	);
	expect(harness.warnings.join('\n')).toContain('The service said: Handler is locked.');

	// An answer without success true or false: not counted as removed, kept for the next activation,
	// named.
	await harness.activate(stored);
	const third = (await harness.handlers()).find(
		(other) => ![handler._id, second._id].includes(other._id),
	);
	harness.warnings.length = 0;
	await harness.admin('POST', '/faults', {
		route: REMOVE_ROUTE,
		count: 1,
		status: 200,
		body: { done: 1 },
	});
	expect(await harness.deactivate(stored)).toBe(false);
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toContain(
		third._id,
	);
	expect(harness.warnings.join('\n')).toContain(
		'The service answered /webhook/remove_handler with an object with done, without success true or false',
	);
});

// Words never prove a handler gone (issue 58): a refusal that says "not found" or "unknown" may be
// about anything else (a token, a store, a lock), and the service's answer to an id it does not
// know, learnt at publish, is no such refusal. The handler stays recorded, the log names it, and
// the next publish, the service answering for itself, removes it.
test.each([
	'Handler not found',
	'Handler notfound',
	'handler not_found',
	'Handler not-found',
	'Unknown handler',
	'No such handler',
	'Handler does not exist',
])(
	'remove_handler refusing with "%s": no proof the handler is gone, so it is kept, logged, and removed at the next publish',
	async (message) => {
		if (!REMOVABLE) return;
		const stored = workflow(`wf-remove-unknown-${message.replace(/\W+/g, '-')}`, ['order.shipped']);
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		await harness.admin('POST', '/faults', {
			route: REMOVE_ROUTE,
			count: 1,
			status: 200,
			body: { success: false, message },
		});
		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(false);
		expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([
			handler._id,
		]);
		const about = harness.warnings.filter((warning) =>
			warning.includes(`(id ${handler._id}, event type order.shipped, `),
		);
		expect(about).toHaveLength(1);
		expect(about[0]).toContain(`The service said: ${message}.`);

		// The fault answered in the service's place: the handler is still there, and the next publish
		// removes it.
		await harness.activate(stored);
		expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
		expect((await harness.handlers()).map((left) => left._id)).not.toContain(handler._id);
		expect(await harness.handlers()).toHaveLength(1);
	},
);

test('test listening while published: the production handlers survive', async () => {
	// copy: the test starts from the production static data; legacy: a WebhookContext without
	// getWebhookResourceUrl.
	for (const [copy, legacy] of [
		[false, false],
		[true, false],
		[false, true],
		[true, true],
	]) {
		await harness.admin('POST', '/reset');
		harness.runs.length = 0;
		harness.useLegacyWebhookContext(legacy);
		const stored = workflow(`wf-published-${copy}`);
		await harness.activate(stored);
		const production = idsOf(await harness.handlers());
		// The whole record: deliveries never write static data, so only the lifecycle can change it.
		const productionRecord = () => JSON.stringify(harness.staticState(stored.staticData));
		const productionState = productionRecord();

		const test = await harness.listenForTest(stored, { copy });
		expect(await harness.handlers()).toHaveLength(6);
		await expectOnePerType(stored, THREE_TYPES, true);
		await expectOnePerType(stored, THREE_TYPES, false);

		await harness.emit('order.shipped', { order_number: '1001' });
		expect(
			harness.runs
				.filter((run) => run.workflowId === stored.id)
				.map((run) => run.test)
				.sort(),
		).toEqual([false, true]);

		expect(await harness.stopTest(stored, test)).toBe(true);
		const left = await expectOnePerType(stored, THREE_TYPES, false);
		expect(idsOf(left)).toEqual(production);
		// The test handlers go with the listener, unless the service gave them no id.
		expect(await harness.handlers()).toHaveLength(REMOVABLE ? 3 : 6);
		expect(productionRecord()).toBe(productionState);

		harness.runs.length = 0;
		await harness.emit('order.shipped', { order_number: '1002' });
		expect(harness.runs).toHaveLength(1);
		expect(harness.runs[0].test).toBe(false);
		sequences.record(
			`test listening while published (test static data ${copy ? 'copied' : 'empty'}${legacy ? ', older n8n webhook context' : ''})`,
			left.length,
		);
	}
	harness.useLegacyWebhookContext(false);
});

test('a test delivery is matched by the URL it arrived on; an older n8n, which cannot tell, refuses beside a second test registration', async () => {
	for (const legacy of [false, true]) {
		await harness.admin('POST', '/reset');
		harness.runs.length = 0;
		harness.useLegacyWebhookContext(legacy);
		const stored = workflow(`wf-two-tests-${legacy}`, ['order.shipped']);
		const test = await harness.listenForTest(stored);
		// Static data is whatever was saved (an older version, a copy, a hand edit): here a second test
		// registration, of another URL and secret, after this listener's own.
		const { registrations } = harness.staticState(test.staticData);
		registrations['https://n8n.old.example/webhook-test/hook-x/webhook'] = {
			kind: 'test',
			secret: 'e'.repeat(64),
			handlers: [],
		};

		const { event_id: eventId } = await harness.emit('order.shipped', { order_number: '1001' });
		// Without the served URL, guessing one of the two could accept a delivery meant for the other:
		// refused.
		expect((await harness.deliveries(eventId)).map((delivery) => delivery.status)).toEqual([
			legacy ? 401 : 200,
		]);
		expect(harness.runs).toHaveLength(legacy ? 0 : 1);
		await harness.stopTest(stored, test);
	}
	harness.useLegacyWebhookContext(false);
});

test('add_handler answering without _id: activation works, the handler is reported as unremovable', async () => {
	await harness.admin('POST', '/config', { addHandlerReturnsId: false });
	const stored = workflow('wf-no-id', ['order.shipped']);
	await harness.activate(stored);
	expect(await harness.handlers()).toHaveLength(1);
	expect(harness.warnings.join('\n')).toContain('This trigger cannot remove the webhook handler');

	await harness.emit('order.shipped', { order_number: '7' });
	expect(harness.runs).toHaveLength(1);
	expect(harness.runs[0].items[0].warnings[0]).toContain('(no id, event type order.shipped, URL ');
	const afterActivate = (await harness.handlers()).length;

	const warningsBefore = harness.warnings.length;
	await harness.deactivate(stored);
	const afterDeactivate = (await harness.handlers()).length;
	expect(afterDeactivate).toBe(1);
	// Told again when it is left behind; not kept in static data, since nothing could ever remove it.
	expect(harness.warnings.slice(warningsBefore).join('\n')).toContain(
		'To remove it by hand, find it by its name in Inventory Ops and remove it there.',
	);
	expect(harness.staticState(stored.staticData)).toEqual({ registrations: {}, leftovers: [] });

	// Reactivated, the service now holds the old handler too; it still carries the old secret, so one
	// run per event.
	await harness.activate(stored);
	const afterReactivate = (await harness.handlers()).length;
	expect(afterReactivate).toBe(2);
	harness.runs.length = 0;
	const { event_id: eventId } = await harness.emit('order.shipped', { order_number: '8' });
	expect(harness.runs).toHaveLength(1);
	// The item warns about this activation's handler; the earlier one was reported when it was left
	// behind.
	expect(harness.runs[0].items[0].warnings).toHaveLength(1);
	const statuses = (await harness.deliveries(eventId)).map((delivery) => delivery.status).sort();
	expect(statuses).toEqual([200, 401]);
	sequences.record('add_handler without _id: after activate', afterActivate);
	sequences.record(
		'add_handler without _id: after deactivate (unremovable, reported)',
		afterDeactivate,
	);
	sequences.record(
		'add_handler without _id: after reactivate (old one refused with 401)',
		afterReactivate,
	);
});
