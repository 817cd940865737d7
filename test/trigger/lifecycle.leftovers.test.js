// A handler that can never be removed (issue 51): its old address answers every remove_handler with
// a gateway's 404 page. Each publish goes ahead all the same (a new secret refuses the leftover's
// deliveries), the log names the leftover each time, and after both limits of trigger/removal.ts
// (10 tries, 30 days) it is dropped with a last line. Counted at the sandbox over real HTTP; the
// fake clock gives each try its day.
const http = require('node:http');

const { answers } = require('../helpers/profile');
const { useTriggerHarness } = require('./helpers/setup');

const REMOVE_ROUTE = '/api/webhook/remove_handler';
const STATIC_KEY = 'node:Inventory Ops Trigger';
const GATEWAY_PAGE =
	'<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>';
const DAY_MS = 86_400_000;
// Without an id from add_handler nothing is ever removed or kept (test/trigger/lifecycle.test.js).
const REMOVABLE = answers.addHandlerId !== 'none';

const context = useTriggerHarness({ fakeSleep: true });
let harness;
beforeEach(async () => {
	({ harness } = context);
	await harness.admin('POST', '/config', {
		addHandlerId: 'top',
		removeUnknown: 404,
		errorBodies: 'spec',
		unknownPaths: 'plain',
	});
});
afterEach(() => harness.beforeRequest(async () => {}));

// The gateway in front of a moved address: a 404 page for every call, each counted by the id it was
// to remove.
const gateway = { server: undefined, removals: [] };
beforeAll(async () => {
	gateway.server = http.createServer((request, response) => {
		let body = '';
		request.on('data', (chunk) => (body += chunk));
		request.on('end', () => {
			gateway.removals.push(JSON.parse(body)._id);
			response.writeHead(404, { 'content-type': 'text/html' });
			response.end(GATEWAY_PAGE);
		});
	});
	await new Promise((resolve) => gateway.server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => gateway.server.close(resolve)));
beforeEach(() => (gateway.removals.length = 0));

const removalsOf = (id) => gateway.removals.filter((removed) => removed === id);
const leftovers = (stored) => harness.staticState(stored.staticData).leftovers;

/**
 * Every remove_handler of `id` from now on goes to the gateway (as if that handler's registration
 * lay behind it); the other handlers' go to the service as usual, at the same time.
 */
function unremovable(id) {
	harness.beforeRequest(async (options) => {
		if (String(options.url).endsWith('/webhook/remove_handler') && options.body?._id === id) {
			options.url = `http://127.0.0.1:${gateway.server.address().port}/moved/webhook/remove_handler`;
		}
	});
}

function workflow(id) {
	return harness.storedWorkflow({
		id,
		name: `Leftovers ${id}`,
		parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
	});
}

test('a handler no removal can reach: every publish goes ahead and logs it; dropped after 10 tries and 30 days, with a last line', async () => {
	if (!REMOVABLE) return;
	const stored = workflow('wf-never-removed');
	const url = harness.webhookUrl(stored, false);
	await harness.activate(stored);
	const [{ _id: stuck, name: stuckName }] = await harness.handlers();
	unremovable(stuck);
	const name = `"${stuckName}" (id ${stuck}, event type order.shipped, URL ${url})`;

	expect(await harness.deactivate(stored)).toBe(false);
	expect(leftovers(stored)).toEqual([
		expect.objectContaining({ id: stuck, tries: 1, keptSince: 0 }),
	]);

	// The next publish goes ahead on its first try: a new handler, the leftover named in the log, one
	// event one run.
	harness.warnings.length = 0;
	await harness.activate(stored);
	const fresh = (await harness.handlers()).filter((handler) => handler._id !== stuck);
	expect(fresh).toHaveLength(1);
	expect(harness.warnings).toContainEqual(
		expect.stringMatching(
			new RegExp(
				`^Inventory Ops Trigger: publishing goes ahead without removing the webhook handler ${name.replace(/[().]/g, '\\$&')}, which an earlier registration left\\. The service answered /webhook/remove_handler with 404 \\(not found\\)\\. The answer was a web page titled "404 Not Found"`,
			),
		),
	);
	await harness.emit('order.shipped', { order_number: '1001' });
	expect(harness.runs).toHaveLength(1);
	expect(leftovers(stored)).toEqual([
		expect.objectContaining({ id: stuck, tries: 2, keptSince: 0 }),
	]);

	// A try at each unpublish and publish, a day apart: 10 tries by day 8, still kept (30 days not
	// over).
	for (let day = 1; day <= 8; day++) {
		context.clock.now = day * DAY_MS;
		if (day % 2 === 1) expect(await harness.deactivate(stored)).toBe(false);
		else await harness.activate(stored);
	}
	expect(leftovers(stored)).toEqual([
		expect.objectContaining({ id: stuck, tries: 10, keptSince: 0 }),
	]);
	// One ms short of 30 days: kept.
	context.clock.now = 30 * DAY_MS - 1;
	await harness.activate(stored);
	expect(leftovers(stored)).toEqual([expect.objectContaining({ id: stuck, tries: 11 })]);

	// 30 days on: the last try, then dropped with one last line naming it and how to remove it.
	context.clock.now = 30 * DAY_MS;
	harness.warnings.length = 0;
	// Still a failure to n8n (not removed), though no longer kept.
	expect(await harness.deactivate(stored)).toBe(false);
	expect(leftovers(stored)).toEqual([]);
	const about = harness.warnings.filter((warning) => warning.includes(stuck));
	expect(about).toHaveLength(1);
	expect(about[0]).toMatch(
		new RegExp(
			`^Inventory Ops Trigger: gave up removing the webhook handler ${name.replace(/[().]/g, '\\$&')}, which may still exist \\(tried 12 time\\(s\\) since 1970-01-01T00:00:00\\.000Z\\): it is no longer recorded\\. The last answer: [^]*\\b404\\b`,
		),
	);
	expect(
		about[0].endsWith(
			` To remove it by hand, run the Inventory Ops node's Webhook Handler → Remove with ID ${stuck}, or find it by its name in Inventory Ops and remove it there.`,
		),
	).toBe(true);

	// Never tried again.
	expect(removalsOf(stuck)).toHaveLength(12);
	await harness.activate(stored);
	await harness.deactivate(stored);
	expect(removalsOf(stuck)).toHaveLength(12);
	expect((await harness.handlers()).map((handler) => handler._id)).toEqual([stuck]);
});

test('the limits are both needed: 10 tries over 29 days kept, 9 tries over 60 days kept, the 10th try after 30 days dropped', async () => {
	if (!REMOVABLE) return;
	const stored = workflow('wf-limits');
	await harness.activate(stored);
	const [{ _id: stuck }] = await harness.handlers();
	unremovable(stuck);
	expect(await harness.deactivate(stored)).toBe(false);
	const [record] = leftovers(stored);
	const keepWith = (fields) => {
		stored.staticData[STATIC_KEY].inventoryOpsTrigger.leftovers = [{ ...record, ...fields }];
	};
	context.clock.now = 60 * DAY_MS;

	keepWith({ tries: 9, keptSince: 31 * DAY_MS + 1 }); // the 10th try, 29 days after: kept
	await harness.activate(stored);
	expect(leftovers(stored)).toEqual([expect.objectContaining({ id: stuck, tries: 10 })]);

	keepWith({ tries: 8, keptSince: 0 }); // the 9th try, 60 days after: kept
	await harness.activate(stored);
	expect(leftovers(stored)).toEqual([expect.objectContaining({ id: stuck, tries: 9 })]);

	keepWith({ tries: 9, keptSince: 30 * DAY_MS }); // the 10th try, 30 days to the ms: dropped
	harness.warnings.length = 0;
	await harness.activate(stored);
	expect(leftovers(stored)).toEqual([]);
	expect(
		harness.warnings.filter((warning) =>
			warning.startsWith('Inventory Ops Trigger: gave up removing the webhook handler'),
		),
	).toHaveLength(1);
});

test('a bare success: false from remove_handler is no proof of gone: kept, logged, and counted like any failed try', async () => {
	if (!REMOVABLE) return;
	const stored = workflow('wf-bare-false');
	await harness.activate(stored);
	const [{ _id: id }] = await harness.handlers();
	await harness.admin('POST', '/faults', {
		route: REMOVE_ROUTE,
		count: 2,
		status: 200,
		body: { success: false },
	});
	expect(await harness.deactivate(stored)).toBe(false);
	expect(leftovers(stored)).toEqual([expect.objectContaining({ id, tries: 1 })]);
	harness.warnings.length = 0;
	await harness.activate(stored);
	expect(leftovers(stored)).toEqual([expect.objectContaining({ id, tries: 2 })]);
	expect(harness.warnings).toContainEqual(
		expect.stringContaining(
			`(id ${id}, event type order.shipped, URL ${harness.webhookUrl(stored, false)}), which an earlier registration left. The service refused /webhook/remove_handler with success: false.`,
		),
	);
	// The service answers for itself again: the next unpublish removes both.
	expect(await harness.deactivate(stored)).toBe(true);
	expect(await harness.handlers()).toEqual([]);
});
