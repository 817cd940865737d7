// One real n8n process with its own user folder, driven headlessly: start, wait until it is really
// ready, set up the owner and a public-API key, talk to its REST and public APIs, stop it cleanly,
// restart it, or kill it -9.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { installHost } = require('./hosts');
const { buildPackage, placePackage } = require('./package');
const { exitedWithin, freePort, waitFor } = require('./wait');

const OWNER = {
	email: 'owner@example.com',
	firstName: 'Dev',
	lastName: 'Owner',
	password: 'InventoryOps-demo-1',
};

// Printed after the active workflows were re-activated (start.js awaits
// ActiveWorkflowManager.init() first); /healthz answers long before that.
const READY_LINE = 'Editor is now accessible via';

/** Every n8n this process started, so that a crashed test run never leaves one behind. */
const running = new Set();
process.on('exit', () => {
	for (const instance of running) instance.signal('SIGKILL');
});

/**
 * n8n 1.99.1's public API gives an execution without `status`, only `finished` (true when it
 * succeeded); newer hosts give both. Tests read `status`.
 */
function withStatus(execution) {
	if (!execution || execution.status !== undefined) return execution;
	return { ...execution, status: execution.finished ? 'success' : 'error' };
}

class N8nInstance {
	/**
	 * @param {object} options
	 * @param {object} options.host     an installed host (see hosts.installHost)
	 * @param {string} options.userFolder  N8N_USER_FOLDER; n8n keeps everything in <userFolder>/.n8n
	 * @param {number} options.port
	 * @param {(line: string) => void} [options.log]
	 */
	constructor({
		host,
		userFolder,
		port,
		brokerPort,
		nodeArgs = [],
		extraEnv = {},
		log = () => {},
	}) {
		this.host = host;
		/** Options for the Node.js process that runs n8n (the real-n8n benchmark's `--inspect`). */
		this.nodeArgs = nodeArgs;
		/** n8n settings on top of the harness's own (the real-n8n benchmark's host variants). */
		this.extraEnv = extraEnv;
		this.major = parseInt(host.version, 10);
		this.userFolder = userFolder;
		this.port = port;
		this.brokerPort = brokerPort;
		this.log = log;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.logFile = path.join(userFolder, 'n8n.log');
		this.child = undefined;
		this.cookie = undefined;
		this.apiKey = undefined;
		this.owner = OWNER;
	}

	/**
	 * Installs the host line if needed, builds and places the package in a fresh (or given) user
	 * folder.
	 */
	static async prepare({ line, userFolder, port, nodeArgs, extraEnv, log = () => {} }) {
		const [host] = await Promise.all([installHost(line, { log }), buildPackage({ log })]);
		fs.mkdirSync(userFolder, { recursive: true });
		await placePackage(userFolder);
		return new N8nInstance({
			host,
			userFolder,
			port: port ?? (await freePort()),
			brokerPort: await freePort(),
			nodeArgs,
			extraEnv,
			log,
		});
	}

	environment() {
		const inherited = Object.fromEntries(
			Object.entries(process.env).filter(
				([name]) =>
					!name.startsWith('N8N_') && !name.startsWith('npm_') && !name.startsWith('JEST_'),
			),
		);
		return {
			...inherited,
			// jest sets NODE_ENV=test, in which n8n skips parts of its start-up and exits.
			NODE_ENV: 'production',
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			WEBHOOK_URL: `${this.baseUrl}/`,
			N8N_EDITOR_BASE_URL: `${this.baseUrl}/`,
			// Plain http on loopback: without this the auth cookie is Secure and browsers (and we) cannot
			// log in.
			N8N_SECURE_COOKIE: 'false',
			// Nothing phones home, nothing pops up.
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
			N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_DYNAMIC_BANNERS_ENABLED: 'false',
			N8N_AI_ENABLED: 'false',
			EXTERNAL_FRONTEND_HOOKS_URLS: '',
			// Its own task-runner broker port, so that several hosts (and `npm run dev`) can run side by
			// side.
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			DB_SQLITE_POOL_SIZE: '2',
			N8N_LOG_OUTPUT: 'console',
			GENERIC_TIMEZONE: 'UTC',
			...this.extraEnv,
		};
	}

	/**
	 * The n8n command this instance runs; queue mode (e2e/queue) runs `webhook` and `worker`
	 * processes too.
	 */
	commandArgs() {
		return ['start'];
	}

	/** The log line after which this instance is ready. */
	readyLine() {
		return READY_LINE;
	}

	/**
	 * Starts n8n and resolves once it printed its editor-ready line (after re-activating published
	 * workflows).
	 */
	async start({ timeoutMs = 180_000 } = {}) {
		if (this.child) throw new Error('n8n is already running');
		const started = Date.now();
		const logStream = fs.createWriteStream(this.logFile, { flags: 'a' });
		logStream.write(`\n===== start ${new Date().toISOString()} =====\n`);
		// Its own process group, so that stop/kill reach the task runner it spawns, and Ctrl-C in a
		// terminal reaches us first (we then stop n8n in order).
		const child = spawn(
			process.execPath,
			[...this.nodeArgs, this.host.n8nBin, ...this.commandArgs()],
			{
				cwd: this.userFolder,
				env: this.environment(),
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		this.child = child;
		running.add(this);
		this.recentOutput = '';
		const exited = new Promise((resolve) => {
			child.on('exit', (code, signal) => {
				running.delete(this);
				if (this.child === child) this.child = undefined;
				logStream.end(`===== exit code=${code} signal=${signal} =====\n`);
				resolve({ code, signal });
			});
		});
		child.exited = exited;
		const ready = new Promise((resolve) => {
			const onData = (chunk) => {
				logStream.write(chunk);
				this.recentOutput = (this.recentOutput + chunk.toString()).slice(-8000);
				if (this.recentOutput.includes(this.readyLine())) resolve();
			};
			child.stdout.on('data', onData);
			child.stderr.on('data', onData);
		});
		let timer;
		const outcome = await Promise.race([
			ready.then(() => 'ready'),
			exited.then(({ code, signal }) => `exited (code ${code}, signal ${signal})`),
			new Promise((resolve) => {
				timer = setTimeout(() => resolve('timeout'), timeoutMs);
			}),
		]);
		clearTimeout(timer);
		if (outcome !== 'ready') {
			if (outcome === 'timeout') await this.kill();
			throw new Error(
				`n8n ${this.host.version} did not start: ${outcome}. Last output:\n${this.recentOutput}`,
			);
		}
		this.lastStartMs = Date.now() - started;
		this.log(
			`n8n ${this.host.version} ready on ${this.baseUrl} in ${(this.lastStartMs / 1000).toFixed(1)} s`,
		);
		return this;
	}

	signal(name) {
		if (!this.child) return;
		try {
			process.kill(-this.child.pid, name);
		} catch {
			// already gone
		}
	}

	/**
	 * SIGTERM and wait: n8n shuts down gracefully (it does not call the triggers' webhook `delete` on
	 * the way).
	 */
	async stop({ timeoutMs = 30_000 } = {}) {
		const child = this.child;
		if (!child) return;
		this.signal('SIGTERM');
		if (!(await exitedWithin(child, timeoutMs))) await this.kill();
		else this.signal('SIGKILL'); // whatever of the group is left (the task runner), if anything
	}

	/** SIGKILL to the whole process group, as a crash or an OOM kill would do. */
	async kill() {
		const child = this.child;
		if (!child) return;
		this.signal('SIGKILL');
		await child.exited;
	}

	async restart() {
		await this.stop();
		await this.start();
	}

	// ---- HTTP
	// ---------------------------------------------------------------------------------------------

	async request(method, urlPath, { body, headers = {}, expect } = {}) {
		const response = await fetch(`${this.baseUrl}${urlPath}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		let json;
		try {
			json = text === '' ? undefined : JSON.parse(text);
		} catch {
			json = undefined;
		}
		const result = { status: response.status, body: json ?? text, headers: response.headers };
		if (expect !== undefined && response.status !== expect) {
			throw new Error(
				`${method} ${urlPath} answered ${response.status}, expected ${expect}: ${text.slice(0, 1000)}`,
			);
		}
		return result;
	}

	/** The internal REST API the editor uses, as the logged-in owner. */
	async rest(method, urlPath, body, { expect = 200 } = {}) {
		if (!this.cookie) await this.login();
		const response = await this.request(method, `/rest${urlPath}`, {
			body,
			headers: { cookie: this.cookie },
			expect,
		});
		return response.body && response.body.data !== undefined ? response.body.data : response.body;
	}

	/**
	 * A type file the editor reads its node panel and credential list from (/types/nodes.json,
	 * /types/credentials.json).
	 */
	async typeFile(name) {
		if (!this.cookie) await this.login();
		return (
			await this.request('GET', `/types/${name}`, { headers: { cookie: this.cookie }, expect: 200 })
		).body;
	}

	/** The public API (/api/v1), with the API key. */
	async api(method, urlPath, body, { expect = 200 } = {}) {
		const response = await this.request(method, `/api/v1${urlPath}`, {
			body,
			headers: { 'x-n8n-api-key': this.apiKey },
			expect,
		});
		return response.body;
	}

	rememberCookie(response) {
		const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
		if (cookies.length > 0) this.cookie = cookies.join('; ');
	}

	async login() {
		const response = await this.request('POST', '/rest/login', {
			body: {
				emailOrLdapLoginId: this.owner.email,
				email: this.owner.email,
				password: this.owner.password,
			},
			expect: 200,
		});
		this.rememberCookie(response);
	}

	/**
	 * On a fresh instance: the owner account (as the setup screen would) and, unless `apiKey: false`,
	 * a public-API key with every scope.
	 */
	async setUpOwner({ apiKey = true } = {}) {
		const setup = await this.request('POST', '/rest/owner/setup', {
			body: this.owner,
			expect: 200,
		});
		this.rememberCookie(setup);
		if (!apiKey) return undefined;
		let scopes;
		try {
			scopes = await this.rest('GET', '/api-keys/scopes');
		} catch {
			scopes = undefined; // hosts without API-key scopes
		}
		const key = await this.rest('POST', '/api-keys', {
			label: 'e2e',
			expiresAt: null,
			...(scopes ? { scopes } : {}),
		});
		this.apiKey = key.rawApiKey ?? key.apiKey;
		fs.writeFileSync(
			path.join(this.userFolder, 'owner.json'),
			`${JSON.stringify({ ...this.owner, apiKey: this.apiKey }, null, 2)}\n`,
			{ mode: 0o600 },
		);
		return this.apiKey;
	}

	// ---- Things tests and `npm run dev` do
	// ---------------------------------------------------------------

	/**
	 * As the credential dialog does it (the public API's credential schema differs between hosts).
	 */
	async createCredential({ name, type, data }) {
		return await this.rest('POST', '/credentials', { name, type, data });
	}

	async updateCredential(id, { name, type, data }) {
		return await this.rest('PATCH', `/credentials/${id}`, { name, type, data });
	}

	async createWorkflow(workflow) {
		const { name, nodes, connections, settings = {} } = workflow;
		return await this.api('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings: { executionOrder: 'v1', ...settings },
		});
	}

	async getWorkflow(id) {
		return await this.api('GET', `/workflows/${id}`);
	}

	/**
	 * Saves a workflow (public API). 1.x re-registers an active workflow's webhooks on save; 2.x
	 * saves a draft.
	 */
	async updateWorkflow(id, workflow) {
		const { name, nodes, connections, settings = {} } = workflow;
		return await this.api('PUT', `/workflows/${id}`, {
			name,
			nodes,
			connections,
			settings: { executionOrder: 'v1', ...settings },
		});
	}

	/**
	 * Publish (2.x wording; 1.x calls it activate). 2.x applies it in the background: callers poll
	 * the effect.
	 */
	async publish(id) {
		return await this.api(
			'POST',
			`/workflows/${id}/${this.major >= 2 ? 'publish' : 'activate'}`,
			this.major >= 2 ? {} : undefined,
		);
	}

	async unpublish(id) {
		return await this.api(
			'POST',
			`/workflows/${id}/${this.major >= 2 ? 'unpublish' : 'deactivate'}`,
			this.major >= 2 ? {} : undefined,
		);
	}

	/**
	 * Publishes a workflow whose activation must fail, and resolves to n8n's message for it: 1.x
	 * answers the call with it; 2.x publishes in the background and keeps it as the workflow's
	 * activation error.
	 */
	async publishRefused(id) {
		if (this.major < 2) {
			const { status, body } = await this.request('POST', `/api/v1/workflows/${id}/activate`, {
				headers: { 'x-n8n-api-key': this.apiKey },
			});
			if (status < 400) throw new Error(`workflow ${id} was published (${status}), not refused`);
			return body.message;
		}
		await this.publish(id);
		const status = await this.waitForPublicationSettled(id);
		if (status !== 'failed') throw new Error(`workflow ${id} was ${status}, not refused`);
		const { triggers } = await this.rest('GET', `/workflows/${id}/publication-status`);
		return triggers
			.map((trigger) => trigger.errorMessage)
			.filter(Boolean)
			.join('\n');
	}

	/**
	 * 2.x applies a publish or unpublish from an outbox (one record at a time per workflow, leased
	 * for 2 minutes): resolves once no record of this workflow is in flight, so that what n8n did is
	 * saved, static data included. A record in flight when n8n is killed is taken up again only when
	 * its lease ends, and later ones for the same workflow wait behind it. 1.x applies an activation
	 * within the API call.
	 */
	async waitForPublicationSettled(id, { timeoutMs = 30_000 } = {}) {
		if (this.major < 2) return;
		return await waitFor(
			async () => {
				const { status } = await this.rest('GET', `/workflows/${id}/publication-status`);
				return status === 'in_progress' ? undefined : status;
			},
			{ timeoutMs, what: `n8n to finish publishing or unpublishing workflow ${id}` },
		);
	}

	/**
	 * Every execution of a workflow (public API, 250 a page), with their data unless told otherwise.
	 */
	async executions(workflowId, { includeData = true } = {}) {
		const found = [];
		let cursor;
		do {
			const query = new URLSearchParams({
				workflowId,
				includeData: String(includeData),
				limit: '250',
			});
			if (cursor) query.set('cursor', cursor);
			const page = await this.api('GET', `/executions?${query}`);
			found.push(...page.data.map(withStatus));
			cursor = page.nextCursor;
		} while (cursor);
		return found;
	}

	async execution(id) {
		return withStatus(await this.api('GET', `/executions/${id}?includeData=true`));
	}

	/**
	 * "Execute workflow" as the editor does it: a manual run from the given trigger node; resolves to
	 * the finished execution.
	 */
	async runManually(workflowId, triggerName, { timeoutMs = 60_000 } = {}) {
		const workflowData = await this.rest('GET', `/workflows/${workflowId}`);
		const result = await this.rest('POST', `/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: triggerName },
		});
		if (!result || !result.executionId)
			throw new Error(`manual run did not start: ${JSON.stringify(result)}`);
		return await waitFor(
			async () => {
				const execution = await this.execution(result.executionId).catch(() => undefined);
				return execution && execution.finished !== undefined && execution.stoppedAt
					? execution
					: undefined;
			},
			{ timeoutMs, what: `execution ${result.executionId} to finish` },
		);
	}

	/**
	 * "Listen for test event" in the editor: registers the trigger's test webhook (its `create` in
	 * manual mode).
	 */
	async listenForTestEvent(workflowId, triggerName) {
		const workflowData = await this.rest('GET', `/workflows/${workflowId}`);
		return await this.rest('POST', `/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: triggerName },
		});
	}

	/** Closing the test-event listener in the editor (the trigger's `delete` in manual mode). */
	async stopListening(workflowId) {
		return await this.rest('DELETE', `/test-webhook/${workflowId}`);
	}

	/** The credential test button of the credential dialog. */
	async testCredential(credential) {
		return await this.rest('POST', '/credentials/test', { credentials: credential });
	}
}

module.exports = { N8nInstance, OWNER };
