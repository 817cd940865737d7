// The trigger and the action node in n8n's queue mode, against the sandbox, counted in the
// sandbox's tables and in n8n's executions. A single-process n8n (same host version, same sandbox)
// runs the same load first: it gives the reference output of the bulk lookup and the deliveries/s
// to compare with. Figures of the run go to reports/e2e-queue-figures.json.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../../../sandbox');
const { newestHostLine, REPO_ROOT } = require('../../lib/hosts');
const { N8nInstance } = require('../../lib/n8n');
const { buildPackage } = require('../../lib/package');
const { sleep, waitFor } = require('../../lib/wait');
const { chain, node, triggerWorkflow, outputOf, CREDENTIAL_TYPE } = require('../../lib/workflows');
const { Context } = require('../../lib/context');
const {
	republishUnderStream,
	TITLE: REPUBLISH_UNDER_STREAM,
} = require('../../scenarios/triggerUnderLoad');
const { startQueueCluster } = require('../lib/cluster');
const events = require('../lib/events');
const infra = require('../lib/infra');
const { readWorkerKill, executionRecords } = require('../lib/workerKill');

const LINE = process.env.E2E_QUEUE_HOST || newestHostLine();
const EVENT_COUNT = 1000;
const KILL_EVENT_COUNT = 200;
const BULK_ORDERS = 10_000;
// Deliveries in flight at once. The single-process host on SQLite times out on its write lock (and
// the sandbox retries) at 20 in flight on a busy 2-core machine; both hosts get the same load.
const SEND_CONCURRENCY = 4;
const TRIGGER = 'Inventory Ops Trigger';
const LOOKUP = 'Look Up Orders';
const EVENT_TYPES = ['order.shipped', 'item.inventory', 'shipment.created'];
const SLOW_TYPE = 'order.tags';
const BULK_TYPE = 'item.updated';

const runStarted = Date.now();
const figures = { host: {}, infrastructure: {}, singleProcess: {}, queue: {} };
const log = (message) =>
	process.stdout.write(
		`[e2e:queue ${((Date.now() - runStarted) / 1000).toFixed(1)}s] ${message}\n`,
	);

/**
 * Every seeded order once: order i is store 1001 + i % 4, order number 1000 + floor(i / 4)
 * (sandbox/README.md).
 */
const bulkReferences = Array.from({ length: BULK_ORDERS }, (_, index) => ({
	store_id: String(1001 + (index % 4)),
	order_number: String(1000 + Math.floor(index / 4)),
}));

function workflows(credential, tag) {
	return {
		events: triggerWorkflow(`Queue events ${tag}`, credential, EVENT_TYPES, {
			triggerName: TRIGGER,
		}),
		// A second of Wait keeps executions in flight on the worker that gets killed.
		slow: slowWorkflow(credential, tag),
		bulk: triggerWorkflow(`Queue bulk ${tag}`, credential, [BULK_TYPE], {
			triggerName: TRIGGER,
			steps: [
				{
					name: LOOKUP,
					parameters: {
						resource: 'order',
						operation: 'lookUp',
						lookUpBy: 'list',
						references: JSON.stringify(bulkReferences),
						options: { batchSize: 500 },
					},
				},
			],
		}),
	};
}

/** Trigger -> Wait (1 s, kept in process: under 65 s n8n does not park the execution) -> No Op. */
function slowWorkflow(credential, tag) {
	const base = triggerWorkflow(`Queue slow ${tag}`, credential, [SLOW_TYPE], {
		triggerName: TRIGGER,
	});
	const [trigger, received] = base.nodes;
	const wait = node(
		'Wait',
		'n8n-nodes-base.wait',
		{ resume: 'timeInterval', amount: 1, unit: 'seconds' },
		{
			position: [260, 0],
			typeVersion: 1.1,
		},
	);
	return { ...base, ...chain(base.name, [trigger, wait, { ...received, position: [520, 0] }]) };
}

async function createCredential(n8n, sandbox) {
	return await n8n.createCredential({
		name: 'Inventory Ops sandbox',
		type: CREDENTIAL_TYPE,
		data: {
			accessToken: sandbox.demoToken,
			baseUrl: sandbox.baseUrl,
			appBaseUrl: sandbox.appBaseUrl,
		},
	});
}

/**
 * Waits until the service holds exactly `expected` ({ type: count }) and still does a few seconds
 * later.
 */
async function settledHandlers(sandbox, expected) {
	const matches = (list) =>
		JSON.stringify(sorted(events.handlersPerType(list))) === JSON.stringify(sorted(expected));
	await waitFor(async () => matches(await events.handlers(sandbox)), {
		timeoutMs: 60_000,
		what: `handlers ${JSON.stringify(expected)}`,
	}).catch(() => undefined);
	await sleep(3000);
	return await events.handlers(sandbox);
}

function sorted(object) {
	return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}

const oneEach = (types) => Object.fromEntries(types.map((type) => [type, 1]));

async function bulkOutput(n8n, sandbox, workflowId, prefix) {
	const sent = await events.sendEvents(sandbox, {
		types: [BULK_TYPE],
		count: 1,
		concurrency: 1,
		prefix,
	});
	const [finished] = await events.waitForExecutions(n8n, workflowId, 1, { timeoutMs: 300_000 });
	const execution = await n8n.api('GET', `/executions/${finished.id}?includeData=true`);
	const items = outputOf(execution, LOOKUP) ?? [];
	const hash = crypto.createHash('sha256').update(JSON.stringify(items)).digest('hex');
	return {
		eventId: sent.ids[0],
		executionId: String(finished.id),
		status: execution.status,
		items: items.length,
		keys: new Set(items.map((order) => `${order.store_id}/${order.order_number}`)).size,
		sha256: hash,
		ms: new Date(execution.stoppedAt) - new Date(execution.startedAt),
	};
}

let sandbox;
let postgres;
let redis;
let runDir;

beforeAll(async () => {
	const aptStarted = Date.now();
	const apt = await infra.ensureDebianPackages({ log });
	figures.infrastructure.debianPackagesInstalledNow = apt.installedNow;
	figures.infrastructure.debianPackagesMs = Date.now() - aptStarted;
	runDir = infra.freshRunDir();
	[postgres, redis, sandbox] = await Promise.all([
		infra.startPostgres({ runDir, log }),
		infra.startRedis({ runDir, log }),
		startSandbox({ port: 0, orders: BULK_ORDERS, rateLimit: false }),
	]);
	figures.infrastructure.postgresStartMs = postgres.startMs;
	figures.infrastructure.redisStartMs = redis.startMs;
	await buildPackage({ log });
}, 900_000);

afterAll(async () => {
	await Promise.allSettled([
		sandbox && sandbox.close(),
		postgres && postgres.stop(),
		redis && redis.stop(),
	]);
	figures.totalMs = Date.now() - runStarted;
	fs.mkdirSync(path.join(REPO_ROOT, 'reports'), { recursive: true });
	fs.writeFileSync(
		path.join(REPO_ROOT, 'reports', 'e2e-queue-figures.json'),
		`${JSON.stringify(figures, null, 2)}\n`,
	);
	log(`figures: ${JSON.stringify(figures)}`);
});

describe(`single-process n8n (host ${LINE}), the reference`, () => {
	let n8n;
	afterAll(async () => {
		if (n8n) await n8n.stop();
	});

	test(`${EVENT_COUNT} events give ${EVENT_COUNT} executions; the bulk lookup gives the reference output`, async () => {
		n8n = await N8nInstance.prepare({ line: LINE, userFolder: path.join(runDir, 'single'), log });
		figures.host = { line: LINE, version: n8n.host.version };
		await n8n.start();
		await n8n.setUpOwner();
		const credential = await createCredential(n8n, sandbox);
		const flows = workflows(credential, 'single');
		const eventsFlow = await n8n.createWorkflow(flows.events);
		const bulkFlow = await n8n.createWorkflow(flows.bulk);
		await n8n.publish(eventsFlow.id);
		await n8n.publish(bulkFlow.id);
		const published = await settledHandlers(sandbox, oneEach([...EVENT_TYPES, BULK_TYPE]));
		expect(events.handlersPerType(published)).toEqual(oneEach([...EVENT_TYPES, BULK_TYPE]));

		const sent = await events.sendEvents(sandbox, {
			types: EVENT_TYPES,
			count: EVENT_COUNT,
			concurrency: SEND_CONCURRENCY,
			prefix: 'single',
		});
		await events.waitForExecutions(n8n, eventsFlow.id, EVENT_COUNT);
		const executionsDoneMs = Date.now() - runStarted;
		const deliveries = await events.tallyDeliveries(sandbox, sent.ids);
		const executions = await events.tallyExecutions(n8n, eventsFlow.id, TRIGGER, sent.ids);
		figures.singleProcess = {
			eventsSent: EVENT_COUNT,
			deliveriesPerSecond: sent.perSecond,
			sendMs: sent.ms,
			deliveries,
			executions: { ...executions, executionIds: undefined },
			executionsDoneAtMs: executionsDoneMs,
		};
		log(`single process: ${EVENT_COUNT} events delivered in ${sent.ms} ms (${sent.perSecond}/s)`);
		expect(deliveries).toMatchObject({
			deliveredOnce: EVENT_COUNT,
			deliveredTwiceOrMore: 0,
			notDelivered: 0,
		});
		expect(executions).toMatchObject({
			executions: EVENT_COUNT,
			executedOnce: EVENT_COUNT,
			duplicates: 0,
			lost: 0,
			notSuccessful: 0,
		});

		const bulk = await bulkOutput(n8n, sandbox, bulkFlow.id, 'single_bulk');
		figures.singleProcess.bulk = bulk;
		expect(bulk).toMatchObject({ status: 'success', items: BULK_ORDERS, keys: BULK_ORDERS });

		await n8n.unpublish(eventsFlow.id);
		await n8n.unpublish(bulkFlow.id);
		expect(await settledHandlers(sandbox, {})).toEqual([]);
		await n8n.stop();
	});
});

describe(`queue mode (host ${LINE}): main + 2 webhook processors + 2 workers, Redis, PostgreSQL`, () => {
	let cluster;
	let main;
	let flows;
	let credential;
	const ids = {};

	beforeAll(async () => {
		cluster = await startQueueCluster({ line: LINE, runDir, postgres, redis, log });
		figures.queue.clusterStartMs = cluster.startMs;
		main = cluster.main;
		await main.setUpOwner();
		credential = await createCredential(main, sandbox);
		flows = workflows(credential, 'queue');
		for (const [key, workflow] of Object.entries(flows))
			ids[key] = (await main.createWorkflow(workflow)).id;
	}, 600_000);

	afterAll(async () => {
		if (cluster) await cluster.stop();
	});

	test('publish: exactly one handler per event type, pointing at the webhook processors, not one per process', async () => {
		await main.publish(ids.events);
		const handlers = await settledHandlers(sandbox, oneEach(EVENT_TYPES));
		figures.queue.handlersPerTypeAfterPublish = events.handlersPerType(handlers);
		expect(events.handlersPerType(handlers)).toEqual(oneEach(EVENT_TYPES));
		for (const handler of handlers)
			expect(handler.handler.url.startsWith(`${cluster.proxy.url}/webhook/`)).toBe(true);
		// The main process does not take production webhooks (N8N_DISABLE_PRODUCTION_MAIN_PROCESS).
		const direct = await fetch(handlers[0].handler.url.replace(cluster.proxy.url, main.baseUrl), {
			method: 'POST',
		});
		expect(direct.status).toBe(404);
	});

	test(`${EVENT_COUNT} events while both webhook processors are up: ${EVENT_COUNT} executions, each once, spread over both workers`, async () => {
		cluster.proxy.resetCounts();
		const sent = await events.sendEvents(sandbox, {
			types: EVENT_TYPES,
			count: EVENT_COUNT,
			concurrency: SEND_CONCURRENCY,
			prefix: 'queue',
		});
		log(`queue mode: ${EVENT_COUNT} events delivered in ${sent.ms} ms (${sent.perSecond}/s)`);
		const processors = cluster.proxy.counts();
		const finishStarted = Date.now();
		await events.waitForExecutions(main, ids.events, EVENT_COUNT);
		const deliveries = await events.tallyDeliveries(sandbox, sent.ids);
		const executions = await events.tallyExecutions(main, ids.events, TRIGGER, sent.ids);
		const ours = new Set(executions.executionIds);
		const perWorker = Object.fromEntries(
			cluster.workers.map((worker) => [
				worker.name,
				worker.startedExecutionIds().filter((id) => ours.has(id)).length,
			]),
		);
		figures.queue.events = {
			eventsSent: EVENT_COUNT,
			deliveriesPerSecond: sent.perSecond,
			sendMs: sent.ms,
			lastExecutionAfterSendMs: Date.now() - finishStarted,
			deliveries,
			executions: { ...executions, executionIds: undefined },
			perWebhookProcessor: processors,
			executionsStartedPerWorker: perWorker,
		};
		expect(deliveries).toMatchObject({
			deliveredOnce: EVENT_COUNT,
			deliveredTwiceOrMore: 0,
			notDelivered: 0,
		});
		expect(executions).toMatchObject({
			executions: EVENT_COUNT,
			executedOnce: EVENT_COUNT,
			duplicates: 0,
			lost: 0,
			notSuccessful: 0,
			foreign: 0,
			withoutEvent: 0,
		});
		for (const processor of processors) expect(processor.received).toBeGreaterThan(0);
		expect(processors.reduce((sum, processor) => sum + processor.received, 0)).toBe(EVENT_COUNT);
		for (const count of Object.values(perWorker)) expect(count).toBeGreaterThan(0);
		// Every execution was started by exactly one worker, once.
		expect(Object.values(perWorker).reduce((sum, count) => sum + count, 0)).toBe(EVENT_COUNT);
	});

	test(`a worker killed (SIGKILL) mid-run: ${KILL_EVENT_COUNT} events, none lost or doubled`, async () => {
		await main.publish(ids.slow);
		await settledHandlers(sandbox, oneEach([...EVENT_TYPES, SLOW_TYPE]));
		const [victim, survivor] = cluster.workers;
		let interrupted = [];
		let killedAfter;
		let killedAt;
		const sent = await events.sendEvents(sandbox, {
			types: [SLOW_TYPE],
			count: KILL_EVENT_COUNT,
			concurrency: SEND_CONCURRENCY,
			prefix: 'kill',
			onSent: async (count) => {
				if (killedAfter !== undefined || count < KILL_EVENT_COUNT / 4) return;
				killedAfter = count;
				const running = (await events.listExecutions(main, ids.slow)).filter(
					(execution) => execution.status === 'running',
				);
				const startedByVictim = new Set(victim.startedExecutionIds());
				await victim.kill();
				// The whole process group has exited: nothing the killed worker stopped can be stopped
				// later than this.
				killedAt = Date.now();
				interrupted = running
					.map((execution) => String(execution.id))
					.filter((id) => startedByVictim.has(id));
				log(
					`killed ${victim.name} after ${count} events, ${interrupted.length} of its executions in flight`,
				);
			},
		});
		await events.waitForExecutions(main, ids.slow, KILL_EVENT_COUNT, { timeoutMs: 240_000 });
		const deliveries = await events.tallyDeliveries(sandbox, sent.ids);
		const executions = await events.tallyExecutions(main, ids.slow, TRIGGER, sent.ids);
		// Which jobs worker-1 held: its "started" lines and what worker-2 never started; what finished:
		// n8n's records in PostgreSQL, stopped by the time worker-1 was gone (lib/workerKill.js: its
		// "finished" line can be missing).
		const records = await executionRecords(postgres, ids.slow);
		const kill = readWorkerKill({
			victimLog: victim.logText(),
			survivorLog: survivor.logText(),
			rows: records,
			killedAt,
		});
		const { cutOff } = kill;
		const startedBySurvivor = new Set(kill.startedBySurvivor);
		const status = new Map(records.map((row) => [row.id, row.status]));
		// n8n 1.x puts a stalled job (its worker died) back into the queue once (Bull's maxStalledCount
		// 1), so another worker runs it; n8n 2.x hard-codes maxStalledCount 0 and fails it instead
		// ("job stalled more than maxStalledCount"), so that no execution ever runs twice. Either way
		// the service's delivery was accepted once.
		const stalledJobsRetried = main.major < 2;
		figures.queue.workerKill = {
			eventsSent: KILL_EVENT_COUNT,
			killedWorker: victim.name,
			killedAfterEvents: killedAfter,
			executionsInFlightAtKillSnapshot: interrupted.length,
			executionsHeldByKilledWorker: kill.held.length,
			finishedByKilledWorkerBeforeKill: kill.finishedBeforeKill.length,
			finishedWithoutLogLine: kill.finishedWithoutLogLine,
			executionsCutOffOnKilledWorker: cutOff.length,
			cutOffIds: cutOff,
			failedIds: kill.failed,
			cutOffStartedBySurvivor: cutOff.filter((id) => startedBySurvivor.has(id)).length,
			stalledJobsRetriedByN8n: stalledJobsRetried,
			deliveries,
			executions: { ...executions, executionIds: undefined },
		};
		expect(killedAfter).toBeDefined();
		// The database and the public API count the same executions.
		expect(records.map((row) => row.id).sort()).toEqual([...executions.executionIds].sort());
		// The kill really hit executions in flight.
		expect(interrupted.length).toBeGreaterThan(0);
		expect(cutOff.length).toBeGreaterThan(0);
		// The service's side: every event delivered (accepted by a webhook processor) exactly once.
		expect(deliveries).toMatchObject({
			deliveredOnce: KILL_EVENT_COUNT,
			deliveredTwiceOrMore: 0,
			notDelivered: 0,
		});
		// n8n's side: one execution per event, never two.
		expect(executions).toMatchObject({ executions: KILL_EVENT_COUNT, duplicates: 0, foreign: 0 });
		if (stalledJobsRetried) {
			// Every cut-off execution was run again by worker-2 and succeeded.
			expect(
				cutOff.filter((id) => !startedBySurvivor.has(id) || status.get(id) !== 'success'),
			).toEqual([]);
			expect(executions).toMatchObject({
				executedOnce: KILL_EVENT_COUNT,
				lost: 0,
				notSuccessful: 0,
				withoutEvent: 0,
			});
		} else {
			// Every cut-off execution failed (visible in n8n, retryable from there) and was never run
			// again; every failure was a job the killed worker held and had not finished (a job it had
			// taken from the queue but not yet logged as started fails too: the CI run of d17c465 saw
			// one), none a job the survivor ran.
			expect(cutOff.filter((id) => status.get(id) === 'success')).toEqual([]);
			expect(cutOff.filter((id) => startedBySurvivor.has(id))).toEqual([]);
			expect(kill.failed.filter((id) => !kill.held.includes(id))).toEqual([]);
			expect(kill.failed.filter((id) => startedBySurvivor.has(id))).toEqual([]);
			expect(kill.failed.filter((id) => !cutOff.includes(id))).toEqual([]);
			expect(kill.failed).toEqual(executions.notSuccessfulIds.slice().sort((a, b) => a - b));
			expect(executions.executedOnce + executions.withoutEvent).toBe(KILL_EVENT_COUNT);
			expect(executions.lost).toBe(executions.withoutEvent);
			expect(executions.withoutEvent).toBeLessThanOrEqual(executions.notSuccessful);
		}
	});

	test(`bulk order lookup of ${BULK_ORDERS} references on a worker: the same output as in one process`, async () => {
		await main.publish(ids.bulk);
		await settledHandlers(sandbox, oneEach([...EVENT_TYPES, SLOW_TYPE, BULK_TYPE]));
		const bulk = await bulkOutput(main, sandbox, ids.bulk, 'queue_bulk');
		bulk.ranOn = cluster.workers
			.filter((worker) => worker.startedExecutionIds().includes(bulk.executionId))
			.map((worker) => worker.name);
		figures.queue.bulk = bulk;
		expect(bulk).toMatchObject({ status: 'success', items: BULK_ORDERS, keys: BULK_ORDERS });
		expect(bulk.ranOn.length).toBe(1);
		expect(figures.singleProcess.bulk).toBeDefined();
		expect(bulk.sha256).toBe(figures.singleProcess.bulk.sha256);
	});

	test(
		REPUBLISH_UNDER_STREAM,
		async () => {
			// The same scenario as the single-process suite; deliveries reach the two webhook processors
			// in turn.
			figures.queue.republishUnderStream = await republishUnderStream(
				new Context({ sandbox, n8n: main, credential }),
			);
		},
		300_000,
	);

	test('unpublish: zero handlers left', async () => {
		for (const id of Object.values(ids)) await main.unpublish(id);
		const handlers = await settledHandlers(sandbox, {});
		figures.queue.handlersAfterUnpublish = handlers.length;
		expect(handlers).toEqual([]);
	});
});
