// docs/service-interface.md, "Every request the package sends": one row per request, who sends it,
// and whether it may change data. This test sends every kind of request the package makes (a user's
// run of each operation, a publish and an unpublish of the trigger, the credential test, each
// reaching the requests it sends only after certain answers), collects what the sandbox received,
// and fails when a request has no row, a row names the wrong sender or change, an endpoint of
// transport/endpoints.ts has no row, or a row was never sent. A remove_handler for an id the
// service cannot know (issue 58: the trigger's probe, or the Remove operation sending the id it has
// just removed once more) has a row of its own; the path beside remove_handler is sent only after a
// remove_handler answer.
const fs = require('node:fs');
const path = require('node:path');

const { credentialTester } = require('../helpers/engine');
const { useInventoryOps } = require('../helpers/inventoryOps');
const { createTriggerHarness } = require('../trigger/helpers/harness');

const { ENDPOINTS } = require(
	path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/endpoints.js'),
);

const DOC = path.resolve(__dirname, '../../docs/service-interface.md');
const BASES = { '/api': '{Base URL}', '/s': '{App Base URL}' };

/** The table's rows: `POST {Base URL}/…` -> { sentBy, changesData }. */
function tableRows() {
	const text = fs.readFileSync(DOC, 'utf8');
	const section = text.slice(text.indexOf('## Every request the package sends'));
	const rows = section.split('\n').filter((line) => line.startsWith('| `POST '));
	return Object.fromEntries(
		rows.map((line) => {
			const [request, sentBy, changes] = line
				.split('|')
				.slice(1, 4)
				.map((cell) => cell.trim());
			return [request.replace(/`/g, ''), { sentBy, changesData: /^yes\b/.test(changes) }];
		}),
	);
}

/** A route the sandbox saw, as the table writes it. */
const asRow = (route) => {
	const [, prefix, rest] = /^(\/api|\/s)(\/.*)$/.exec(route);
	return `POST ${BASES[prefix]}${rest}`;
};

// A seed whose handler ids hold enough distinct characters for the trigger to shape a probe on
// (unknownIdLike in trigger/removal.ts); the default seed's ids hold two or three.
const ctx = useInventoryOps({ orders: 50, seed: 0x9abcdef7 });
const REMOVE = '/api/webhook/remove_handler';
const UNKNOWN_ID_ROW = 'POST {Base URL}/webhook/remove_handler for an id the service cannot know';
const AFTER_REMOVAL = /^after a remove_handler answer\b/;
const seen = {}; // row -> Set of senders
// Row -> whether every call of it came after a remove_handler call of the same sender
const afterRemoval = {};
const meant = new Set(); // the handler ids the test itself has removed: any other is a probe's
async function record(sender, send) {
	const before = (await ctx.sandbox.calls(undefined, { probes: true })).length;
	await send();
	const removed = new Set();
	let removalSent = false;
	for (const { route, body, status } of (
		await ctx.sandbox.calls(undefined, { probes: true })
	).slice(before)) {
		let row = asRow(route);
		if (route === REMOVE) {
			// An id nobody meant (a probe), or one the service has just removed, sent again to learn its
			// answer.
			if (!meant.has(body._id) || removed.has(body._id)) row = UNKNOWN_ID_ROW;
			if (status === 200) removed.add(body._id);
			removalSent = true;
		}
		(seen[row] ??= new Set()).add(sender);
		afterRemoval[row] = (afterRemoval[row] ?? true) && removalSent;
	}
}

beforeAll(async () => {
	await ctx.sandbox.reset();
	// A service whose answer to an unknown id can be learnt (a worded 404, not a web page), so that
	// the path beside remove_handler is sent.
	await ctx.sandbox.config({
		removeUnknown: 404,
		unknownPaths: 'plain',
		addHandlerId: 'top',
		errorBodies: 'spec',
	});
	const run = (parameters) => ctx.run(parameters, { continueOnFail: true });
	await record("a user's run", async () => {
		await run({
			resource: 'order',
			operation: 'lookUp',
			lookUpBy: 'storeAndOrderNumber',
			storeId: '1001',
			orderNumber: '1000',
		});
		await run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-TABLE-1' });
		await run({
			resource: 'shipment',
			operation: 'restoreInventory',
			storeId: '1001',
			orderNumber: '1000',
			trackingNumber: 'T-NONE',
		});
		const added = await run({
			resource: 'webhookHandler',
			operation: 'add',
			eventType: 'order.shipped',
			name: 'Table',
			url: 'https://example.com/h',
		});
		// A live handler, then an unknown id: the Remove learns the answer to an id the service no
		// longer knows (its first id, sent again), then reads the 404 beside the path nothing serves.
		const ids = [added.items[0].json._id, '000000000000000000000000'];
		ids.forEach((id) => meant.add(id));
		await ctx.run(
			{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
			{ items: ids.map((id) => ({ id })), continueOnFail: true },
		);
	});
	const testCredential = credentialTester();
	await record('the credential test', async () => {
		await testCredential(ctx.sandbox.credentials());
		// A lookup refused: compared with the path beside it.
		await ctx.sandbox.fault({
			route: '/api/order/get_single_bulk',
			count: 1,
			status: 404,
			body: { error: { message: 'no orders' } },
		});
		await testCredential(ctx.sandbox.credentials());
	});
	const harness = await createTriggerHarness({ sandbox: ctx.sandbox.server });
	try {
		const stored = harness.storedWorkflow({
			id: 'wf-table',
			name: 'Table',
			parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
		});
		await record('a publish', () => harness.activate(stored));
		// Gone already (removed behind the trigger's back): the unpublish's 404, the answer the publish
		// learnt, is read beside the path nothing serves.
		const [handler] = (await ctx.sandbox.handlers()).filter((candidate) =>
			candidate.name.includes('wf-table'),
		);
		meant.add(handler._id);
		await fetch(`${ctx.sandbox.baseUrl}/webhook/remove_handler`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${ctx.sandbox.demoToken}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ _id: handler._id }),
		});
		await record('an unpublish', () => harness.deactivate(stored));
	} finally {
		await harness.close();
	}
});

// How a row may name a sender: a user's run of the one operation that sends a request is named by
// that operation.
const SENDER_WORDS = {
	"a user's run": /a user's run|Webhook Handler → Remove/,
	'the credential test': /the credential test/,
	'a publish': /a publish/,
	'an unpublish': /an unpublish/,
};

test('every request sent has a row, which names who sent it, or the call it follows', () => {
	const rows = tableRows();
	for (const [request, senders] of Object.entries(seen)) {
		expect({ request, row: rows[request] !== undefined }).toEqual({ request, row: true });
		// A row that names the call it follows: every one of these requests came after that call,
		// whoever sent it.
		if (AFTER_REMOVAL.test(rows[request].sentBy))
			expect({ request, afterRemoval: afterRemoval[request] }).toEqual({
				request,
				afterRemoval: true,
			});
		else
			for (const sender of senders)
				expect({ request, sentBy: rows[request].sentBy }).toEqual({
					request,
					sentBy: expect.stringMatching(SENDER_WORDS[sender]),
				});
	}
});

test('every endpoint has its row, saying whether it may change data; every path beside one changes nothing', () => {
	const rows = tableRows();
	const endpointRows = Object.values(ENDPOINTS).map(({ base, path: route, changesData }) => [
		`POST ${base === 'baseUrl' ? '{Base URL}' : '{App Base URL}'}${route}`,
		changesData,
	]);
	for (const [request, changesData] of endpointRows)
		expect({ request, changesData: rows[request]?.changesData }).toEqual({ request, changesData });
	const others = Object.keys(rows).filter(
		(request) => !endpointRows.some(([row]) => row === request),
	);
	for (const request of others) {
		expect(
			request === UNKNOWN_ID_ROW || /\/no-such-operation-n8n-path-check$/.test(request)
				? ''
				: request,
		).toBe('');
		expect(rows[request].changesData).toBe(false);
	}
});

test('every row was sent by this test: the table lists nothing the package no longer sends', () => {
	expect(Object.keys(seen).sort()).toEqual(Object.keys(tableRows()).sort());
});
