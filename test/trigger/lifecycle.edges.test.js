// Lifecycle paths no other test reached (found by the mutation run, mutation/README.md): each test
// says which line of trigger/lifecycle.ts it guards. Counted in the sandbox's handler table, over
// real HTTP.
const { answers } = require('../helpers/profile');
const { addHandlerAsClient } = require('../helpers/sandbox');
const { useTriggerHarness } = require('./helpers/setup');

// Whether the profile's service returns the new handler's id: without one nothing can remove a
// handler.
const REMOVABLE = answers.addHandlerId !== 'none';
const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const STATIC_KEY = 'node:Inventory Ops Trigger';

const context = useTriggerHarness({ fakeSleep: true });
let harness;
let sandbox;
beforeEach(() => ({ harness, sandbox } = context));

function workflow(id, events, extra = {}) {
	return harness.storedWorkflow({
		id,
		name: `Edges ${id}`,
		parameters: { events, customEventTypes: '', options: {}, ...extra },
	});
}

const typesOf = (handlers) => handlers.map((handler) => handler.type).sort();
const calls = async (route) => (await harness.admin('GET', `/calls?route=${route}`)).calls;
const failure = (promise) =>
	promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(error) => error,
	);

/** The service fails the n-th call of `route` from now on (counted as the trigger sends them). */
function failNthCall(route, n, fault = { status: 500 }) {
	let seen = 0;
	return async (options) => {
		if (!String(options.url).endsWith(route.replace('/api', ''))) return;
		seen += 1;
		if (seen === n) await harness.admin('POST', '/faults', { route, count: 1, ...fault });
	};
}

// registerHandlers: `if (types.length === 0) throw ...`
test('no event type selected: the activation is refused, naming Events, and nothing is added', async () => {
	const stored = workflow('wf-none', []);
	const error = await failure(harness.activate(stored));
	expect(error.message).toBe('Events: select at least one event or enter a custom event type');
	expect(await calls(ADD_ROUTE)).toHaveLength(0);
	expect(await harness.handlers()).toHaveLength(0);
});

// lifecycle.ts, the selection: a custom type that is not an event type fails the activation, naming
// it, before any call
test('custom event types: an invalid one is named and nothing is added; commas and new lines both separate', async () => {
	const refused = workflow('wf-custom-bad', [], {
		customEventTypes: 'order.created, order shipped\nitem..x',
	});
	const error = await failure(harness.activate(refused));
	expect(error.message).toBe('Custom Event Types: "order shipped", "item..x" are not event types');
	expect(error.description).toContain('Separate several types with commas.');
	expect(await calls(ADD_ROUTE)).toHaveLength(0);

	const stored = workflow('wf-custom-ok', ['order.shipped'], {
		customEventTypes: ' order.created ,\n\norder.shipped',
	});
	await harness.activate(stored);
	expect(typesOf((await calls(ADD_ROUTE)).map((call) => call.body))).toEqual([
		'order.created',
		'order.shipped',
	]);
});

// recordedHandlersMatchSelection: `held.size === selected.length && ...` (the stored types a
// superset of the selection)
test('a narrower selection is not "already registered": the next activation adds only the types still selected', async () => {
	const stored = workflow('wf-narrow', ['order.shipped', 'item.inventory', 'shipment.created']);
	await harness.activate(stored);
	stored.parameters = { ...stored.parameters, events: ['order.shipped', 'item.inventory'] };
	await harness.activate(stored);

	expect(typesOf((await calls(ADD_ROUTE)).map((call) => call.body))).toEqual(
		[
			'item.inventory',
			'item.inventory',
			'order.shipped',
			'order.shipped',
			'shipment.created',
		].sort(),
	);
	const registration = harness.staticState(stored.staticData).registrations[
		harness.webhookUrl(stored, false)
	];
	expect(typesOf(registration.handlers)).toEqual(['item.inventory', 'order.shipped']);
	if (REMOVABLE)
		expect(typesOf(await harness.handlers())).toEqual(['item.inventory', 'order.shipped']);
});

// handlerName: `n8n: <workflow> (workflow <id>) - <type>`, and ` [test]` only for a test
// registration
test('handler names say workflow, id and type; a listen-for-test handler is marked [test], a published one is not', async () => {
	const stored = workflow('wf-names', ['order.shipped']);
	await harness.activate(stored);
	const registration = await harness.listenForTest(stored);

	const names = (await harness.handlers()).map((handler) => handler.name).sort();
	expect(names).toEqual([
		'n8n: Edges wf-names (workflow wf-names) - order.shipped',
		'n8n: Edges wf-names (workflow wf-names) - order.shipped [test]',
	]);
	await harness.stopTest(stored, registration);
});

// removeHandlers: `takeHandlers(state, registration.kind, url)`, the registration's handlers and
// the leftovers of its kind only
test('deactivation also removes the handlers an earlier failed removal left recorded, of its own kind only', async () => {
	const stored = workflow('wf-leftovers', ['order.shipped']);
	await harness.activate(stored);
	const url = harness.webhookUrl(stored, false);
	const add = (type, at) =>
		addHandlerAsClient(sandbox, { type, name: `left ${type}`, handler: { url: at } });
	const productionLeftover = await add('item.updated', url);
	const testLeftover = await add('item.inventory', harness.webhookUrl(stored, true));
	// As an earlier activation whose removals failed leaves them in the static data
	// (trigger/state.ts).
	const record = (id, type, kind) => ({ type, id, name: `left ${type}`, url, kind });
	stored.staticData[STATIC_KEY].inventoryOpsTrigger.leftovers = [
		record(productionLeftover, 'item.updated', 'production'),
		record(testLeftover, 'item.inventory', 'test'),
	];

	expect(await harness.deactivate(stored)).toBe(true);
	const removed = (await calls(REMOVE_ROUTE)).map((call) => call.body._id);
	expect(removed).toContain(productionLeftover);
	expect(removed).not.toContain(testLeftover);
	const left = await harness.handlers();
	expect(left.map((handler) => handler._id)).toContain(testLeftover);
	expect(left.map((handler) => handler._id)).not.toContain(productionLeftover);
	expect(harness.staticState(stored.staticData).leftovers.map((leftover) => leftover.id)).toEqual([
		testLeftover,
	]);
});

// registerHandlers' rollback: its `failures` kept as leftovers and named in the error
test('a rollback whose removal fails: the error names the handler it could not remove', async () => {
	const stored = workflow('wf-rollback', ['order.shipped', 'item.inventory']);
	const failAdd = failNthCall(ADD_ROUTE, 2);
	const failRemove = failNthCall(REMOVE_ROUTE, 1);
	harness.beforeRequest(async (options) => {
		await failAdd(options);
		await failRemove(options);
	});

	const error = await failure(harness.activate(stored));
	expect(error.message).toMatch(
		/^Publishing failed at the webhook handler for "item\.inventory" \(2 of 2\)\. /,
	);
	if (REMOVABLE) {
		const [left] = await harness.handlers();
		const handler = `"${left.name}" (id ${left._id}, event type order.shipped, URL ${left.handler.url})`;
		expect(error.message).toContain(
			`Handlers added before it and removed again: 0 of 1. The webhook handler ${handler} could not be removed. `,
		);
		// The service's answer to the removal (its words, or what a gateway's page says), then what to
		// do.
		expect(error.message).toMatch(
			/could not be removed\. [^]*\/webhook\/remove_handler\.[^]* To remove it by hand, run the Inventory Ops node's Webhook Handler → Remove with ID \S+, or find it by its name in Inventory Ops and remove it there\. /,
		);
		// Kept as a leftover, and logged as one (its first try).
		expect(harness.warnings).toContainEqual(
			expect.stringMatching(
				new RegExp(
					`^Inventory Ops Trigger: publishing failed, and the webhook handler "[^"]+" \\(id ${left._id}, event type order\.shipped, URL [^)]+\\) it had added could not be removed\\. [^]* \\(tried 1 time\\(s\\) since `,
				),
			),
		);
	} else {
		expect(error.message).toContain(
			'Handlers added before it and removed again: 0 of 1. This trigger cannot remove the webhook handler "',
		);
	}
});

// registerHandlers' rollback: every handler it could not remove, in the order added, each with its
// id and type
test('a rollback that can remove none of two handlers: the error names both, with their ids and types', async () => {
	if (!REMOVABLE) return;
	const stored = workflow('wf-rollback-two', [
		'order.shipped',
		'item.inventory',
		'shipment.created',
	]);
	const failAdd = failNthCall(ADD_ROUTE, 3);
	harness.beforeRequest(async (options) => {
		await failAdd(options);
		if (String(options.url).endsWith('/webhook/remove_handler'))
			await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 1, status: 400 });
	});

	const error = await failure(harness.activate(stored));
	const byType = Object.fromEntries(
		(await harness.handlers()).map((handler) => [handler.type, handler._id]),
	);
	expect(error.message).toMatch(
		new RegExp(
			`Handlers added before it and removed again: 0 of 2\\. The webhook handler "[^"]+" \\(id ${byType['order.shipped']}, event type order\\.shipped, [^]* The webhook handler "[^"]+" \\(id ${byType['item.inventory']}, event type item\\.inventory, `,
		),
	);
});

// registerHandlers' rollback: `removeOrKeep` writes the state before the throw. n8n 2.x keeps the
// static data of a failed attempt and runs create again (workflow-trigger-activator.js); 1.x drops
// it, as harness.activate does.
test('a rollback whose removal fails, on n8n 2.x: the handler is kept, and the next attempt removes it before adding', async () => {
	if (!REMOVABLE) return;
	const stored = workflow('wf-rollback-2x', ['order.shipped', 'item.inventory']);
	const failAdd = failNthCall(ADD_ROUTE, 2);
	const failRemove = failNthCall(REMOVE_ROUTE, 1);
	harness.beforeRequest(async (options) => {
		await failAdd(options);
		await failRemove(options);
	});

	await failure(harness.activateAs2x(stored));
	const [left] = await harness.handlers();
	expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([
		left._id,
	]);

	await harness.activateAs2x(stored);
	expect((await calls(REMOVE_ROUTE)).map((call) => call.body._id)).toEqual([left._id, left._id]);
	expect(typesOf(await harness.handlers())).toEqual(['item.inventory', 'order.shipped']);
	expect(harness.staticState(stored.staticData).leftovers).toEqual([]);
});

// registerHandlers with records the service gave no id for: the log names each one, once as left
// from before and once as just added, with the whole notice (the same words every emitted event
// carries), after the warning about the local webhook URL.
test('a re-registration over a handler without an id: the log names it as left behind, and the new one too', async () => {
	await harness.admin('POST', '/config', { addHandlerId: 'none' });
	const stored = workflow('wf-no-id', ['order.shipped']);
	await harness.activate(stored);
	harness.warnings.length = 0;
	await harness.createOnly(stored);
	const url = harness.webhookUrl(stored, false);
	const notice = `This trigger cannot remove the webhook handler "n8n: Edges wf-no-id (workflow wf-no-id) - order.shipped" (no id, event type order.shipped, URL ${url}). To remove it by hand, find it by its name in Inventory Ops and remove it there.`;
	expect(harness.warnings).toEqual([notice, notice]);
	expect(await harness.handlers()).toHaveLength(2);
});
