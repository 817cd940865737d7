// What activation and deactivation tell the user and keep, where the mutation run found it
// unguarded (mutation/README.md): the wording of an activation error, the lines the trigger logs
// and what they carry, and the records kept in the static data for the next activation. Each test
// names the part of trigger/lifecycle.ts it guards; everything is counted at the sandbox, over real
// HTTP. The tests set the switches they depend on (POST /config), so they mean the same under every
// sandbox profile.
const { CREDENTIAL_ERRORS } = require('n8n-core');
const { NodeApiError, NodeOperationError } = require('n8n-workflow');

const { addHandlerAsClient } = require('../helpers/sandbox');
const { createTriggerHarness, NODE_NAME } = require('./helpers/harness');
const { useTriggerHarness } = require('./helpers/setup');

const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const STATIC_KEY = 'node:Inventory Ops Trigger';
const NO_ID_NOTICE = 'This trigger cannot remove the webhook handler';

const context = useTriggerHarness({ fakeSleep: true });
let harness;
let sandbox;
beforeEach(() => ({ harness, sandbox } = context));

function workflow(id, events, name = `Reports ${id}`) {
	return harness.storedWorkflow({
		id,
		name,
		parameters: { events, customEventTypes: '', options: {} },
	});
}

const calls = async (route) => (await harness.admin('GET', `/calls?route=${route}`)).calls;
const handlerIds = async () => (await harness.handlers()).map((handler) => handler._id).sort();
const failure = (promise) =>
	promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(error) => error,
	);

/** The service fails the n-th call of `route` from now on (counted as the trigger sends them). */
function failNthCall(route, n, fault) {
	let seen = 0;
	harness.beforeRequest(async (options) => {
		if (!String(options.url).endsWith(route.replace('/api', ''))) return;
		seen += 1;
		if (seen === n) await harness.admin('POST', '/faults', { route, count: 1, ...fault });
	});
}

/**
 * A second harness on the same sandbox (its own n8n instance settings or logger), closed after
 * `run`.
 */
async function withHarness(options, run) {
	const other = await createTriggerHarness({ sandbox, ...options });
	try {
		await run(other);
	} finally {
		await other.close();
	}
}

// userError, for a NodeOperationError of the transport: the same error, its message replaced by the
// whole report
test('a credential n8n cannot decrypt: activation fails with a node error naming the cause, its advice kept', async () => {
	// As after a change of n8n's encryption key: n8n-core's Credentials refuses to decrypt the stored
	// credential.
	harness.storeEncryptedCredential('encrypted with another instance key');
	const stored = workflow('wf-credential', ['order.shipped']);

	const error = await failure(harness.activate(stored));
	expect(error).toBeInstanceOf(NodeOperationError);
	expect(error.message).toBe(
		`Publishing failed at the webhook handler for "order.shipped" (1 of 1). Could not read the Inventory Ops API credential: ${CREDENTIAL_ERRORS.DECRYPTION_FAILED.replace(/\.$/, '')}. Nothing was sent to /webhook/add_handler. Check that the node has an Inventory Ops API credential, and that no expression reads an input item (publishing has none).`,
	);
	expect(error.description).toBe(
		'Check that the node has an Inventory Ops API credential, and that no expression reads an input item (publishing has none).',
	);
	expect(await calls(ADD_ROUTE)).toHaveLength(0);
});

// transport: the address check names no item in the trigger (an activation has none) and says
// nothing of expressions
test('a credential whose Base URL is empty: activation fails naming the field, and nothing is sent', async () => {
	harness.changeCredential({ baseUrl: '' });
	try {
		const error = await failure(harness.activate(workflow('wf-empty-base-url', ['order.shipped'])));
		expect(error.message).toBe(
			`Publishing failed at the webhook handler for "order.shipped" (1 of 1). The credential's Base URL is empty: nothing was sent to /webhook/add_handler. Set Base URL in the credential to the service's https:// (or http://) address, for example https://inventory.example.com/api.`,
		);
		expect(error.description).toBe(
			"Set Base URL in the credential to the service's https:// (or http://) address, for example https://inventory.example.com/api.",
		);
		expect(await calls(ADD_ROUTE)).toHaveLength(0);
	} finally {
		harness.changeCredential({});
	}
});

// userError, for a NodeApiError: wrapped in a NodeOperationError (n8n 1.x's toast would show a
// NodeApiError's description instead of its message), the transport's error kept as its cause
test('a service error that says nothing itself: the message gives what the node knows and quotes nothing; the transport error is the cause', async () => {
	const stored = workflow('wf-bare-error', ['order.shipped']);
	failNthCall(ADD_ROUTE, 1, { status: 422, body: {} });

	const error = await failure(harness.activate(stored));
	expect(error).toBeInstanceOf(NodeOperationError);
	expect(error.message).toMatch(
		/^Publishing failed at the webhook handler for "order\.shipped" \(1 of 1\)\. /,
	);
	expect(error.message).not.toContain('The service said');
	// Nothing was added before it, so nothing is said about removing.
	expect(error.message).not.toContain('removed');
	expect(error.cause).toBeInstanceOf(NodeApiError);
	expect(error.cause.httpCode).toBe('422');
	expect(error.cause.errorResponse).toMatchObject({
		outcome: 'refused',
		statusCode: 422,
		endpoint: '/webhook/add_handler',
	});
});

// registerHandlers' rollback: `withoutId`, the notice for each one and the joins of the description
test('a failed add after handlers the service gave no id: the error says none was removed and names each one left', async () => {
	await harness.admin('POST', '/config', {
		addHandlerId: 'none',
		errorBodies: 'spec',
		errorCodes: 'sandbox',
	});
	const stored = workflow('wf-rollback-no-id', [
		'order.shipped',
		'item.inventory',
		'shipment.created',
	]);
	failNthCall(ADD_ROUTE, 3, { status: 500 });

	const error = await failure(harness.activate(stored));
	const url = harness.webhookUrl(stored, false);
	const notice = (type) =>
		`This trigger cannot remove the webhook handler "n8n: Reports wf-rollback-no-id (workflow wf-rollback-no-id) - ${type}" (no id, event type ${type}, URL ${url}). ` +
		'To remove it by hand, find it by its name in Inventory Ops and remove it there.';
	const ours = `Handlers added before it and removed again: 0 of 2. ${notice('order.shipped')} ${notice('item.inventory')}`;
	// Our conclusion, then the service's words, then what was undone, each once, separated by one
	// space.
	expect(error.message).toMatch(
		/^Publishing failed at the webhook handler for "shipment\.created" \(3 of 3\)\. \S/,
	);
	// The transport's text (the doubt: the 500 may have added it), its code and trace id, in the
	// message.
	expect(error.cause.errorResponse).toMatchObject({ outcome: 'failed', changeApplied: 'maybe' });
	expect(error.message).toMatch(
		/\. The service said: Fault injected by the sandbox: 500\. [^]*The service's code: INTERNAL_ERROR\. Trace id: \S+\. Handlers added before/,
	);
	const mayExist = `The failed add may have created its handler all the same. ${notice('shipment.created')} Each publish uses a new secret, so the trigger refuses its deliveries meanwhile.`;
	expect(error.message.endsWith(` ${ours} ${mayExist}`)).toBe(true);
	// The transport's description (what to do, the service's code and trace id when sent) stays, for
	// the log.
	expect(error.description).toMatch(/Trace id: \S+\.$/);
	expect(error.description).toBe(error.cause.description);
	// Both stay on the service: nothing can remove them.
	expect((await harness.handlers()).map((handler) => handler.type).sort()).toEqual([
		'item.inventory',
		'order.shipped',
	]);
});

// removeHandlers' and registerHandlers' lines for leftovers (removal.ts keepOrDrop): one per
// handler, each with its id, event type, URL, the service's words, the limit and how to remove it
// by hand; the publish goes ahead (issue 51)
test("leftovers that still cannot be removed: the unpublish and the next publish log each one, with the service's words and how to remove it", async () => {
	await harness.admin('POST', '/config', {
		addHandlerId: 'top',
		errorBodies: 'spec',
		errorCodes: 'sandbox',
	});
	const stored = workflow('wf-stale', ['order.shipped', 'item.inventory']);
	await harness.activate(stored);
	const url = harness.webhookUrl(stored, false);
	const { handlers } = harness.staticState(stored.staticData).registrations[url];
	const [shippedId, inventoryId] = handlers.map((record) => record.id);
	const names = Object.fromEntries(handlers.map((record) => [record.id, record.name]));
	await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 100, status: 500 });
	// The call's own text (its words: render.test.js) between the handler and what the trigger does
	// about it.
	const rest = (id, tries) =>
		new RegExp(
			`^ [^]*The service said: Fault injected by the sandbox: 500\\. [^]*The service's code: INTERNAL_ERROR\\. Trace id: \\S+\\. It stays recorded and is tried again at every publish and unpublish, until it has had 10 tries over 30 days \\(tried ${tries} time\\(s\\) since 1970-01-01T00:00:07\\.000Z\\)\\. To remove it by hand, run the Inventory Ops node's Webhook Handler → Remove with ID ${id}, or find it by its name in Inventory Ops and remove it there\\.$`,
		);
	const expectLines = (lead, tries) => {
		const lines = harness.warnings;
		expect(lines).toHaveLength(2);
		for (const [index, [id, type]] of [
			[shippedId, 'order.shipped'],
			[inventoryId, 'item.inventory'],
		].entries()) {
			const start = `Inventory Ops Trigger: ${lead(`"${names[id]}" (id ${id}, event type ${type}, URL ${url})`)}`;
			expect(lines[index].slice(0, start.length)).toBe(start);
			expect(lines[index].slice(start.length)).toMatch(rest(id, tries));
		}
	};

	// First kept when the unpublish's last try failed, 7 s in (the fake clock, at 0 before).
	harness.warnings.length = 0;
	expect(await harness.deactivate(stored)).toBe(false);
	expectLines((handler) => `unpublishing could not remove the webhook handler ${handler}.`, 1);

	harness.warnings.length = 0;
	await harness.activate(stored);
	expectLines(
		(handler) =>
			`publishing goes ahead without removing the webhook handler ${handler}, which an earlier registration left.`,
		2,
	);
	expect(await calls(ADD_ROUTE)).toHaveLength(4);
	// The unpublish tried each one 4 times; the publish once each.
	expect(await calls(REMOVE_ROUTE)).toHaveLength(10);
	const { leftovers } = harness.staticState(stored.staticData);
	expect(leftovers).toEqual([
		{
			type: 'order.shipped',
			id: shippedId,
			name: expect.any(String),
			url,
			kind: 'production',
			tries: 2,
			keptSince: 7000,
		},
		{
			type: 'item.inventory',
			id: inventoryId,
			name: expect.any(String),
			url,
			kind: 'production',
			tries: 2,
			keptSince: 7000,
		},
	]);
});

// registerHandlers / removeHandlers: the "no id" notice only for records without an id (`record.id
// === undefined`)
test('handlers the service gave ids: no activation, re-registration or deactivation logs the "no id" notice', async () => {
	await harness.admin('POST', '/config', { addHandlerId: 'top' });
	const stored = workflow('wf-with-ids', ['order.shipped', 'item.inventory']);
	await harness.activate(stored);
	await harness.createOnly(stored); // removes the two recorded handlers, then adds two new ones
	expect(await harness.deactivate(stored)).toBe(true);

	expect(await harness.handlers()).toEqual([]);
	expect((await calls(REMOVE_ROUTE)).map((call) => call.status)).toEqual([200, 200, 200, 200]);
	expect(harness.warnings).toEqual([]);
});

// registerHandlers and removeHandlers: `{ workflowId: this.getWorkflow().id, node:
// this.getNode().name }` with each warning
test('the warnings about a handler without id (added, stale or unpublished) and a failed removal carry the workflow id and node name', async () => {
	const logged = [];
	const logger = {
		warn: (message, meta) => logged.push({ message, meta }),
		error() {},
		info() {},
		debug() {},
	};
	await withHarness({ logger }, async (recorded) => {
		await recorded.admin('POST', '/config', { addHandlerId: 'none' });
		const withoutIds = recorded.storedWorkflow({
			id: 'wf-meta-none',
			name: 'Meta none',
			parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
		});
		await recorded.activate(withoutIds);
		// Republished: the first handler is stale, and again one without id
		await recorded.createOnly(withoutIds);
		expect(await recorded.deactivate(withoutIds)).toBe(true);
		await recorded.admin('POST', '/config', { addHandlerId: 'top' });
		const withIds = recorded.storedWorkflow({
			id: 'wf-meta-ids',
			name: 'Meta ids',
			parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
		});
		await recorded.activate(withIds);
		await recorded.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 10, status: 500 });
		expect(await recorded.deactivate(withIds)).toBe(false);
	});

	const meta = (workflowId) => ({ workflowId, node: NODE_NAME });
	const find = (pattern) => logged.filter(({ message }) => pattern.test(message));
	// Added, left from the activation before, added again, and left at unpublishing: four notices,
	// each placed.
	expect(find(new RegExp(`^${NO_ID_NOTICE}`)).map((entry) => entry.meta)).toEqual(
		Array(4).fill(meta('wf-meta-none')),
	);
	expect(
		find(/^Inventory Ops Trigger: unpublishing could not remove the webhook handler /).map(
			(entry) => entry.meta,
		),
	).toEqual([meta('wf-meta-ids')]);
});

// registerHandlers: `if (warning)` warn about the webhook URL
test('a webhook URL at a public address: the handlers point there and nothing is logged about the address', async () => {
	await harness.admin('POST', '/config', { addHandlerId: 'top' });
	await withHarness({ webhookOrigin: 'https://n8n.example.com' }, async (published) => {
		const stored = published.storedWorkflow({
			id: 'wf-public',
			name: 'Public',
			parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
		});
		await published.activate(stored);
		expect((await published.handlers()).map((handler) => handler.handler.url)).toEqual([
			'https://n8n.example.com/webhook/hook-wf-public/webhook',
		]);
		// Not toEqual([]): it would take [undefined] (a warning with no text) for no warning.
		expect(published.warnings).toStrictEqual([]);
	});
});

// handlerName: `${name ?? 'workflow'} (workflow ${id ?? '?'})`
test('a workflow without a name or an id: its handler is named with "workflow" and "?" in their place', async () => {
	const stored = harness.storedWorkflow({
		id: undefined,
		name: undefined,
		parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
	});
	await harness.activate(stored);
	expect((await harness.handlers()).map((handler) => handler.name)).toEqual([
		'n8n: workflow (workflow ?) - order.shipped',
	]);
});

// recordedHandlersMatchSelection: only records of its own kind (`other.kind === kind`, `record.kind
// === kind`) count
test('a test registration or a test leftover in the static data does not make a published workflow register again', async () => {
	for (const [index, addOther] of [
		(record, testUrl) =>
			(record.registrations[testUrl] = { url: testUrl, kind: 'test', secret: 's', handlers: [] }),
		(record, testUrl) =>
			record.leftovers.push({
				type: 'order.shipped',
				url: testUrl,
				id: 'test-left',
				name: 'l',
				kind: 'test',
			}),
	].entries()) {
		await harness.admin('POST', '/reset');
		const stored = workflow(`wf-kinds-${index}`, ['order.shipped']);
		await harness.activate(stored);
		const before = await handlerIds();
		addOther(stored.staticData[STATIC_KEY].inventoryOpsTrigger, harness.webhookUrl(stored, true));

		await harness.activate(stored);
		expect(await calls(ADD_ROUTE)).toHaveLength(1);
		expect(await calls(REMOVE_ROUTE)).toHaveLength(0);
		expect(await handlerIds()).toEqual(before);
	}
});

// keepUnremoved: each leftover once, by id, or without one as the record it is.
test('leftovers of the other kind are each kept once: told apart by id, or without one as separate records', async () => {
	await harness.admin('POST', '/config', { addHandlerId: 'top' });
	const stored = workflow('wf-unique', ['order.shipped']);
	const testUrl = harness.webhookUrl(stored, true);
	const add = (name) =>
		addHandlerAsClient(sandbox, { type: 'order.shipped', name, handler: { url: testUrl } });
	const first = await add('left');
	const second = await add('left');
	// As an older version may have left them: two with ids that differ only there, two without an id.
	const leftover = (fields) => ({
		type: 'order.shipped',
		url: testUrl,
		name: 'left',
		kind: 'test',
		...fields,
	});
	const leftovers = [
		leftover({ id: first }),
		leftover({ id: second }),
		leftover({ name: 'left x' }),
		leftover({ name: 'left y' }),
	];
	stored.staticData = { [STATIC_KEY]: { inventoryOpsTrigger: { registrations: {}, leftovers } } };

	await harness.activate(stored);
	// Kept as they were, and (written before tries were counted) counting from now: none tried yet.
	expect(harness.staticState(stored.staticData).leftovers).toEqual(
		leftovers.map((record) => ({ ...record, tries: 0, keptSince: 0 })),
	);

	// The next listen-for-test activation (from these records) removes both with ids and names both
	// without.
	harness.warnings.length = 0;
	const registration = await harness.listenForTest(stored, { copy: true });
	expect((await calls(REMOVE_ROUTE)).map((call) => call.body._id).sort()).toEqual(
		[first, second].sort(),
	);
	const left = await handlerIds();
	expect(left).not.toContain(first);
	expect(left).not.toContain(second);
	const notices = harness.warnings.filter((warning) => warning.startsWith(NO_ID_NOTICE));
	expect(notices).toEqual([
		expect.stringContaining('"left x" (no id, event type order.shipped'),
		expect.stringContaining('"left y" (no id, event type order.shipped'),
	]);
	await harness.stopTest(stored, registration);
});
