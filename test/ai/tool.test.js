// The Inventory Ops node as an AI Agent tool, as n8n exposes it to the model: for each operation, a
// tool node set up the way the n8n editor sets it up (parameters handed to the model become
// `$fromAI(...)` expressions), run through n8n-core's own getSchema and createNodeAsTool; and once
// per kind of argument, the tool called the way an agent calls it, through n8n-core's
// getInputConnectionData and handleToolInvocation, against the sandbox over HTTP. What a real n8n
// serves for the tool type (its tool-description switch, resource and operation texts) is checked
// in e2e/scenarios/aiTool.js.
const path = require('node:path');

const {
	getSchema,
	createNodeAsTool,
} = require('n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool');
const { NodeConnectionTypes, NodeHelpers, nodeNameToToolName } = require('n8n-workflow');

const { createEngine } = require('../helpers/engine');
const { answers } = require('../helpers/profile');
const { startSandbox } = require('../helpers/sandbox');
const { OPERATIONS, editorKey, editorType, fromAiExpression } = require('./toolExpectations');

// The JSON schema a model is given for the tool, made by the LangChain copy n8n-core itself uses.
const { toJsonSchema } = require(
	require.resolve('@langchain/core/utils/json_schema', {
		paths: [path.dirname(require.resolve('n8n-core/package.json'))],
	}),
);

const { InventoryOps } = require(
	path.resolve(__dirname, '../../dist/nodes/InventoryOps/InventoryOps.node.js'),
);

// n8n's server wraps a `usableAsTool` node into a "<name>Tool" type when it loads a package
// (convertNodeToAiTool in the n8n server package, not installed here). What the engine needs of
// that wrapper is the ai_tool output that makes n8n-core call createNodeAsTool; the rest of the
// wrapper is checked against a real n8n in e2e.
function toolNodeType() {
	const action = new InventoryOps();
	return {
		description: {
			...action.description,
			name: 'inventoryOpsTool',
			displayName: 'Inventory Ops Tool',
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
		},
		execute: action.execute,
	};
}

const ZOD_TYPES = {
	ZodString: 'string',
	ZodNumber: 'number',
	ZodBoolean: 'boolean',
	ZodEffects: 'json',
};

const nodeType = toolNodeType();

function propertyOf(expected, parameter) {
	const found = nodeType.description.properties.find(
		(property) =>
			property.name === parameter &&
			property.displayOptions?.show?.resource?.includes(expected.resource) &&
			property.displayOptions?.show?.operation?.includes(expected.operation),
	);
	if (!found)
		throw new Error(`${expected.resource}.${expected.operation} has no parameter ${parameter}`);
	return found;
}

/**
 * The tool node as a user sets it up for an agent: resource, operation and the fixed choices by
 * hand; the listed parameters handed to the model. `describe` says what goes into each override's
 * Description box: the parameter's own description (as the README recommends) or nothing (the
 * editor's default).
 */
function toolNode(expected, { describe = true } = {}) {
	const parameters = {
		resource: expected.resource,
		operation: expected.operation,
		...expected.fixed,
	};
	for (const { parameter } of expected.fromAi) {
		const property = propertyOf(expected, parameter);
		const description = describe ? property.description : '';
		parameters[parameter] = fromAiExpression(
			editorKey(property.displayName),
			description,
			editorType(property.type),
		);
	}
	const name = NodeHelpers.makeNodeName(parameters, nodeType.description);
	return {
		id: 'tool',
		name,
		type: 'inventoryOpsTool',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/** The tool's arguments as n8n-core builds them: [{ key, type, description, required }]. */
function argumentsOf(node) {
	const schema = getSchema(node);
	const jsonSchema = toJsonSchema(schema);
	return Object.entries(schema.shape).map(([key, argument]) => ({
		key,
		type: ZOD_TYPES[argument._def.typeName] ?? argument._def.typeName,
		description: argument.description ?? '',
		required: jsonSchema.required.includes(key),
	}));
}

describe.each(
	OPERATIONS.map((expected) => [`${expected.resource}.${expected.operation}`, expected]),
)('%s as a tool', (_, expected) => {
	test('keys and types are the ones the editor derives from our display names', () => {
		for (const { parameter, key, type } of expected.fromAi) {
			const property = propertyOf(expected, parameter);
			expect({
				parameter,
				key: editorKey(property.displayName),
				type: editorType(property.type),
			}).toEqual({
				parameter,
				key,
				type,
			});
		}
	});

	test('n8n-core exposes one required argument per parameter, described by our parameter description', () => {
		const exposed = argumentsOf(toolNode(expected));
		expect(exposed.map(({ key, type, required }) => ({ key, type, required }))).toEqual(
			expected.fromAi.map(({ key, type }) => ({ key, type, required: true })),
		);
		for (const [index, { parameter, mentions }] of expected.fromAi.entries()) {
			const { description } = exposed[index];
			expect(description).toBe(propertyOf(expected, parameter).description);
			for (const words of mentions) {
				expect({ parameter, description }).toEqual({
					parameter,
					description: expect.stringMatching(words),
				});
			}
		}
	});

	test('left undescribed (the editor default), the arguments still carry key and type, and nothing else', () => {
		const exposed = argumentsOf(toolNode(expected, { describe: false }));
		expect(exposed).toEqual(
			expected.fromAi.map(({ key, type }) => ({ key, type, description: '', required: true })),
		);
	});

	test('name and automatic description of the tool come from the operation action', () => {
		const node = toolNode(expected);
		const { response: tool } = createNodeAsTool({
			node,
			nodeType,
			handleToolInvocation: async () => '',
		});
		expect(node.name).toBe(expected.autoDescription);
		expect(tool.name).toBe(expected.toolName);
		expect(tool.name).toBe(nodeNameToToolName(node));
		expect(tool.name.length).toBeLessThanOrEqual(64);
		expect(tool.description).toBe(expected.autoDescription);
	});
});

test('every operation of the node has an expectation, and every action names its resource', () => {
	const listed = nodeType.description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			property.options.map((option) => ({
				id: `${property.displayOptions.show.resource[0]}.${option.value}`,
				action: option.action,
			})),
		);
	expect(listed.map(({ id }) => id).sort()).toEqual(
		OPERATIONS.map((expected) => `${expected.resource}.${expected.operation}`).sort(),
	);
	// An agent with several of these tools tells them apart by name and description, both made from
	// the action.
	const nouns = {
		order: 'order',
		kit: 'kit',
		shipment: 'shipment',
		webhookHandler: 'webhook handler',
	};
	for (const { id, action } of listed) {
		expect({ id, action }).toEqual({
			id,
			action: expect.stringContaining(nouns[id.split('.')[0]]),
		});
	}
	const tools = new Set(OPERATIONS.map((expected) => expected.toolName));
	expect(tools.size).toBe(OPERATIONS.length);
});

// The agent's side, without a language model: a stand-in agent node asks n8n-core for its connected
// tools (the real getInputConnectionData -> createNodeAsTool) and calls the first one with the
// arguments a model would give.
class AgentStandIn {
	description = {
		displayName: 'Agent Stand-In',
		name: 'test.agent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tool once with the given arguments',
		defaults: { name: 'Agent' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Tool Arguments', name: 'toolArguments', type: 'json', default: '{}' },
		],
	};

	async execute() {
		const [tool] = await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0);
		const toolArguments = this.getNodeParameter('toolArguments', 0);
		const answer = await tool.invoke(
			typeof toolArguments === 'string' ? JSON.parse(toolArguments) : toolArguments,
		);
		return [
			[{ json: { tool: tool.name, description: tool.description, answer: JSON.parse(answer) } }],
		];
	}
}

describe('an agent calling the tool (n8n-core handleToolInvocation, sandbox over HTTP)', () => {
	let sandbox;
	let engine;
	beforeAll(async () => {
		sandbox = await startSandbox();
		engine = createEngine({
			nodeTypes: { 'test.agent': AgentStandIn, inventoryOpsTool: nodeType },
		});
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	beforeEach(async () => {
		await sandbox.reset();
	});

	const callTool = async (expected, toolArguments) => {
		const tool = toolNode(expected);
		return await engine.run({
			node: { type: 'test.agent', name: 'Agent', parameters: { toolArguments } },
			credentialType: 'inventoryOpsApi',
			credentials: sandbox.credentials(),
			subNodes: [{ ...tool, connectionType: NodeConnectionTypes.AiTool }],
		});
	};

	test('order lookup: the model gives store and order number, the tool answers with the order', async () => {
		const [order] = await sandbox.orders({ limit: 1 });
		const expected = OPERATIONS.find((operation) => operation.operation === 'lookUp');
		const result = await callTool(expected, {
			Store_ID: order.store_id,
			Order_Number: order.order_number,
		});
		expect(result.error).toBeUndefined();
		const [{ json }] = result.items;
		expect(json.tool).toBe(expected.toolName);
		const reference = { store_id: order.store_id, order_number: order.order_number };
		// The order the service returned: with its store_id, or (profile switch bulkOrderFields)
		// without it.
		expect(json.answer).toEqual([
			expect.objectContaining(
				answers.bulkOrderFields === 'noStoreId'
					? { _id: order._id, order_number: order.order_number }
					: reference,
			),
		]);
		const calls = await sandbox.calls('/api/order/get_single_bulk');
		expect(calls.map((call) => call.body)).toEqual([{ order: [reference] }]);
	});

	test('kit creation: the model gives the kit as a JSON object, the tool creates exactly one kit', async () => {
		const expected = OPERATIONS.find((operation) => operation.operation === 'create');
		const [item] = await sandbox.items({ limit: 1 });
		const kit = {
			name: 'Agent Bundle',
			sku: 'KIT-AGENT-1',
			items: [{ item_id: item.item_id, quantity: 2 }],
		};
		const result = await callTool(expected, { Kit_Data__JSON_: kit });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.answer).toEqual([expect.objectContaining({ success: true })]);
		const calls = await sandbox.calls('/api/kit/create');
		expect(calls).toHaveLength(1);
		expect(calls[0].body).toEqual({ data: kit });
	});

	test('a wrong call reaches the model as an error naming the field, and nothing is sent', async () => {
		const expected = OPERATIONS.find((operation) => operation.operation === 'restoreInventory');
		const result = await callTool(expected, {
			Store_ID: 'store_1',
			Order_Number: '1001',
			Shipment_ID: '',
			Tracking_Number: '',
			Carrier_Shipment_ID: '',
		});
		expect(String(result.error?.message ?? result.error?.description)).toMatch(/Shipment ID/);
		expect(await sandbox.calls('/s/ship/shipping/restore_inventory')).toEqual([]);
	});
});
