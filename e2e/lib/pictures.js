// README's pictures and what each depends on. `npm run e2e:screenshot` (e2e/screenshot.js) takes
// them and records in docs/pictures.json, per picture, a fingerprint of what it shows that comes
// from the package: the node and credential descriptions on screen (fields, options, subtitles,
// icons), the output fields (README's sample of that operation, which
// test/package/readmeSamples.test.js keeps equal to the node's output) and the node's messages.
// test/package/pictures.test.js computes the fingerprints again from the build (dist/) and names
// each picture whose fingerprint no longer matches: `npm run e2e:screenshot -- <name>` takes only
// those again. Plain Node, no browser.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(REPO_ROOT, 'dist');
const RECORD = path.join(REPO_ROOT, 'docs', 'pictures.json');

const load = (file) => require(path.join(DIST, file));
const actionNode = () =>
	new (load('nodes/InventoryOps/InventoryOps.node.js').InventoryOps)().description;
const triggerNode = () =>
	new (load('nodes/InventoryOps/InventoryOpsTrigger.node.js').InventoryOpsTrigger)().description;
const credential = () => {
	const { properties, displayName, name } = new (load(
		'credentials/InventoryOpsApi.credentials.js',
	).InventoryOpsApi)();
	return { properties, displayName, name };
};
const icon = () =>
	fs.readFileSync(path.join(DIST, 'nodes', 'InventoryOps', 'inventoryOps.svg'), 'utf8');

/** The node's header as the canvas and the panel show it: name, subtitle, icon. */
const header = (description) => ({
	displayName: description.displayName,
	subtitle: description.subtitle,
	icon: icon(),
});

/**
 * The properties the panel shows for one operation: the resource and operation selectors, and that
 * operation's own.
 */
function operationProperties(resource, operation) {
	return actionNode().properties.filter(({ displayOptions }) => {
		const show = displayOptions?.show;
		if (!show) return true;
		if (show.resource && !show.resource.includes(resource)) return false;
		return !show.operation || show.operation.includes(operation);
	});
}

/**
 * The keys (and nested keys) of README's sample of an operation: the output fields a picture shows.
 */
function sampleKeys(name) {
	const { readmeSamples } = require('../../scripts/readme-samples');
	const keys = (value) =>
		value !== null && typeof value === 'object'
			? Array.isArray(value)
				? value.slice(0, 1).map(keys)
				: Object.fromEntries(Object.entries(value).map(([key, element]) => [key, keys(element)]))
			: typeof value;
	return keys(readmeSamples()[name]);
}

/**
 * What the node says when the service refuses a restore as a conflict (409), as the output panel
 * shows it.
 */
function restoreConflictMessage() {
	const { failureFromAnswer } = load('nodes/InventoryOps/transport/outcome.js');
	const { textsOf } = load('nodes/InventoryOps/transport/render.js');
	const body = {
		error: { message: 'The inventory of this shipment was already restored', statusCode: 409 },
	};
	return textsOf(
		failureFromAnswer(409, body, { endpoint: 'shipmentRestoreInventory', itemIndex: 0 }),
	);
}

/** Every picture README shows: its caption's subject and what it depends on. Order: README's. */
const PICTURES = {
	'editor-workflow': {
		shows: 'the canvas: the trigger on Shipment Voided, then Restore Inventory',
		dependsOn: () => ({
			trigger: header(triggerNode()),
			action: header(actionNode()),
			events: triggerNode().properties.find((property) => property.name === 'events').options,
		}),
	},
	'editor-credential': {
		shows: 'the Inventory Ops API credential, saved and tested',
		dependsOn: () => ({ credential: credential(), icon: icon() }),
	},
	'editor-get-many': {
		shows: "Order → Get Many's panel, run on two input items, its output",
		dependsOn: () => ({
			header: header(actionNode()),
			properties: operationProperties('order', 'lookUp'),
			output: sampleKeys('order-get-many'),
		}),
	},
	'editor-kit-create': {
		shows: "Kit → Create's panel, filled in and run, its output",
		dependsOn: () => ({
			header: header(actionNode()),
			properties: operationProperties('kit', 'create'),
			output: sampleKeys('kit-create'),
		}),
	},
	'editor-restore-error': {
		shows:
			"Shipment → Restore Inventory's panel, run a second time: the service's 409 as the node words it",
		dependsOn: () => ({
			header: header(actionNode()),
			properties: operationProperties('shipment', 'restoreInventory'),
			message: restoreConflictMessage(),
		}),
	},
	'editor-trigger': {
		shows: "the trigger's panel with two events selected, and its help",
		dependsOn: () => ({
			header: header(triggerNode()),
			properties: triggerNode().properties,
			panel: triggerNode().triggerPanel,
		}),
	},
};

function fingerprint(name) {
	if (!PICTURES[name])
		throw new Error(`no picture named ${name}; the pictures: ${Object.keys(PICTURES).join(', ')}`);
	return crypto
		.createHash('sha256')
		.update(JSON.stringify(PICTURES[name].dependsOn()))
		.digest('hex')
		.slice(0, 16);
}

const readRecord = () => (fs.existsSync(RECORD) ? JSON.parse(fs.readFileSync(RECORD, 'utf8')) : {});

/** Records a picture just taken: its fingerprint, what it shows and the n8n it was taken in. */
function recordPicture(name, n8nVersion) {
	const record = readRecord();
	record[name] = { shows: PICTURES[name].shows, n8n: n8nVersion, fingerprint: fingerprint(name) };
	const ordered = Object.fromEntries(
		Object.keys(PICTURES)
			.filter((key) => record[key])
			.map((key) => [key, record[key]]),
	);
	fs.writeFileSync(RECORD, `${JSON.stringify(ordered, null, 2)}\n`);
}

module.exports = { PICTURES, fingerprint, readRecord, recordPicture };
