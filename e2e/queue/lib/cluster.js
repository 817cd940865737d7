// n8n in queue mode on one machine: a main process (editor, REST and public API, activation of
// workflows, i.e. the one that calls the trigger's webhook `create`/`delete`), two webhook
// processors (`n8n webhook`) that take the production webhook calls, and two workers (`n8n worker`)
// that run the executions, with Redis (BullMQ) between them and PostgreSQL as the shared database.
// The webhook processors sit behind a round-robin proxy, and WEBHOOK_URL points every process at
// that proxy: it is the address the trigger registers with the service.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { N8nInstance } = require('../../lib/n8n');
const { installHost } = require('../../lib/hosts');
const { buildPackage, placePackage } = require('../../lib/package');
const { freePort } = require('../../lib/wait');
const { startProxy } = require('./proxy');
const { executionIdsLogged } = require('./workerKill');

const READY_LINES = {
	webhook: 'Webhook listener waiting for requests.',
	worker: 'n8n worker is now ready',
};

/**
 * Kept short so that the jobs of a killed worker go back to the queue within seconds instead of the
 * default minute: a job whose lock was not renewed for LOCK_DURATION is "stalled", and the next
 * STALLED_INTERVAL check of a live worker puts it back into the queue (once:
 * QUEUE_WORKER_MAX_STALLED_COUNT stays at its default 1).
 */
const STALL_SETTINGS = {
	QUEUE_WORKER_LOCK_DURATION: '10000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

class QueueProcess extends N8nInstance {
	/**
	 * @param {object} options  N8nInstance's options plus:
	 * @param {'main' | 'webhook' | 'worker'} options.role
	 * @param {string} options.name         e.g. worker-1 (for logs and reports)
	 * @param {object} options.sharedEnv the queue-mode environment every process of the cluster gets
	 * @param {number} [options.concurrency] worker only: jobs it runs at once
	 */
	constructor({ role, name, sharedEnv, concurrency, ...options }) {
		super(options);
		this.role = role;
		this.name = name;
		this.sharedEnv = sharedEnv;
		this.concurrency = concurrency;
	}

	commandArgs() {
		if (this.role === 'worker') return ['worker', `--concurrency=${this.concurrency}`];
		return this.role === 'webhook' ? ['webhook'] : super.commandArgs();
	}

	readyLine() {
		return READY_LINES[this.role] ?? super.readyLine();
	}

	environment() {
		return { ...super.environment(), ...this.sharedEnv };
	}

	/** Execution ids this worker started, from its log ("Worker started execution 12 (job 12)"). */
	startedExecutionIds() {
		return this.executionIdsLogged('started');
	}

	/** This process's log so far ('' before its first start). */
	logText() {
		return fs.existsSync(this.logFile) ? fs.readFileSync(this.logFile, 'utf8') : '';
	}

	executionIdsLogged(verb) {
		return executionIdsLogged(this.logText(), verb);
	}
}

function queueEnvironment({ postgres, redis, webhookUrl }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
		...STALL_SETTINGS,
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		// Every process decrypts the same credentials.
		N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
		// Production webhooks go to the webhook processors only; the main process answers them with
		// 404.
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		// "Execute workflow" runs on a worker too, like production executions.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		WEBHOOK_URL: `${webhookUrl}/`,
		EXECUTIONS_DATA_PRUNE: 'false',
	};
}

/**
 * Starts main, then (after main ran the database migrations) the webhook processors and the workers
 * in parallel. Resolves to the cluster: { main, webhooks, workers, proxy, processes, stop() }.
 */
async function startQueueCluster({
	line,
	runDir,
	postgres,
	redis,
	webhookProcessors = 2,
	workers = 2,
	workerConcurrency = 5,
	log = () => {},
}) {
	const [host] = await Promise.all([installHost(line, { log }), buildPackage({ log })]);
	const processorPorts = await Promise.all(
		Array.from({ length: webhookProcessors }, () => freePort()),
	);
	const proxy = await startProxy({
		backends: processorPorts.map((port) => `http://127.0.0.1:${port}`),
	});
	const sharedEnv = queueEnvironment({ postgres, redis, webhookUrl: proxy.url });

	const mainFolder = path.join(runDir, 'main');
	fs.mkdirSync(mainFolder, { recursive: true });
	await placePackage(mainFolder);
	const create = async (role, name, port, extra = {}) => {
		const userFolder = path.join(runDir, name);
		if (userFolder !== mainFolder) {
			// The same package files as main's; each process keeps its own settings file and event log.
			fs.cpSync(path.join(mainFolder, '.n8n', 'nodes'), path.join(userFolder, '.n8n', 'nodes'), {
				recursive: true,
			});
		}
		return new QueueProcess({
			role,
			name,
			sharedEnv,
			host,
			userFolder,
			port: port ?? (await freePort()),
			brokerPort: await freePort(),
			log: (message) => log(`[${name}] ${message}`),
			...extra,
		});
	};

	const main = await create('main', 'main');
	const webhooks = await Promise.all(
		processorPorts.map((port, index) => create('webhook', `webhook-${index + 1}`, port)),
	);
	const workerProcesses = await Promise.all(
		Array.from({ length: workers }, (_, index) =>
			create('worker', `worker-${index + 1}`, undefined, { concurrency: workerConcurrency }),
		),
	);
	const processes = [main, ...webhooks, ...workerProcesses];
	const cluster = {
		host,
		main,
		webhooks,
		workers: workerProcesses,
		proxy,
		processes,
		startMs: 0,
		async stop() {
			// Webhook processors first (no new executions), then workers, then main.
			await Promise.all(webhooks.map((process) => process.stop()));
			await Promise.all(workerProcesses.map((process) => process.stop()));
			await main.stop();
			await proxy.close();
		},
	};
	const started = Date.now();
	try {
		await main.start();
		await Promise.all([...webhooks, ...workerProcesses].map((process) => process.start()));
	} catch (error) {
		await cluster.stop();
		throw error;
	}
	cluster.startMs = Date.now() - started;
	log(
		`queue mode up (main + ${webhooks.length} webhook + ${workerProcesses.length} worker processes) in ${(cluster.startMs / 1000).toFixed(1)} s`,
	);
	return cluster;
}

module.exports = { startQueueCluster, QueueProcess };
