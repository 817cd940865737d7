// The action node as an AI Agent tool in a real n8n: n8n wraps every node with `usableAsTool` into a "<name>Tool"
// node type when it loads the package. This asks n8n for its node types the way the editor does (GET
// /types/nodes.json at start-up, POST /rest/node-types when a node is opened) and checks what an agent would get:
// the tool type, its tool-description switch, and per operation the texts n8n builds the tool's name and
// description from, computed with this host's own n8n-workflow. test/ai/tool.test.js covers the arguments.
const path = require('node:path');

const { OPERATIONS, TOOL_TYPE } = require('../../test/ai/toolExpectations');

const ACTION_TYPE = 'n8n-nodes-inventory-ops.inventoryOps';
const DIST_NODE = path.resolve(__dirname, '../../dist/nodes/InventoryOps/InventoryOps.node.js');

/** The types file the editor loads (behind the login cookie, like the editor). */
async function nodeTypesFile(n8n) {
	if (!n8n.cookie) await n8n.login();
	const response = await n8n.request('GET', '/types/nodes.json', { headers: { cookie: n8n.cookie }, expect: 200 });
	return response.body;
}

const operationProperty = (properties, resource) =>
	properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource));

module.exports = (getContext) => {
	describe('the action node as an AI Agent tool (GET /types/nodes.json, POST /rest/node-types)', () => {
		let types;
		let tool;
		let action;
		let hostWorkflow;
		const built = new (require(DIST_NODE).InventoryOps)().description;

		beforeAll(async () => {
			const { n8n } = getContext();
			types = await nodeTypesFile(n8n);
			tool = types.find((type) => type.name === TOOL_TYPE);
			action = types.find((type) => type.name === ACTION_TYPE);
			// The host's own n8n-workflow: the functions its editor and its agent use to name and describe a tool.
			hostWorkflow = require(path.join(n8n.host.installDir, 'node_modules', 'n8n-workflow'));
		});

		test('n8n lists the tool type next to the action node, as an AI tool with our credential', () => {
			expect(action).toBeDefined();
			expect(types.filter((type) => type.name === TOOL_TYPE)).toHaveLength(1);
			expect(tool).toMatchObject({
				displayName: 'Inventory Ops Tool',
				inputs: [],
				outputs: ['ai_tool'],
				credentials: [{ name: 'inventoryOpsApi', required: true }],
				defaults: { name: 'Inventory Ops' },
			});
			expect(tool.usableAsTool).toBeUndefined();
			// The editor offers "let the model define this parameter" only for node types in AI > Tools.
			expect(tool.codex.categories).toContain('AI');
			expect(tool.codex.subcategories.AI).toContain('Tools');
		});

		test('the tool description is set automatically by default, or written by hand starting from ours', () => {
			const names = tool.properties.map((property) => property.name);
			expect(names.slice(0, 3)).toEqual(['descriptionType', 'toolDescription', 'resource']);
			const [descriptionType, toolDescription] = tool.properties;
			expect(descriptionType).toMatchObject({ type: 'options', default: 'auto', noDataExpression: true });
			expect(descriptionType.options.map((option) => option.value)).toEqual(['auto', 'manual']);
			expect(toolDescription).toMatchObject({
				type: 'string',
				default: built.description,
				displayOptions: { show: { descriptionType: ['manual'] } },
			});
			for (const words of [/orders by store and order number/, /kits/, /restore the inventory/, /webhook handlers/]) {
				expect(toolDescription.default).toMatch(words);
			}
		});

		test('resource and operations reach the tool as the package describes them', () => {
			const resource = tool.properties.find((property) => property.name === 'resource');
			const builtResource = built.properties.find((property) => property.name === 'resource');
			expect(resource.options).toEqual(builtResource.options);
			expect(resource.noDataExpression).toBe(true);
			for (const expected of OPERATIONS) {
				const served = operationProperty(tool.properties, expected.resource);
				expect(served.noDataExpression).toBe(true);
				expect(served.options).toEqual(operationProperty(built.properties, expected.resource).options);
				const option = served.options.find((candidate) => candidate.value === expected.operation);
				expect(option.action).toBe(expected.action);
			}
		});

		test.each(OPERATIONS.map((expected) => [`${expected.resource}.${expected.operation}`, expected]))(
			'%s: the name and automatic description this host gives the tool',
			(_, expected) => {
				const parameters = { descriptionType: 'auto', resource: expected.resource, operation: expected.operation };
				const nodeName = hostWorkflow.NodeHelpers.makeNodeName(parameters, tool);
				expect(nodeName).toBe(expected.autoDescription);
				expect(hostWorkflow.nodeNameToToolName(nodeName)).toBe(expected.toolName);
				const node = { name: nodeName, type: TOOL_TYPE, typeVersion: 1, parameters };
				expect(hostWorkflow.NodeHelpers.getToolDescriptionForNode(node, { description: tool })).toBe(
					expected.autoDescription,
				);
			},
		);

		test('each parameter the model is meant to define can be handed to it in the editor', () => {
			for (const expected of OPERATIONS) {
				for (const { parameter } of expected.fromAi) {
					const served = tool.properties.find(
						(property) =>
							property.name === parameter &&
							property.displayOptions?.show?.operation?.includes(expected.operation) &&
							property.displayOptions?.show?.resource?.includes(expected.resource),
					);
					expect({ parameter, found: Boolean(served) }).toEqual({ parameter, found: true });
					// The ✨ button is not offered for options or noDataExpression parameters.
					expect(served.type).not.toBe('options');
					expect(served.noDataExpression).toBeFalsy();
					expect(served.description).toBeTruthy();
				}
			}
		});

		test('POST /rest/node-types (what the editor loads when a node is opened) gives the same tool', async () => {
			const { n8n } = getContext();
			const [described] = await n8n.rest('POST', '/node-types', { nodeInfos: [{ name: TOOL_TYPE, version: 1 }] });
			expect(described.name).toBe(TOOL_TYPE);
			expect(described.properties).toEqual(tool.properties);
			expect(described.outputs).toEqual(['ai_tool']);
		});
	});
};
