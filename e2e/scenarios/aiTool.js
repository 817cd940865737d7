// The action node as an AI Agent tool in a real n8n: n8n wraps every node with `usableAsTool` into
// a "<name>Tool" node type when it loads the package. This asks n8n for its node types the way the
// editor does (GET /types/nodes.json; POST /rest/node-types does not know these generated types in
// 2.x) and checks what an agent would get: the tool type, its tool-description switch, and per
// operation the texts n8n builds the tool's name and description from, computed with this host's
// own n8n-workflow. Then it runs the tool once as the editor's "execute step" does (n8n's own
// ToolExecutor in place of the agent, no model needed) against the sandbox. test/ai/tool.test.js
// covers the tool's arguments per operation.
const path = require('node:path');

const { waitFor } = require('../lib/wait');
const { ACTION_TYPE, actionNode, manualTrigger, node } = require('../lib/workflows');

const { OPERATIONS, TOOL_TYPE, fromAiExpression } = require('../../test/ai/toolExpectations');

const DIST_NODE = path.resolve(__dirname, '../../dist/nodes/InventoryOps/InventoryOps.node.js');

/** The types file the editor loads (behind the login cookie, like the editor). */
async function nodeTypesFile(n8n) {
	if (!n8n.cookie) await n8n.login();
	const response = await n8n.request('GET', '/types/nodes.json', {
		headers: { cookie: n8n.cookie },
		expect: 200,
	});
	return response.body;
}

// n8n adds a "Custom API Call" option to resource and operation of nodes whose credential it can
// use for plain HTTP requests (ours: generic bearer auth); it is n8n's own, not ours.
const withoutCustomApiCall = (options) =>
	options.filter((option) => option.value !== '__CUSTOM_API_CALL__');

const operationProperty = (properties, resource) =>
	properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource),
	);

module.exports = (getContext) => {
	describe('the action node as an AI Agent tool (GET /types/nodes.json, tool execution)', () => {
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
			// The host's own n8n-workflow: the functions its editor and its agent use to name and
			// describe a tool.
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
			expect(descriptionType).toMatchObject({
				type: 'options',
				default: 'auto',
				noDataExpression: true,
			});
			expect(descriptionType.options.map((option) => option.value)).toEqual(['auto', 'manual']);
			expect(toolDescription).toMatchObject({
				type: 'string',
				default: built.description,
				displayOptions: { show: { descriptionType: ['manual'] } },
			});
			for (const words of [
				/look up orders/i,
				/kits/,
				/restore shipment inventory/,
				/webhook handlers/,
			]) {
				expect(toolDescription.default).toMatch(words);
			}
		});

		test('resource and operations reach the tool as the package describes them', () => {
			const resource = tool.properties.find((property) => property.name === 'resource');
			const builtResource = built.properties.find((property) => property.name === 'resource');
			expect(withoutCustomApiCall(resource.options)).toEqual(builtResource.options);
			expect(resource.noDataExpression).toBe(true);
			for (const expected of OPERATIONS) {
				const served = operationProperty(tool.properties, expected.resource);
				expect(served.noDataExpression).toBe(true);
				expect(withoutCustomApiCall(served.options)).toEqual(
					operationProperty(built.properties, expected.resource).options,
				);
				const option = served.options.find((candidate) => candidate.value === expected.operation);
				expect(option.action).toBe(expected.action);
			}
		});

		test.each(
			OPERATIONS.map((expected) => [`${expected.resource}.${expected.operation}`, expected]),
		)('%s: the name and automatic description this host gives the tool', (_, expected) => {
			const parameters = {
				descriptionType: 'auto',
				resource: expected.resource,
				operation: expected.operation,
			};
			const nodeName = hostWorkflow.NodeHelpers.makeNodeName(parameters, tool);
			expect(nodeName).toBe(expected.autoDescription);
			expect(hostWorkflow.nodeNameToToolName(nodeName)).toBe(expected.toolName);
			const toolOfName = { name: nodeName, type: TOOL_TYPE, typeVersion: 1, parameters };
			expect(
				hostWorkflow.NodeHelpers.getToolDescriptionForNode(toolOfName, { description: tool }),
			).toBe(expected.autoDescription);
		});

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

		test('the editor\'s "execute step" on the tool: n8n runs it with the arguments a model would give', async () => {
			const context = getContext();
			const { n8n, credential } = context;
			const expected = OPERATIONS.find((operation) => operation.operation === 'lookUp');
			const [order] = (await context.admin('GET', '/orders?limit=1')).orders;
			const toolNode = actionNode(
				expected.autoDescription,
				credential,
				{
					descriptionType: 'auto',
					resource: 'order',
					operation: 'lookUp',
					lookUpBy: 'storeAndOrderNumber',
					storeId: fromAiExpression('Store_ID', '', 'string'),
					orderNumber: fromAiExpression('Order_Number', '', 'string'),
				},
				[260, 200],
				TOOL_TYPE,
			);
			const agentNode = node(
				'AI Agent',
				'@n8n/n8n-nodes-langchain.agent',
				{},
				{ position: [260, 0], typeVersion: 2 },
			);
			const trigger = manualTrigger();
			const workflow = await n8n.createWorkflow({
				name: 'e2e: Inventory Ops as an agent tool',
				nodes: [trigger, agentNode, toolNode],
				connections: {
					[trigger.name]: { main: [[{ node: agentNode.name, type: 'main', index: 0 }]] },
					[toolNode.name]: { ai_tool: [[{ node: agentNode.name, type: 'ai_tool', index: 0 }]] },
				},
			});
			const before = (await context.calls('/api/order/get_single_bulk')).length;
			const workflowData = await n8n.rest('GET', `/workflows/${workflow.id}`);
			// What the editor sends after the user filled the tool's $fromAI arguments in the "execute
			// step" dialog; n8n 2.x's ToolExecutor reads them under the tool's name, 1.x's takes them as
			// they are.
			const toolArguments = { Store_ID: order.store_id, Order_Number: order.order_number };
			const started = await n8n.rest('POST', `/workflows/${workflow.id}/run`, {
				workflowData,
				destinationNode: { nodeName: toolNode.name, mode: 'inclusive' },
				agentRequest: {
					query: n8n.major >= 2 ? { [expected.toolName]: toolArguments } : toolArguments,
					tool: { name: expected.toolName },
				},
			});
			expect(started.executionId).toBeTruthy();
			const execution = await waitFor(
				async () => {
					const found = await n8n.execution(started.executionId).catch(() => undefined);
					return found && found.stoppedAt ? found : undefined;
				},
				{ timeoutMs: 60_000, what: `tool execution ${started.executionId}` },
			);
			const runData = execution.data.resultData.runData;
			expect(execution.data.resultData.error).toBeUndefined();
			const toolRun = runData[toolNode.name][0];
			const output = JSON.stringify(toolRun.data);
			expect(output).toContain(order.order_number);
			// Simplify is on by default: the agent gets the compact item, not the 5-6 KB record (stash,
			// log, scans...).
			expect(output).not.toContain('"stash"');
			const lookups = (await context.calls('/api/order/get_single_bulk')).slice(before);
			expect(lookups.map((call) => call.body)).toEqual([
				{ order: [{ store_id: order.store_id, order_number: order.order_number }] },
			]);
		});
	});
};
