// Runs nodes through n8n's REAL execution engine in-process: a real Workflow (n8n-workflow)
// executed by WorkflowExecute (n8n-core), as n8n tests its own nodes. Only what a test cannot run
// is stood in for: the DI services InstanceSettings (the real one writes ~/.n8n) and Logger (the
// real one prints a stack per node error), and the credentials store (a credentials helper that
// hands out the test's credential and applies the credential type's `authenticate` the way n8n's
// server does). n8n's own NodeTestHarness is not published; this does its job with published
// packages. What it rests on: exactly one copy of n8n-workflow (n8n-core pins it exactly, so
// devDependencies pin the same version); CommonJS (n8n-workflow's ESM build has extensionless
// imports); absolute webhookWaitingBaseUrl/formWaitingBaseUrl (empty ones crash getNodeParameter in
// new URL()); and the node description and workflow node both naming the credential, or
// getCredentials throws.
//
//   const { createEngine } = require('../helpers/engine');
//   const engine = createEngine();                       // our node + credential from dist/
//   const result = await engine.run({
//     node: { type: 'inventoryOps', parameters: {...}, onError: 'continueRegularOutput' },
// items: [{ store_id: 's1' }], // json objects (or { json, pairedItem })
//     credentials: { accessToken, baseUrl, appBaseUrl },   // for the node's credential type
//   });
// result.items -> the node's output items on its first output; result.error -> the execution error,
// if any
const path = require('node:path');

const { Container } = require('@n8n/di');
const { Logger } = require('@n8n/backend-common');
const {
	CredentialTestContext,
	ExecutionLifecycleHooks,
	InstanceSettings,
	WorkflowExecute,
} = require('n8n-core');
const { ICredentialsHelper, NodeHelpers, Workflow } = require('n8n-workflow');

const DIST = path.resolve(__dirname, '../../dist');
const START_NODE_TYPE = 'test.start';
const PACKAGE_PREFIX = 'n8n-nodes-inventory-ops.';

const silentLogger = {
	error() {},
	warn() {},
	info() {},
	debug() {},
	scoped() {
		return silentLogger;
	},
};

let containerReady = false;
function prepareContainer() {
	if (containerReady) return;
	Container.set(Logger, silentLogger);
	Container.set(InstanceSettings, {
		n8nFolder: path.join(DIST, '..', '.cache', 'n8n-test'),
		staticCacheDir: path.join(DIST, '..', '.cache', 'n8n-test', 'cache'),
		customExtensionDir: path.join(DIST, '..', '.cache', 'n8n-test', 'custom'),
		nodesDownloadDir: path.join(DIST, '..', '.cache', 'n8n-test', 'nodes'),
		instanceId: 'test-instance',
		hostId: 'test-host',
		instanceType: 'main',
		isDocker: false,
		encryptionKey: 'test-encryption-key',
	});
	containerReady = true;
}

/**
 * The items each run starts with, by run: handed to the start node by reference, as n8n hands one
 * node's output to the next. Through a parameter, n8n would deep-copy and resolve them (10,000
 * items cost the bench ~10 MB of allocations that no real workflow pays).
 */
const startItems = new Map();
let runCount = 0;

/** A tiny start node: no inputs, emits the items of its run (`startItems`). */
class StartNode {
	description = {
		displayName: 'Test Start',
		name: START_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits the items of its run',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Run', name: 'run', type: 'string', default: '' }],
	};

	async execute() {
		return [startItems.get(this.getNodeParameter('run', 0)).map((json) => ({ json }))];
	}
}

/** Our shipped classes, loaded from the compiled package. */
function packageTypes() {
	const { InventoryOps } = require(path.join(DIST, 'nodes/InventoryOps/InventoryOps.node.js'));
	const types = { inventoryOps: InventoryOps };
	try {
		const { InventoryOpsTrigger } = require(
			path.join(DIST, 'nodes/InventoryOps/InventoryOpsTrigger.node.js'),
		);
		types.inventoryOpsTrigger = InventoryOpsTrigger;
	} catch {
		// The trigger may not be built yet; action node tests do not need it.
	}
	return types;
}

function packageCredentialTypes() {
	const { InventoryOpsApi } = require(
		path.join(DIST, 'credentials/InventoryOpsApi.credentials.js'),
	);
	return { inventoryOpsApi: new InventoryOpsApi() };
}

/**
 * A node-types registry as n8n's NodeTypes offers it; each type is known by its short and full
 * name.
 */
function createNodeTypes(classesOrInstances) {
	const byName = new Map();
	for (const [name, type] of Object.entries(classesOrInstances)) {
		const instance = typeof type === 'function' ? new type() : type;
		byName.set(name, instance);
		byName.set(PACKAGE_PREFIX + name, instance);
	}
	const lookup = (name) => {
		const type = byName.get(name);
		if (!type) throw new Error(`Unknown node type in the test registry: ${name}`);
		return type;
	};
	return {
		getByName: lookup,
		getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(lookup(name), version),
		getKnownTypes: () =>
			Object.fromEntries([...byName.keys()].map((name) => [name, { className: name }])),
	};
}

/**
 * The part of n8n's CredentialsHelper that executions use: decrypted data and generic
 * `authenticate`.
 */
class TestCredentialsHelper extends ICredentialsHelper {
	/**
	 * `onRequest(requestOptions)` runs just before each authenticated request leaves (a test's hook).
	 */
	constructor(credentialTypes, { onRequest } = {}) {
		super();
		this.credentialTypes = credentialTypes;
		this.data = {};
		this.onRequest = onRequest;
	}

	async getDecrypted(_additionalData, _nodeCredentials, type) {
		if (!this.data[type]) throw new Error(`The test gave no credential of type ${type}`);
		return { ...this.data[type] };
	}

	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		if (this.onRequest) await this.onRequest(requestOptions);
		const authenticate = this.credentialTypes[typeName]?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate || authenticate.type !== 'generic') return requestOptions;
		const resolve = (value) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					)
				: value;
		for (const [target, entries] of Object.entries(authenticate.properties)) {
			requestOptions[target] = requestOptions[target] ?? {};
			for (const [key, value] of Object.entries(entries))
				requestOptions[target][key] = resolve(value);
		}
		return requestOptions;
	}

	getParentTypes() {
		return [];
	}
	isCredentialUsableByNode() {
		return true;
	}
	async preAuthentication() {
		return undefined;
	}
	async runPreAuthentication() {
		return undefined;
	}
	async getCredentials() {
		throw new Error('not used in tests');
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
	getCredentialsProperties(type) {
		return this.credentialTypes[type]?.properties ?? [];
	}
}

function toItems(items) {
	return (items ?? [{}]).map((item) => (item && item.json !== undefined ? item.json : item));
}

/**
 * createEngine({ nodeTypes, credentialTypes }): both default to this package's built node and
 * credential classes; pass more node types (classes or instances) by short name.
 */
function createEngine({ nodeTypes = {}, credentialTypes = {} } = {}) {
	prepareContainer();
	const registry = createNodeTypes({
		[START_NODE_TYPE]: StartNode,
		...packageTypes(),
		...nodeTypes,
	});
	const allCredentialTypes = { ...packageCredentialTypes(), ...credentialTypes };

	/**
	 * Runs Start -> node once. `node`: { type, parameters, onError?, continueOnFail?, typeVersion?,
	 * name?, settings? } (`settings`: more node settings, e.g. { retryOnFail: true, waitBetweenTries:
	 * 0 }); `credentials`: the decrypted data for the node's (first) credential type, or { [type]:
	 * data }. `subNodes`: nodes connected into the node under test by a non-main connection, e.g. a
	 * tool node into an agent: [{ name, type, parameters, connectionType: 'ai_tool' }]; they get the
	 * same credential. Returns { items, outputs, error, run }: `items` is the first output, `outputs`
	 * all outputs of the node.
	 */
	async function run({ node, items, credentials, credentialType, subNodes = [] }) {
		const nodeType = registry.getByNameAndVersion(node.type, node.typeVersion);
		const declared = nodeType.description.credentials ?? [];
		const type = credentialType ?? declared[0]?.name;
		const credentialsHelper = new TestCredentialsHelper(allCredentialTypes);
		if (credentials && type) credentialsHelper.data[type] = credentials;

		const name = node.name ?? 'Node under test';
		const runKey = `run-${++runCount}`;
		startItems.set(runKey, toItems(items));
		const workflowNodes = [
			{
				id: 'start',
				name: 'Start',
				type: START_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { run: runKey },
			},
			{
				id: 'under-test',
				name,
				type: node.type,
				typeVersion: node.typeVersion ?? 1,
				position: [200, 0],
				parameters: node.parameters ?? {},
				...(node.onError && { onError: node.onError }),
				...(node.continueOnFail && { continueOnFail: true }),
				...node.settings,
				...(type && {
					credentials: { [type]: { id: 'test-credential', name: 'Test credential' } },
				}),
			},
			...subNodes.map(({ connectionType, ...subNode }, index) => ({
				id: `sub-node-${index}`,
				typeVersion: 1,
				position: [200, 200 + 100 * index],
				...subNode,
				...(type && {
					credentials: { [type]: { id: 'test-credential', name: 'Test credential' } },
				}),
			})),
		];
		const subConnections = subNodes.map(({ name: subName, connectionType }) => [
			subName,
			{ [connectionType]: [[{ node: name, type: connectionType, index: 0 }]] },
		]);
		const workflow = new Workflow({
			id: 'test-workflow',
			name: 'Test workflow',
			nodes: workflowNodes,
			connections: {
				Start: { main: [[{ node: name, type: 'main', index: 0 }]] },
				...Object.fromEntries(subConnections),
			},
			active: false,
			nodeTypes: registry,
			settings: { executionOrder: 'v1' },
		});
		const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
			id: workflow.id,
			name: workflow.name,
			nodes: workflowNodes,
			connections: workflow.connectionsBySourceNode,
			active: false,
			settings: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		});
		const additionalData = {
			hooks,
			credentialsHelper,
			executeWorkflow: async () => {
				throw new Error('not used in tests');
			},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://127.0.0.1:5678/rest',
			instanceBaseUrl: 'http://127.0.0.1:5678/',
			formBaseUrl: 'http://127.0.0.1:5678/form',
			formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
			formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
			mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
			mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
			variables: {},
			logAiEvent: () => {},
		};
		const execution = new WorkflowExecute(additionalData, 'manual');
		let result;
		try {
			result = await execution.run({ workflow, startNode: workflow.getNode('Start') });
		} catch (error) {
			// Raised before any node ran, e.g. a required parameter left empty (n8n checks that up front
			// too).
			return { items: [], outputs: [], error, run: undefined };
		} finally {
			startItems.delete(runKey);
		}
		const nodeRuns = result.data.resultData.runData[name] ?? [];
		const outputs = nodeRuns[0]?.data?.main ?? [];
		return {
			items: outputs[0] ?? [],
			outputs,
			error: result.data.resultData.error ?? nodeRuns[0]?.error,
			run: result,
		};
	}

	return { run, nodeTypes: registry };
}

/**
 * A credentials helper holding this package's credential `data` (decrypted), as n8n's server would.
 */
function packageCredentialsHelper(data, { onRequest } = {}) {
	const helper = new TestCredentialsHelper(packageCredentialTypes(), { onRequest });
	helper.data.inventoryOpsApi = data;
	return helper;
}

/**
 * The credential dialog's Test button as n8n's CredentialsTester runs it
 * (n8n/dist/services/credentials-tester.service.js): the credential type's own `test` request wins
 * when it has one; otherwise the first node listing the credential with a `testedBy` name gives its
 * `methods.credentialTest[name]`, called in n8n-core's real CredentialTestContext. Resolves to {
 * status, message }, or throws when n8n would find no test at all.
 */
function credentialTester(credentialName = 'inventoryOpsApi') {
	prepareContainer();
	const credentialType = packageCredentialTypes()[credentialName];
	if (credentialType.test)
		throw new Error(
			`${credentialName} has a declarative test: n8n would run it and never testedBy`,
		);
	for (const type of Object.values(packageTypes())) {
		const node = new type();
		const entry = (node.description.credentials ?? []).find(
			(credential) => credential.name === credentialName,
		);
		if (typeof entry?.testedBy !== 'string') continue;
		const method = node.methods?.credentialTest?.[entry.testedBy];
		if (typeof method !== 'function')
			throw new Error(`${node.description.name}: testedBy names no credentialTest method`);
		return async (data) =>
			await method.call(new CredentialTestContext({}), {
				id: 'test',
				name: 'test',
				type: credentialName,
				data,
			});
	}
	throw new Error(`No node tests ${credentialName}`);
}

module.exports = {
	createEngine,
	createNodeTypes,
	credentialTester,
	packageCredentialsHelper,
	START_NODE_TYPE,
};
