// docs/service-interface.md, "Every request the package sends": one row per request, who sends it, and whether it may
// change data. This test sends every kind of request the package makes (a user's run of each operation, a publish
// and an unpublish of the trigger, the credential test, each reaching the requests it sends only after certain
// answers), collects what the sandbox received, and fails when a request has no row, a row names the wrong sender or
// change, an endpoint of transport/endpoints.ts has no row, or a row was never sent.
const fs = require('node:fs');
const path = require('node:path');

const { credentialTester } = require('../helpers/engine');
const { useInventoryOps } = require('../helpers/inventoryOps');
const { createTriggerHarness } = require('../trigger/helpers/harness');

const { ENDPOINTS } = require(path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/endpoints.js'));

const DOC = path.resolve(__dirname, '../../docs/service-interface.md');
const BASES = { '/api': '{Base URL}', '/s': '{App Base URL}' };

/** The table's rows: `POST {Base URL}/…` -> { sentBy, changesData }. */
function tableRows() {
	const text = fs.readFileSync(DOC, 'utf8');
	const section = text.slice(text.indexOf('## Every request the package sends'));
	const rows = section.split('\n').filter((line) => line.startsWith('| `POST '));
	return Object.fromEntries(
		rows.map((line) => {
			const [request, sentBy, changes] = line.split('|').slice(1, 4).map((cell) => cell.trim());
			return [request.replace(/`/g, ''), { sentBy, changesData: /^yes\b/.test(changes) }];
		}),
	);
}

/** A route the sandbox saw, as the table writes it. */
const asRow = (route) => {
	const [, prefix, rest] = /^(\/api|\/s)(\/.*)$/.exec(route);
	return `POST ${BASES[prefix]}${rest}`;
};

const ctx = useInventoryOps({ orders: 50 });
const seen = {}; // row -> Set of senders
async function record(sender, send) {
	const before = (await ctx.sandbox.calls()).length;
	await send();
	for (const { route } of (await ctx.sandbox.calls()).slice(before)) (seen[asRow(route)] ??= new Set()).add(sender);
}

beforeAll(async () => {
	await ctx.sandbox.reset();
	await ctx.sandbox.config({ removeUnknown: 404, unknownPaths: 'plain', addHandlerId: 'top' });
	const run = (parameters) => ctx.run(parameters, { continueOnFail: true });
	await record("a user's run", async () => {
		await run({ resource: 'order', operation: 'lookUp', lookUpBy: 'storeAndOrderNumber', storeId: '1001', orderNumber: '1000' });
		await run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-TABLE-1' });
		await run({ resource: 'shipment', operation: 'restoreInventory', storeId: '1001', orderNumber: '1000', trackingNumber: 'T-NONE' });
		await run({ resource: 'webhookHandler', operation: 'add', eventType: 'order.shipped', name: 'Table', url: 'https://example.com/h' });
		// An unknown id: the 404 is read beside the path nothing serves.
		await run({ resource: 'webhookHandler', operation: 'remove', handlerId: '000000000000000000000000' });
	});
	const testCredential = credentialTester();
	await record('the credential test', async () => {
		await testCredential(ctx.sandbox.credentials());
		// A lookup refused: compared with the path beside it.
		await ctx.sandbox.fault({ route: '/api/order/get_single_bulk', count: 1, status: 404, body: { error: { message: 'no orders' } } });
		await testCredential(ctx.sandbox.credentials());
	});
	const harness = await createTriggerHarness({ sandbox: ctx.sandbox.server });
	try {
		const stored = harness.storedWorkflow({ id: 'wf-table', name: 'Table', parameters: { events: ['order.shipped'], customEventTypes: '', options: {} } });
		await record('a publish', () => harness.activate(stored));
		// Gone already (removed behind the trigger's back): the unpublish's 404 is read beside the path nothing serves.
		const [handler] = (await ctx.sandbox.handlers()).filter((candidate) => candidate.name.includes('wf-table'));
		await fetch(`${ctx.sandbox.baseUrl}/webhook/remove_handler`, {
			method: 'POST',
			headers: { authorization: `Bearer ${ctx.sandbox.demoToken}`, 'content-type': 'application/json' },
			body: JSON.stringify({ _id: handler._id }),
		});
		await record('an unpublish', () => harness.deactivate(stored));
	} finally {
		await harness.close();
	}
});

const SENDER_WORDS = { "a user's run": "a user's run", 'the credential test': 'the credential test', 'a publish': 'a publish', 'an unpublish': 'an unpublish' };

test('every request sent has a row, which names who sent it', () => {
	const rows = tableRows();
	for (const [request, senders] of Object.entries(seen)) {
		expect({ request, row: rows[request] !== undefined }).toEqual({ request, row: true });
		for (const sender of senders) expect({ request, sentBy: rows[request].sentBy }).toEqual({ request, sentBy: expect.stringContaining(SENDER_WORDS[sender]) });
	}
});

test('every endpoint has its row, saying whether it may change data; every path beside one changes nothing', () => {
	const rows = tableRows();
	const endpointRows = Object.values(ENDPOINTS).map(({ base, path: route, changesData }) => [
		`POST ${base === 'baseUrl' ? '{Base URL}' : '{App Base URL}'}${route}`,
		changesData,
	]);
	for (const [request, changesData] of endpointRows) expect({ request, changesData: rows[request]?.changesData }).toEqual({ request, changesData });
	const others = Object.keys(rows).filter((request) => !endpointRows.some(([row]) => row === request));
	for (const request of others) {
		expect(request).toMatch(/\/no-such-operation-n8n-path-check$/);
		expect(rows[request].changesData).toBe(false);
	}
});

test('every row was sent by this test: the table lists nothing the package no longer sends', () => {
	expect(Object.keys(seen).sort()).toEqual(Object.keys(tableRows()).sort());
});
