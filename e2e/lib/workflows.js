// Workflow JSON for the e2e tests and the `npm run dev` examples, built from the nodes' real type
// names and parameters (see nodes/InventoryOps/actions/** and trigger/properties.ts).
const crypto = require('node:crypto');

const ACTION_TYPE = 'n8n-nodes-inventory-ops.inventoryOps';
const TRIGGER_TYPE = 'n8n-nodes-inventory-ops.inventoryOpsTrigger';
const CREDENTIAL_TYPE = 'inventoryOpsApi';
const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';
// The trigger's one version.
const TRIGGER_VERSION = 1.1;

/**
 * Any node as the editor saves it; `credential` (optional) is attached as our credential, or as
 * `credentialType`.
 */
function node(
	name,
	type,
	parameters = {},
	{
		position = [0, 0],
		typeVersion = 1,
		credential,
		credentialType = CREDENTIAL_TYPE,
		webhookId,
	} = {},
) {
	return {
		id: crypto.randomUUID(),
		name,
		type,
		typeVersion,
		position,
		...(webhookId ? { webhookId } : {}),
		parameters,
		...(credential
			? { credentials: { [credentialType]: { id: credential.id, name: credential.name } } }
			: {}),
	};
}

function manualTrigger(position = [0, 0]) {
	return node(MANUAL_TRIGGER, 'n8n-nodes-base.manualTrigger', {}, { position });
}

/** The action node (or, with `type`, a type n8n derives from it, such as its AI tool). */
function actionNode(name, credential, parameters, position = [260, 0], type = ACTION_TYPE) {
	return node(name, type, parameters, { position, credential });
}

function triggerNode(name, credential, parameters, position = [0, 0]) {
	// The editor gives every webhook node a webhookId; the production URL is
	// /webhook/<webhookId>/webhook.
	return node(name, TRIGGER_TYPE, parameters, {
		position,
		credential,
		typeVersion: TRIGGER_VERSION,
		webhookId: crypto.randomUUID(),
	});
}

function noOp(name, position) {
	return node(name, 'n8n-nodes-base.noOp', {}, { position });
}

/** Connects the nodes one after another, in the order given. */
function chain(name, nodes) {
	const connections = {};
	for (let index = 0; index < nodes.length - 1; index += 1) {
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** Manual Trigger -> one or more Inventory Ops nodes, each `{ name, parameters }`. */
function actionWorkflow(name, credential, steps) {
	const nodes = [manualTrigger([0, 0])];
	steps.forEach((step, index) =>
		nodes.push(actionNode(step.name, credential, step.parameters, [260 * (index + 1), 0])),
	);
	return chain(name, nodes);
}

/** Inventory Ops Trigger (for the given event types) -> a No Op, or -> the given action steps. */
function triggerWorkflow(
	name,
	credential,
	events,
	{ triggerName = 'Inventory Ops Trigger', steps, options = {} } = {},
) {
	const nodes = [triggerNode(triggerName, credential, { events, options }, [0, 0])];
	if (steps) {
		steps.forEach((step, index) =>
			nodes.push(actionNode(step.name, credential, step.parameters, [260 * (index + 1), 0])),
		);
	} else {
		nodes.push(noOp('Received', [260, 0]));
	}
	return chain(name, nodes);
}

/** The output items of a node in a finished execution (public API, includeData=true). */
function outputOf(execution, nodeName) {
	const runs =
		execution.data && execution.data.resultData && execution.data.resultData.runData[nodeName];
	if (!runs || runs.length === 0) return undefined;
	const main = runs[runs.length - 1].data && runs[runs.length - 1].data.main;
	return main && main[0] ? main[0].map((item) => item.json) : [];
}

function errorOf(execution) {
	return execution.data && execution.data.resultData && execution.data.resultData.error;
}

module.exports = {
	ACTION_TYPE,
	TRIGGER_TYPE,
	TRIGGER_VERSION,
	CREDENTIAL_TYPE,
	MANUAL_TRIGGER,
	node,
	manualTrigger,
	actionNode,
	chain,
	actionWorkflow,
	triggerWorkflow,
	outputOf,
	errorOf,
};
