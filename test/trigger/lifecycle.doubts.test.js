// Every doubt reaches the user (issue 47): when a call that changes data fails in a way that leaves open whether the
// service applied it, the transport's advice (it may or may not have been applied, what to check) is in the message
// that both n8n lines show (1.x shows a NodeApiError's description, 2.x the message; a trigger's error and log line
// have only a message), at publish, at unpublish and in the action node, for every kind of such failure. A publish
// also names the handler that may now exist without an id. Everything over real HTTP against the sandbox.
const { useInventoryOps } = require('../helpers/inventoryOps');
const { useTriggerHarness } = require('./helpers/setup');

const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const SHORT_TIMEOUT_MS = 300;

/** Each kind of failure that leaves the change open, as a sandbox fault; a time-out also shortens the client's wait. */
const KINDS = {
	'lost connection': { fault: { drop: 'after' }, doubt: 'The service may or may not have applied this change, so it was not sent again: check the service before trying again.' },
	'time-out': { fault: { delayMs: 1500 }, timeout: true, doubt: 'The service may or may not have applied this change, so it was not sent again: check the service before trying again.' },
	'5xx': { fault: { status: 500 }, doubt: 'The service may or may not have applied this change, so it was not sent again: check the service before trying again.' },
	'gateway page': {
		fault: { status: 502, body: '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>' },
		doubt: 'The service may or may not have applied this change, so it was not sent again: check the service before trying again.',
	},
};

const context = useTriggerHarness({ fakeSleep: true });
let harness;
beforeEach(async () => {
	({ harness } = context);
	// Ids at the top, so that unpublishing has handlers to remove under every profile.
	await harness.admin('POST', '/config', { addHandlerId: 'top' });
});

function shortenTimeouts() {
	harness.beforeRequest(async (options) => {
		options.timeout = SHORT_TIMEOUT_MS;
	});
}

describe.each(Object.keys(KINDS))('%s', (kind) => {
	const { fault, timeout, doubt } = KINDS[kind];

	test('at publish: the message keeps the advice and names the handler that may now exist, with how to remove it', async () => {
		if (timeout) shortenTimeouts();
		const stored = harness.storedWorkflow({ id: `wf-doubt-add-${kind.replace(/\W/g, '')}`, name: 'Doubts', parameters: { events: ['shipment.voided', 'order.shipped'], customEventTypes: '', options: {} } });
		await harness.admin('POST', '/faults', { route: ADD_ROUTE, count: 1, ...fault });
		const error = await harness.activate(stored).then(() => undefined, (thrown) => thrown);
		expect(error.message).toMatch(/^Publishing failed at the webhook handler for "shipment\.voided" \(1 of 2\)\. /);
		expect(error.message).toContain(` ${doubt} `);
		if (timeout) expect(error.message).toContain('The service did not answer /webhook/add_handler in time.');
		expect(error.message).toContain(
			`The webhook handler "n8n: Doubts (workflow ${stored.id}) - shipment.voided" (event type shipment.voided) may have been created all the same, and this trigger has no id to remove it: find it in Inventory Ops by that name and remove it there, or with the Inventory Ops node's Webhook Handler → Remove and its ID.`,
		);
		expect((await harness.admin('GET', `/calls?route=${ADD_ROUTE}`)).calls).toHaveLength(1);
	});

	test('at unpublish: the log line keeps the advice, with the ids kept for the next publish', async () => {
		const stored = harness.storedWorkflow({ id: `wf-doubt-remove-${kind.replace(/\W/g, '')}`, name: 'Doubts', parameters: { events: ['order.shipped'], customEventTypes: '', options: {} } });
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		if (timeout) shortenTimeouts();
		await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 10, ...fault });
		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(false);
		const lines = harness.warnings.filter((text) => text.startsWith('Inventory Ops Trigger: unpublishing could not remove'));
		expect(lines).toHaveLength(1);
		const [warning] = lines;
		expect(warning).toContain(`the webhook handler ${handler._id} (event type order.shipped, URL `);
		expect(warning).toContain(` ${doubt} `);
		expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([handler._id]);
	});
});

describe('in the action node', () => {
	const ctx = useInventoryOps({ orders: 5 });
	const add = { resource: 'webhookHandler', operation: 'add', eventType: 'order.shipped', name: 'Doubt', url: 'https://example.com/hook', options: {} };

	test.each(Object.keys(KINDS))('%s: Webhook Handler → Add fails with the advice in its message and in its description', async (kind) => {
		const { fault, timeout, doubt } = KINDS[kind];
		await ctx.sandbox.fault({ route: ADD_ROUTE, count: 1, ...fault });
		const result = await ctx.run(timeout ? { ...add, options: { timeout: SHORT_TIMEOUT_MS } } : add);
		expect(result.error.message).toContain(doubt);
		expect(result.error.description).toContain(doubt);
		expect(await ctx.sandbox.calls(ADD_ROUTE)).toHaveLength(1);
	});
});
