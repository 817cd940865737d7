// Every doubt reaches the user (issue 47): when a call that changes data fails in a way that leaves
// open whether the service applied it, the error's reading says so (changeApplied: 'maybe'), at
// publish, in the action node, for every kind of such failure; a trigger's publish error and log
// line have only a message, which carries the doubt as render.ts words it (its words:
// test/transport/render.test.js). A publish also names the handler that may now exist without an
// id. Everything over real HTTP against the sandbox.
const path = require('node:path');

const { useInventoryOps } = require('../helpers/inventoryOps');
const { useTriggerHarness } = require('./helpers/setup');

const [doubt] = require(
	path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/render.js'),
).doubtsOf({ applied: 'maybe' });

const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const SHORT_TIMEOUT_MS = 300;

/**
 * Each kind of failure that leaves the change open: its sandbox fault and reading; a time-out also
 * shortens the wait.
 */
const KINDS = {
	'lost connection': {
		fault: { drop: 'after' },
		reading: { outcome: 'noAnswer', timedOut: false },
	},
	'time-out': {
		fault: { delayMs: 1500 },
		timeout: true,
		reading: { outcome: 'noAnswer', timedOut: true },
	},
	'5xx': { fault: { status: 500 }, reading: { outcome: 'failed', statusCode: 500 } },
	'gateway page': {
		fault: {
			status: 502,
			body: '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>',
		},
		reading: { outcome: 'failed', statusCode: 502 },
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
	const { fault, timeout, reading } = KINDS[kind];

	test('at publish: the message keeps the advice and names the handler that may now exist, with how to remove it', async () => {
		if (timeout) shortenTimeouts();
		const stored = harness.storedWorkflow({
			id: `wf-doubt-add-${kind.replace(/\W/g, '')}`,
			name: 'Doubts',
			parameters: {
				events: ['shipment.voided', 'order.shipped'],
				customEventTypes: '',
				options: {},
			},
		});
		await harness.admin('POST', '/faults', { route: ADD_ROUTE, count: 1, ...fault });
		const error = await harness.activate(stored).then(
			() => undefined,
			(thrown) => thrown,
		);
		expect(error.message).toMatch(
			/^Publishing failed at the webhook handler for "shipment\.voided" \(1 of 2\)\. /,
		);
		expect(error.cause.errorResponse).toMatchObject({ ...reading, changeApplied: 'maybe' });
		expect(error.message).toContain(` ${doubt} `);
		expect(error.message).toContain(
			`The failed add may have created its handler all the same. This trigger cannot remove the webhook handler "n8n: Doubts (workflow ${stored.id}) - shipment.voided" (no id, event type shipment.voided, URL ${harness.webhookUrl(stored, false)}). To remove it by hand, find it by its name in Inventory Ops and remove it there.`,
		);
		expect((await harness.admin('GET', `/calls?route=${ADD_ROUTE}`)).calls).toHaveLength(1);
	});

	test('at unpublish: the log line keeps the advice, with the ids kept for the next publish', async () => {
		const stored = harness.storedWorkflow({
			id: `wf-doubt-remove-${kind.replace(/\W/g, '')}`,
			name: 'Doubts',
			parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
		});
		await harness.activate(stored);
		const [handler] = await harness.handlers();
		if (timeout) shortenTimeouts();
		await harness.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 10, ...fault });
		harness.warnings.length = 0;
		expect(await harness.deactivate(stored)).toBe(false);
		const lines = harness.warnings.filter((text) =>
			text.startsWith('Inventory Ops Trigger: unpublishing could not remove'),
		);
		expect(lines).toHaveLength(1);
		const [warning] = lines;
		expect(warning).toContain(
			`the webhook handler "${handler.name}" (id ${handler._id}, event type order.shipped, URL `,
		);
		expect(warning).toContain(` ${doubt} `);
		expect(harness.staticState(stored.staticData).leftovers.map((record) => record.id)).toEqual([
			handler._id,
		]);
	});
});

describe('in the action node', () => {
	const ctx = useInventoryOps({ orders: 5 });
	const add = {
		resource: 'webhookHandler',
		operation: 'add',
		eventType: 'order.shipped',
		name: 'Doubt',
		url: 'https://example.com/hook',
		options: {},
	};

	test.each(Object.keys(KINDS))(
		'%s: Webhook Handler → Add fails, the change maybe applied',
		async (kind) => {
			const { fault, timeout, reading } = KINDS[kind];
			await ctx.sandbox.fault({ route: ADD_ROUTE, count: 1, ...fault });
			const result = await ctx.run(
				timeout ? { ...add, options: { timeout: SHORT_TIMEOUT_MS } } : add,
			);
			expect(result.error.errorResponse).toMatchObject({ ...reading, changeApplied: 'maybe' });
			expect(await ctx.sandbox.calls(ADD_ROUTE)).toHaveLength(1);
		},
	);
});
