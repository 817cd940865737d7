// Drives the Inventory Ops Trigger the way n8n's server does, with the contexts n8n-core builds:
// HookContext for checkExists/create/delete and WebhookContext for webhook(), on real Workflow
// objects (n8n-workflow). What n8n's server adds around them (ActiveWorkflowManager, TestWebhooks,
// the webhook HTTP routes, the database) is not published as a library, so this file plays those
// parts in a few lines each, following n8n's code:
// - "stored" workflows stand in for the database: every operation builds a fresh Workflow from the
// stored static
// data and saves it back where n8n does (after a successful activation, after a deactivation, after
// webhook());
// - activation runs checkExists then create (createWebhookIfNotExists); a failed create is followed
// by delete on
//   the stored static data (ActiveWorkflowManager.clearWebhooks);
// - "listen for test event" creates with mode/activation 'manual' and isTest, keeps its static data
// apart, and
//   deletes with mode 'internal', activation 'update' (TestWebhooks);
// - a local HTTP server receives the sandbox's deliveries and hands the real request to webhook().
const http = require('node:http');

const { Credentials, HookContext, WebhookContext } = require('n8n-core');
const { Workflow } = require('n8n-workflow');

const { createEngine, packageCredentialsHelper } = require('../../helpers/engine');

const NODE_NAME = 'Inventory Ops Trigger';
const NODE_TYPE = 'inventoryOpsTrigger';
const STATIC_KEY = `node:${NODE_NAME}`;

const clone = (value) => JSON.parse(JSON.stringify(value ?? {}));

/**
 * n8n hands webhook() an express Response; express is not installed, so the two methods the node
 * uses are added.
 */
function expressLikeResponse(res) {
	res.status = (code) => {
		res.statusCode = code;
		return res;
	};
	res.json = (body) => {
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify(body));
		return res;
	};
	return res;
}

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/**
 * `webhookOrigin`: the address n8n's WEBHOOK_URL names (e.g. a public https:// origin), which the
 * webhook URLs given to the trigger start with; by default the harness's own local server, which
 * receives the deliveries.
 */
async function createTriggerHarness({ sandbox, logger, webhookOrigin }) {
	const { nodeTypes } = createEngine();
	const warnings = [];
	const log = logger ?? {
		warn: (message) => warnings.push(message),
		error: (message) => warnings.push(message),
		info() {},
		debug() {},
	};
	const listeners = new Map(); // webhook URL -> { open(): Workflow, mode, isTest, save(Workflow) }
	const runs = [];
	let requestHook = async () => {};
	let legacyWebhookContext = false;
	// An n8n-core Credentials to decrypt instead of handing out the plain test credential
	let storedCredential;
	// Fields of the plain test credential replaced for the next activations
	let credentialChanges = {};

	const server = http.createServer((req, res) => {
		handleDelivery(req, expressLikeResponse(res)).catch((error) => {
			res.statusCode = 500;
			res.end(String(error && error.message));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;

	const credentials = {
		accessToken: sandbox.demoToken,
		baseUrl: sandbox.baseUrl,
		appBaseUrl: sandbox.appBaseUrl,
	};

	function additionalData(extra = {}) {
		const credentialsHelper = packageCredentialsHelper(
			{ ...credentials, ...credentialChanges },
			{ onRequest: (options) => requestHook(options) },
		);
		// As n8n's CredentialsHelper.getDecrypted: the stored credential is decrypted with this
		// instance's key first.
		if (storedCredential)
			credentialsHelper.getDecrypted = async () => await storedCredential.getData();
		return {
			credentialsHelper,
			...instanceUrls(webhookOrigin ?? origin),
			logger: log,
			...extra,
		};
	}

	function buildWorkflow(stored, staticData) {
		const node = {
			id: `${stored.id}-trigger`,
			name: NODE_NAME,
			type: NODE_TYPE,
			typeVersion: 1.1,
			position: [0, 0],
			webhookId: stored.webhookId,
			parameters: stored.parameters,
			credentials: { inventoryOpsApi: { id: 'sandbox', name: 'Sandbox' } },
		};
		const workflow = new Workflow({
			id: stored.id,
			name: stored.name,
			nodes: [node],
			connections: {},
			active: stored.active,
			nodeTypes,
			staticData: clone(staticData),
			settings: { executionOrder: 'v1' },
		});
		return { workflow, node: workflow.getNode(NODE_NAME) };
	}

	function webhookData(stored, isTest) {
		const description = nodeTypes.getByNameAndVersion(NODE_TYPE, 1.1).description.webhooks[0];
		return {
			httpMethod: 'POST',
			node: NODE_NAME,
			path: `${stored.webhookId}/${description.path}`,
			webhookDescription: description,
			workflowId: stored.id,
			isTest,
		};
	}

	function methods() {
		return nodeTypes.getByNameAndVersion(NODE_TYPE, 1.1).webhookMethods.default;
	}

	function hookContext(workflow, node, stored, mode, activation, isTest) {
		const context = new HookContext(
			workflow,
			node,
			additionalData(),
			mode,
			activation,
			webhookData(stored, isTest),
		);
		// The base context's logger comes from the DI container (silent in tests); this one records
		// warnings.
		Object.defineProperty(context, 'logger', { value: log });
		return context;
	}

	const saved = (workflow) => clone(workflow.staticData);

	/** A workflow as the database holds it. `parameters` are the trigger's node parameters. */
	function storedWorkflow({ id, name, parameters }) {
		return { id, name, parameters, webhookId: `hook-${id}`, active: false, staticData: {} };
	}

	/**
	 * Publishing: checkExists, create when it says false; a failed create is cleaned up by delete,
	 * then thrown.
	 */
	async function activate(stored) {
		const { workflow, node } = buildWorkflow(stored, stored.staticData);
		const context = hookContext(workflow, node, stored, 'trigger', 'activate', false);
		try {
			if (!(await methods().checkExists.call(context))) await methods().create.call(context);
		} catch (error) {
			await deactivate(stored);
			throw error;
		}
		stored.staticData = saved(workflow);
		stored.active = true;
		listen(
			workflow.getNode(NODE_NAME),
			stored,
			false,
			() => stored.staticData,
			(data) => (stored.staticData = data),
		);
	}

	/**
	 * Publishing as n8n 2.x's publication service does it (webhook-trigger-registrar.js): a failed
	 * create is followed by delete on the same Workflow, whose static data is then saved, failed
	 * attempt or not; n8n tries again with it.
	 */
	async function activateAs2x(stored) {
		const { workflow, node } = buildWorkflow(stored, stored.staticData);
		try {
			const context = hookContext(workflow, node, stored, 'trigger', 'activate', false);
			if (!(await methods().checkExists.call(context))) await methods().create.call(context);
		} catch (error) {
			await methods().delete.call(hookContext(workflow, node, stored, 'internal', 'update', false));
			throw error;
		} finally {
			stored.staticData = saved(workflow);
		}
		stored.active = true;
		listen(
			workflow.getNode(NODE_NAME),
			stored,
			false,
			() => stored.staticData,
			(data) => (stored.staticData = data),
		);
	}

	/**
	 * create alone, as n8n calls it whenever checkExists said false (e.g. the webhook URL changed).
	 */
	async function createOnly(stored) {
		const { workflow, node } = buildWorkflow(stored, stored.staticData);
		await methods().create.call(hookContext(workflow, node, stored, 'trigger', 'activate', false));
		stored.staticData = saved(workflow);
	}

	/** Unpublishing: delete on the stored static data, which is then saved. */
	async function deactivate(stored) {
		const { workflow, node } = buildWorkflow(stored, stored.staticData);
		const result = await methods().delete.call(
			hookContext(workflow, node, stored, 'internal', 'update', false),
		);
		stored.staticData = saved(workflow);
		stored.active = false;
		return result;
	}

	/**
	 * "Listen for test event": n8n builds the workflow with empty static data (`copy: false`); `copy:
	 * true` starts from the production static data instead, to show that even then the production
	 * handlers are left alone.
	 */
	async function listenForTest(stored, { copy = false } = {}) {
		const { workflow, node } = buildWorkflow(stored, copy ? stored.staticData : {});
		const context = hookContext(workflow, node, stored, 'manual', 'manual', true);
		if (!(await methods().checkExists.call(context))) await methods().create.call(context);
		const registration = { staticData: saved(workflow) };
		listen(
			node,
			stored,
			true,
			() => registration.staticData,
			(data) => (registration.staticData = data),
		);
		return registration;
	}

	async function stopTest(stored, registration) {
		const { workflow, node } = buildWorkflow(stored, registration.staticData);
		const result = await methods().delete.call(
			hookContext(workflow, node, stored, 'internal', 'update', true),
		);
		registration.staticData = saved(workflow);
		return result;
	}

	function webhookUrl(stored, isTest) {
		const { workflow, node } = buildWorkflow(stored, {});
		const context = hookContext(workflow, node, stored, 'trigger', 'activate', isTest);
		return context.getNodeWebhookUrl('default');
	}

	function listen(_node, stored, isTest, load, save) {
		listeners.set(new URL(webhookUrl(stored, isTest)).pathname, { stored, isTest, load, save });
	}

	async function handleDelivery(req, res) {
		const listener = listeners.get(req.url.split('?')[0]);
		if (!listener) {
			res.status(404).json({ message: 'webhook not registered' });
			return;
		}
		const raw = await readBody(req);
		// As n8n's body parser: JSON is parsed when the request says it is JSON; any other body arrives
		// as text; an empty body is left unset (parseBody reads nothing from it), so webhook() gets
		// undefined.
		try {
			req.body =
				raw === ''
					? undefined
					: /json/i.test(req.headers['content-type'] ?? '')
						? JSON.parse(raw)
						: raw;
		} catch {
			req.body = raw;
		}
		const { stored, isTest } = listener;
		const { workflow, node } = buildWorkflow(stored, isTest ? {} : listener.load());
		if (isTest) workflow.setTestStaticData(clone(listener.load()));
		const context = new WebhookContext(
			workflow,
			node,
			additionalData({ httpRequest: req, httpResponse: res }),
			isTest ? 'manual' : 'webhook',
			webhookData(stored, isTest),
			[],
		);
		if (legacyWebhookContext) {
			// As in n8n versions before getWebhookResourceUrl: getNodeWebhookUrl gives the production URL
			// even on a test request, and there is no other way to ask for the served URL.
			Object.defineProperty(context, 'getWebhookResourceUrl', { value: undefined });
		}
		const result = await nodeTypes.getByNameAndVersion(NODE_TYPE, 1.1).webhook.call(context);
		listener.save(isTest ? clone(workflow.testStaticData) : saved(workflow));
		if (result.noWebhookResponse) return;
		if (result.workflowData) {
			runs.push({
				workflowId: stored.id,
				test: isTest,
				items: result.workflowData[0].map((item) => item.json),
			});
			res.status(200).json({ message: 'Workflow was started' });
			return;
		}
		res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
	}

	async function admin(method, route, body) {
		const response = await fetch(`${sandbox.adminUrl}${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const answer = await response.json();
		if (!response.ok)
			throw new Error(`sandbox admin ${route}: ${response.status} ${JSON.stringify(answer)}`);
		return answer;
	}

	return {
		origin,
		runs,
		warnings,
		storedWorkflow,
		activate,
		activateAs2x,
		createOnly,
		deactivate,
		listenForTest,
		stopTest,
		webhookUrl,
		staticState: (data) => (data[STATIC_KEY] ?? {}).inventoryOpsTrigger,
		/**
		 * The service's answer to an id it does not know, as a publish learnt it (issue 58), in the
		 * node's static data.
		 */
		unknownIdAnswer: (data) => (data[STATIC_KEY] ?? {}).unknownIdAnswer,
		admin,
		handlers: async () => (await admin('GET', '/handlers')).handlers,
		emit: (type, data, id) => admin('POST', '/events?wait=true', { type, data, ...(id && { id }) }),
		deliveries: async (eventId) =>
			(await admin('GET', `/deliveries?event_id=${eventId}`)).deliveries,
		/** Hands webhook() a context without getWebhookResourceUrl, as older n8n versions do. */
		useLegacyWebhookContext(legacy) {
			legacyWebhookContext = legacy;
		},
		/**
		 * The credential as n8n's database holds it: `encrypted` data that n8n-core's Credentials
		 * decrypts (and fails to, as after a change of n8n's encryption key); undefined goes back to
		 * the plain test credential.
		 */
		storeEncryptedCredential(encrypted) {
			storedCredential =
				encrypted === undefined
					? undefined
					: new Credentials({ id: 'sandbox', name: 'Sandbox' }, 'inventoryOpsApi', encrypted);
		},
		/** Replaces fields of the plain test credential from now on (`{}` gives the sandbox's back). */
		changeCredential(changes) {
			credentialChanges = changes;
		},
		/** Runs `hook(requestOptions)` before every request the trigger sends to the service. */
		beforeRequest(hook) {
			requestHook = hook;
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/**
 * The URLs n8n's additional data carries for an instance served at `origin` (webhook contexts read
 * them).
 */
function instanceUrls(origin) {
	return {
		webhookBaseUrl: `${origin}/webhook`,
		webhookTestBaseUrl: `${origin}/webhook-test`,
		webhookWaitingBaseUrl: `${origin}/webhook-waiting`,
		formWaitingBaseUrl: `${origin}/form-waiting`,
		restApiUrl: `${origin}/rest`,
		instanceBaseUrl: `${origin}/`,
		variables: {},
	};
}

module.exports = { createTriggerHarness, instanceUrls, NODE_NAME };
