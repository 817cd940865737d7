// What the e2e suite shares for one host line: the sandbox, one real n8n with the package, its
// owner and API key, and a credential pointing at the sandbox; plus small helpers that read results
// from the sandbox's admin API.
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../../sandbox');
const { profileSwitches, profileValues } = require('../../sandbox/profiles');
const { RUNTIME_DIR } = require('./hosts');
const { N8nInstance } = require('./n8n');
const { waitFor } = require('./wait');
const { CREDENTIAL_TYPE } = require('./workflows');

/**
 * The sandbox profile of this run (E2E_SANDBOX_PROFILE, set per host line by e2e/run.js;
 * sandbox/profiles.js).
 */
function sandboxProfile() {
	return process.env.E2E_SANDBOX_PROFILE || 'documented';
}

async function startContext(line, { log = () => {} } = {}) {
	log(`e2e: host line ${line}, sandbox profile ${sandboxProfile()}`);
	const sandbox = await startSandbox({
		config: profileSwitches(sandboxProfile()),
		port: 0,
		orders: 500,
		seed: 1,
		rateLimit: false,
		delivery: { maxAttempts: 3, baseDelayMs: 100, timeoutMs: 5000 },
	});
	const userFolder = path.join(RUNTIME_DIR, 'e2e', `n8n-${line}`);
	fs.rmSync(userFolder, { recursive: true, force: true });
	let n8n;
	try {
		n8n = await N8nInstance.prepare({ line, userFolder, log });
		await n8n.start();
		await n8n.setUpOwner();
		const credentialData = {
			accessToken: sandbox.demoToken,
			baseUrl: sandbox.baseUrl,
			appBaseUrl: sandbox.appBaseUrl,
		};
		const credential = await n8n.createCredential({
			name: 'Sandbox',
			type: CREDENTIAL_TYPE,
			data: credentialData,
		});
		return new Context({ line, sandbox, n8n, credential, credentialData });
	} catch (error) {
		if (n8n) await n8n.kill();
		await sandbox.close();
		throw error;
	}
}

class Context {
	constructor({ line, sandbox, n8n, credential, credentialData }) {
		this.line = line;
		/**
		 * How the sandbox answers each open point in this run (its profile): what scenarios read
		 * expectations from.
		 */
		this.answers = profileValues(sandboxProfile());
		this.sandbox = sandbox;
		this.n8n = n8n;
		this.credential = credential;
		this.credentialData = credentialData;
	}

	/**
	 * A new Inventory Ops credential: the sandbox's, with `changes` to its fields (a bad token, an
	 * expression, ...).
	 */
	async createCredentialWith(name, changes) {
		return await this.n8n.createCredential({
			name,
			type: CREDENTIAL_TYPE,
			data: { ...this.credentialData, ...changes },
		});
	}

	async close() {
		await this.n8n.stop();
		await this.sandbox.close();
	}

	async admin(method, urlPath, body) {
		const response = await fetch(`${this.sandbox.adminUrl}${urlPath}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(
				`sandbox ${method} ${urlPath} answered ${response.status}: ${await response.text()}`,
			);
		return await response.json();
	}

	async calls(route) {
		return (await this.admin('GET', `/calls?route=${encodeURIComponent(route)}`)).calls;
	}

	/**
	 * The sandbox's handlers that point at the given trigger node, split into production and test
	 * URLs.
	 */
	async handlersOf(triggerNode) {
		const { handlers } = await this.admin('GET', '/handlers');
		const mine = handlers.filter((handler) =>
			handler.handler.url.includes(`/${triggerNode.webhookId}/`),
		);
		return {
			production: mine.filter((handler) =>
				new URL(handler.handler.url).pathname.startsWith('/webhook/'),
			),
			test: mine.filter((handler) =>
				new URL(handler.handler.url).pathname.startsWith('/webhook-test/'),
			),
			all: mine,
		};
	}

	/**
	 * Waits until the trigger's production handlers are exactly one per given type (none for an empty
	 * list).
	 */
	async waitForProductionHandlers(triggerNode, types, { timeoutMs = 30_000 } = {}) {
		const wanted = [...types].sort().join(',');
		return await waitFor(
			async () => {
				const { production } = await this.handlersOf(triggerNode);
				const found = production
					.map((handler) => handler.type)
					.sort()
					.join(',');
				return found === wanted ? production : undefined;
			},
			{ timeoutMs, what: `production handlers [${wanted}] for ${triggerNode.name}` },
		);
	}

	/**
	 * Publishes (activates) the workflow and waits for its trigger's production handlers, one per
	 * type, and for n8n to have finished the publication (the handlers reach the service before n8n
	 * saves them); returns them.
	 */
	async publish(workflow, triggerNode, types) {
		await this.n8n.publish(workflow.id);
		const handlers = await this.waitForProductionHandlers(triggerNode, types);
		await this.n8n.waitForPublicationSettled(workflow.id);
		return handlers;
	}

	/**
	 * Unpublishes (deactivates) the workflow, waits until its trigger has no production handler left
	 * and n8n is done.
	 */
	async unpublish(workflow, triggerNode) {
		await this.n8n.unpublish(workflow.id);
		const handlers = await this.waitForProductionHandlers(triggerNode, []);
		await this.n8n.waitForPublicationSettled(workflow.id);
		return handlers;
	}

	/** Emits an event and answers once every delivery of it settled: `{ event_id, handlers }`. */
	async emit(type, data) {
		return await this.admin('POST', '/events?wait=true', { type, data });
	}

	async deliveries(eventId) {
		return (await this.admin('GET', `/deliveries?event_id=${encodeURIComponent(eventId)}`))
			.deliveries;
	}

	/**
	 * Waits until the workflow has `count` finished executions, then checks once more that no further
	 * one arrives.
	 */
	async waitForExecutions(workflowId, count, { timeoutMs = 30_000 } = {}) {
		const finished = async () => {
			const executions = await this.n8n.executions(workflowId);
			return executions.every((execution) => execution.stoppedAt) ? executions : undefined;
		};
		await waitFor(async () => ((await finished())?.length >= count ? true : undefined), {
			timeoutMs,
			what: `${count} executions of workflow ${workflowId}`,
		});
		// Deliveries were settled before we got here (emit waits for them), so a late extra execution
		// would already be on its way; give n8n a moment to save it before the caller counts.
		await new Promise((resolve) => setTimeout(resolve, 500));
		return await waitFor(finished, {
			timeoutMs,
			what: `executions of workflow ${workflowId} to finish`,
		});
	}
}

module.exports = { sandboxProfile, startContext, Context };
