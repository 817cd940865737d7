// The example workflows (examples/*.json) checked against the built nodes, without n8n: every
// parameter they set on an Inventory Ops node is one the node shows for that resource and operation
// (n8n drops any other one on import without a word), and they only point at the default sandbox.
// The e2e suite imports and runs each one.
const fs = require('node:fs');
const path = require('node:path');
const { NodeHelpers } = require('n8n-workflow');

const { InventoryOps } = require('../../dist/nodes/InventoryOps/InventoryOps.node.js');
const {
	InventoryOpsTrigger,
} = require('../../dist/nodes/InventoryOps/InventoryOpsTrigger.node.js');

const EXAMPLES_DIR = path.resolve(__dirname, '../../examples');
const OUR_TYPES = {
	'n8n-nodes-inventory-ops.inventoryOps': new InventoryOps().description,
	'n8n-nodes-inventory-ops.inventoryOpsTrigger': new InventoryOpsTrigger().description,
};
const examples = fs
	.readdirSync(EXAMPLES_DIR)
	.filter((file) => file.endsWith('.json'))
	.map((file) => [file, JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'))]);

test('the examples cover the uses of the package', () => {
	expect(examples.map(([file]) => file).sort()).toEqual([
		'create-kit-from-rows.json',
		'look-up-orders-and-flag-missing.json',
		'manage-webhook-handlers-by-hand.json',
		'notify-on-order-status.json',
		'restore-inventory-when-shipment-voided.json',
	]);
});

describe.each(examples)('%s', (file, workflow) => {
	const ours = workflow.nodes.filter((node) => OUR_TYPES[node.type]);

	test('every parameter set on an Inventory Ops node is one the node shows there, with a valid value', () => {
		expect(ours.length).toBeGreaterThan(0);
		for (const node of ours) {
			const description = OUR_TYPES[node.type];
			const kept = NodeHelpers.getNodeParameters(
				description.properties,
				node.parameters,
				true,
				false,
				node,
				description,
			);
			for (const [name, value] of Object.entries(node.parameters)) {
				expect({ node: node.name, name, value: kept[name] }).toEqual({
					node: node.name,
					name,
					value,
				});
			}
			expect(
				NodeHelpers.getNodeParametersIssues(
					description.properties,
					{ ...node, parameters: kept },
					description,
				),
			).toBeNull();
		}
	});

	test('Inventory Ops nodes use the named credential, nothing points anywhere but the default sandbox', () => {
		for (const node of ours) {
			expect(node.credentials).toEqual({
				inventoryOpsApi: { id: 'inventory-ops-sandbox', name: 'Inventory Ops sandbox' },
			});
		}
		const urls = JSON.stringify(workflow.nodes).match(/https?:\/\/[^\s"'`]+/g) ?? [];
		expect(
			urls.filter(
				(url) =>
					!url.startsWith('http://127.0.0.1:5680/') && !url.startsWith('https://example.com/'),
			),
		).toEqual([]);
	});

	// An imported example is what the editor would add today (n8n would load no trigger at another
	// version).
	test('Inventory Ops nodes are at the version the editor gives a new node', () => {
		for (const node of ours) {
			const { version, defaultVersion } = OUR_TYPES[node.type];
			const newest = defaultVersion ?? Math.max(...[version].flat());
			expect({ node: node.name, typeVersion: node.typeVersion }).toEqual({
				node: node.name,
				typeVersion: newest,
			});
		}
	});

	test('connections name existing nodes, and a sticky note explains the workflow', () => {
		const names = new Set(workflow.nodes.map((node) => node.name));
		for (const [from, { main }] of Object.entries(workflow.connections)) {
			expect(names.has(from)).toBe(true);
			for (const target of main.flat()) expect(names.has(target.node)).toBe(true);
		}
		const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		expect(notes).toHaveLength(1);
		expect(notes[0].parameters.content).toMatch(/^## /);
	});
});
