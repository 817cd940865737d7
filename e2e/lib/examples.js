// The importable example workflows in examples/*.json, made ready for one n8n and one sandbox: the
// way a user imports them, plus the two things a user does by hand (pick the credential, point at
// their own sandbox). `npm run dev` puts them in n8n; the e2e suite imports and runs each one
// (e2e/scenarios/examples.js).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT } = require('./hosts');
const { CREDENTIAL_TYPE } = require('./workflows');

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/**
 * Where the examples expect the sandbox: what `npm run sandbox` and `npm run dev` listen on by
 * default.
 */
const DEFAULT_SANDBOX_ORIGIN = 'http://127.0.0.1:5680';

/** `[{ file, workflow }]` for every examples/*.json, in file name order. */
function readExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')),
		}));
}

/**
 * A copy of an example for this n8n: every Inventory Ops node uses `credential`, URLs of the
 * default sandbox point at `sandboxOrigin`, and each trigger gets a fresh webhookId (as the editor
 * gives a pasted webhook node), so one example can be imported twice into one n8n.
 */
function prepareExample(workflow, { credential, sandboxOrigin = DEFAULT_SANDBOX_ORIGIN }) {
	const nodes = JSON.parse(
		JSON.stringify(workflow.nodes).split(DEFAULT_SANDBOX_ORIGIN).join(sandboxOrigin),
	);
	for (const node of nodes) {
		if (node.credentials && node.credentials[CREDENTIAL_TYPE]) {
			node.credentials[CREDENTIAL_TYPE] = { id: credential.id, name: credential.name };
		}
		if (node.webhookId) node.webhookId = crypto.randomUUID();
	}
	return {
		name: workflow.name,
		nodes,
		connections: workflow.connections,
		settings: workflow.settings,
	};
}

/** Every example prepared for one n8n and sandbox, as `[{ file, workflow }]`. */
function exampleWorkflows(sandbox, credential) {
	return readExamples().map(({ file, workflow }) => ({
		file,
		workflow: prepareExample(workflow, { credential, sandboxOrigin: sandbox.origin }),
	}));
}

async function admin(sandbox, urlPath) {
	const response = await fetch(`${sandbox.adminUrl}${urlPath}`);
	if (!response.ok) throw new Error(`sandbox admin ${urlPath} answered ${response.status}`);
	return await response.json();
}

/**
 * A seeded order and one of its shipments that took stock: what the sample events of `npm run dev`
 * point at.
 */
async function seededShipment(sandbox) {
	const [shipment] = (await admin(sandbox, '/shipments?deducted=true&limit=1')).shipments;
	return {
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
		tracking_number: shipment.response.tracking_number,
	};
}

module.exports = {
	DEFAULT_SANDBOX_ORIGIN,
	EXAMPLES_DIR,
	readExamples,
	prepareExample,
	exampleWorkflows,
	seededShipment,
};
