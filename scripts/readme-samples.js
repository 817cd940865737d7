// README's sample outputs, taken from the node itself: each operation and the trigger run against
// the sandbox (sandbox/, over real HTTP) through n8n's real engine (test/helpers/engine.js,
// test/trigger/helpers/harness.js), the built package in dist/. `npm run readme:samples` writes
// them into README.md between the markers
//   <!-- sample: <name> -->  ```json ... ```  <!-- /sample -->
// and test/package/readmeSamples.test.js runs them again and fails when README's sample differs
// from today's output in keys or value types (ids, dates and numbers may differ from run to run).
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../test/helpers/sandbox');
const { createEngine } = require('../test/helpers/engine');
const { createTriggerHarness } = require('../test/trigger/helpers/harness');

const { DEFAULT_SWITCHES } = require('../sandbox/switches');

const README = path.resolve(__dirname, '..', 'README.md');

/**
 * Stands in README for a part of the service's answer that is output as it came and too long to
 * show.
 */
const ELIDED = '…';
/**
 * Per sample, the paths shown as ELIDED: Restore Inventory outputs the service's whole shipment
 * records.
 */
const ELIDE = {
	'shipment-restore-inventory': [
		['shipments'],
		['restoredShipment', 'request'],
		['restoredShipment', 'response'],
	],
};

/**
 * One event per family the trigger lists; the `data` is the sandbox's (the service does not publish
 * its own).
 */
const EVENT_SAMPLES = [
	[
		'order.shipped',
		(order) => ({ store_id: order.store_id, order_number: order.order_number, status: 'shipped' }),
	],
	['item.inventory', (order, item) => ({ item_id: item.item_id, sku: item.sku, on_hand: 12 })],
	[
		'shipment.voided',
		(order) => ({
			store_id: order.store_id,
			order_number: order.order_number,
			shipment_id: 'shp_1',
		}),
	],
	['purchase_order.received', () => ({ purchase_order_id: 'po_1', status: 'received' })],
	['transfer_order.created', () => ({ transfer_order_id: 'to_1', status: 'created' })],
];

/**
 * `{ <name>: json }`: one output item of each operation, and `trigger-events`, a list of one event
 * item per family, as the node gives them today.
 */
async function takeSamples() {
	// The documented answers whatever SANDBOX_PROFILE a test run has: README describes the service as
	// documented.
	const sandbox = await startSandbox({
		port: 0,
		orders: 20,
		seed: 1,
		rateLimit: false,
		delivery: { maxAttempts: 1, baseDelayMs: 0, timeoutMs: 5000 },
		config: DEFAULT_SWITCHES,
	});
	const engine = createEngine();
	const harness = await createTriggerHarness({ sandbox: sandbox.server });
	const run = async (parameters) => {
		const result = await engine.run({
			node: { type: 'inventoryOps', parameters },
			items: [{}],
			credentials: sandbox.credentials(),
		});
		if (result.error)
			throw new Error(`${parameters.resource} ${parameters.operation}: ${result.error.message}`);
		return result.items[0].json;
	};
	try {
		const [order] = await sandbox.orders({ limit: 1 });
		const [item] = await sandbox.items();
		const { data: shipments } = await fetch(
			`${sandbox.adminUrl}/shipments?deducted=true&limit=1`,
		).then(async (response) => ({ data: await response.json() }));
		const [shipment] = shipments.shipments;
		const samples = {};
		samples['order-get-many'] = await run({
			resource: 'order',
			operation: 'lookUp',
			storeId: order.store_id,
			orderNumber: order.order_number,
		});
		samples['kit-create'] = await run({
			resource: 'kit',
			operation: 'create',
			name: 'Starter Bundle',
			sku: 'KIT-STARTER-01',
			kitItems: { item: [{ itemId: item.item_id, quantity: 2 }] },
		});
		samples['shipment-restore-inventory'] = await run({
			resource: 'shipment',
			operation: 'restoreInventory',
			storeId: shipment.store_id,
			orderNumber: shipment.order_number,
			shipmentId: shipment._id,
		});
		samples['webhook-handler-add'] = await run({
			resource: 'webhookHandler',
			operation: 'add',
			eventType: 'order.shipped',
			name: 'Notify warehouse',
			url: 'https://example.com/hooks/inventory',
		});
		samples['webhook-handler-remove'] = await run({
			resource: 'webhookHandler',
			operation: 'remove',
			handlerId: samples['webhook-handler-add']._id,
		});

		const stored = harness.storedWorkflow({
			id: 'samples',
			name: 'README samples',
			parameters: {
				events: [
					'order.shipped',
					'item.inventory',
					'shipment.voided',
					'purchase_order.*',
					'transfer_order.*',
				],
				customEventTypes: '',
				options: {},
			},
		});
		await harness.activate(stored);
		samples['trigger-events'] = [];
		for (const [type, data] of EVENT_SAMPLES) {
			const before = harness.runs.length;
			await harness.emit(type, data(order, item));
			if (harness.runs.length !== before + 1)
				throw new Error(`the ${type} event started ${harness.runs.length - before} runs, not 1`);
			samples['trigger-events'].push(harness.runs.at(-1).items[0]);
		}
		await harness.deactivate(stored);
		for (const [name, paths] of Object.entries(ELIDE))
			for (const at of paths) elide(samples[name], at);
		return samples;
	} finally {
		await harness.close();
		await sandbox.close();
	}
}

function elide(object, [key, ...rest]) {
	if (!(key in object)) throw new Error(`no field ${key} to shorten`);
	if (rest.length === 0) object[key] = ELIDED;
	else elide(object[key], rest);
}

/** JSON on one line, spaced as README's prose writes it: `{ "sku": "S1", "quantity": 2 }`. */
function flatJson(value) {
	if (value === null || typeof value !== 'object') return JSON.stringify(value);
	if (Array.isArray(value)) return `[${value.map(flatJson).join(', ')}]`;
	const entries = Object.entries(value).map(
		([key, element]) => `${JSON.stringify(key)}: ${flatJson(element)}`,
	);
	return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

/**
 * An object of short fields as a few lines, each filled up to README's width: the trigger's event
 * items.
 */
function packedJson(object, indent) {
	const lines = [];
	for (const entry of Object.entries(object).map(
		([key, element]) => `${JSON.stringify(key)}: ${flatJson(element)}`,
	)) {
		const last = lines.length - 1;
		if (last >= 0 && indent.length + lines[last].length + entry.length + 4 <= 118)
			lines[last] += `, ${entry}`;
		else lines.push(entry);
	}
	return `{ ${lines.join(`,\n${indent}  `)} }`;
}

/**
 * JSON with each object or list that fits on one line of README written on one line; a list of
 * objects packed.
 */
function compactJson(value, indent = '') {
	const flat = flatJson(value);
	if (value === null || typeof value !== 'object' || indent.length + flat.length <= 120)
		return flat;
	if (
		Array.isArray(value) &&
		value.every(
			(element) => element !== null && typeof element === 'object' && !Array.isArray(element),
		)
	) {
		return `[\n${value.map((element) => `${indent}  ${packedJson(element, `${indent}  `)}`).join(',\n')}\n${indent}]`;
	}
	const inner = `${indent}  `;
	const entries = Array.isArray(value)
		? value.map((element) => inner + compactJson(element, inner))
		: Object.entries(value).map(
				([key, element]) => `${inner}${JSON.stringify(key)}: ${compactJson(element, inner)}`,
			);
	return Array.isArray(value)
		? `[\n${entries.join(',\n')}\n${indent}]`
		: `{\n${entries.join(',\n')}\n${indent}}`;
}

const MARKER = /<!-- sample: ([a-z-]+) -->\n```json\n([\s\S]*?)\n```\n<!-- \/sample -->/g;

/** `{ <name>: json }` of every sample block in README's text. */
function readmeSamples(text = fs.readFileSync(README, 'utf8')) {
	return Object.fromEntries(
		[...text.matchAll(MARKER)].map(([, name, json]) => [name, JSON.parse(json)]),
	);
}

/**
 * README's text with each sample block's JSON replaced by `samples[name]`; a block with no sample
 * is an error.
 */
function withSamples(text, samples) {
	return text.replace(MARKER, (block, name) => {
		if (!(name in samples))
			throw new Error(`README has a sample block "${name}" that nothing takes`);
		return `<!-- sample: ${name} -->\n\`\`\`json\n${compactJson(samples[name])}\n\`\`\`\n<!-- /sample -->`;
	});
}

/**
 * Where README's sample and today's output differ in what a sample promises a user: its keys and
 * the types of their values, not the values (ids, dates and numbers may differ). Lists are compared
 * element by element (an element today's list lacks, with its first: the node gives every element
 * one layout); an empty list matches any list, and ELIDED any value. `[]` when they agree.
 */
function shapeDifferences(shown, today, at = '') {
	const kind = (value) => (value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value);
	if (shown === ELIDED) return [];
	if (kind(shown) !== kind(today))
		return [`${at || 'the item'}: README shows ${kind(shown)}, the node gives ${kind(today)}`];
	if (kind(shown) === 'list') {
		if (today.length === 0) return [];
		return shown.flatMap((element, index) =>
			shapeDifferences(element, today[index] ?? today[0], `${at}[${index}]`),
		);
	}
	if (kind(shown) !== 'object') return [];
	const name = (key) => (at ? `${at}.${key}` : key);
	return [
		...Object.keys(shown)
			.filter((key) => !(key in today))
			.map((key) => `${name(key)}: README shows it, the node no longer gives it`),
		...Object.keys(today)
			.filter((key) => !(key in shown))
			.map((key) => `${name(key)}: the node gives it, README does not show it`),
		...Object.keys(shown)
			.filter((key) => key in today)
			.flatMap((key) => shapeDifferences(shown[key], today[key], name(key))),
	];
}

async function main() {
	const only = process.argv.slice(2);
	const samples = await takeSamples();
	const text = fs.readFileSync(README, 'utf8');
	const present = Object.keys(readmeSamples(text));
	const wanted = only.length > 0 ? only : present;
	const chosen = Object.fromEntries(
		present.map((name) => [
			name,
			wanted.includes(name) ? samples[name] : readmeSamples(text)[name],
		]),
	);
	fs.writeFileSync(README, withSamples(text, chosen));
	const missing = Object.keys(samples).filter((name) => !present.includes(name));
	process.stdout.write(`readme-samples: wrote ${wanted.join(', ')}\n`);
	if (missing.length > 0)
		process.stdout.write(`readme-samples: README has no block for ${missing.join(', ')}\n`);
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`readme-samples: failed: ${error.stack ?? error}\n`);
		process.exit(1);
	});
}

module.exports = { takeSamples, readmeSamples, withSamples, shapeDifferences };
