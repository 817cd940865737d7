// A failure raised by n8n itself while the node reads its credential for an item (no credential
// selected, the credential store failing) is tied to that item like the node's own errors, and says
// that nothing was sent: without Continue On Fail the run stops naming the item ("item N" in n8n);
// with it, every item gets an error item `{ error, details }` paired with its input item, and the
// run goes on. n8n's own error names no item and no call. Through n8n's engine, against the sandbox
// over real HTTP.
const { useInventoryOps, jsonOf } = require('../../helpers/inventoryOps');

const ctx = useInventoryOps({ orders: 5 });

const REMOVE = { resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' };
// Ids the sandbox never issued: its calls list them only with the probes (test/helpers/sandbox.js),
// so every count of calls here includes those.
const ITEMS = [{ id: 'h-1' }, { id: 'h-2' }];
const DESCRIPTION =
	'Check that the node has an Inventory Ops API credential, and that its expressions work for this item.';

describe('no Inventory Ops credential selected (a workflow imported without one)', () => {
	// n8n's own NodeOperationError, raised without an item: the node names the item it was working
	// on.
	const run = (continueOnFail) =>
		ctx.engine.run({
			node: { type: 'inventoryOps', parameters: REMOVE, continueOnFail },
			items: ITEMS,
			credentials: ctx.sandbox.credentials(),
			credentialType: 'httpHeaderAuth',
		});
	const MESSAGE = (item) =>
		`Could not read the Inventory Ops API credential for item ${item}: Node does not have any credentials set for "inventoryOpsApi". Nothing was sent to /webhook/remove_handler.`;

	test('stops the run naming item 0, before any call', async () => {
		const result = await run(false);
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message: MESSAGE(0) });
		expect(result.error.context.itemIndex).toBe(0);
		expect(await ctx.sandbox.calls(undefined, { probes: true })).toEqual([]);
	});

	test('with Continue On Fail every item gets its error item', async () => {
		const result = await run(true);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{
				json: { error: MESSAGE(0), details: { description: DESCRIPTION } },
				pairedItem: { item: 0 },
			},
			{
				json: { error: MESSAGE(1), details: { description: DESCRIPTION } },
				pairedItem: { item: 1 },
			},
		]);
	});
});

describe('the credential store fails (an error that is no n8n node error)', () => {
	// The test's credentials helper throws a plain Error when it holds no credential, as n8n's store
	// does for a credential it cannot find or decrypt.
	const MESSAGE = (item) =>
		`Could not read the Inventory Ops API credential for item ${item}: The test gave no credential of type inventoryOpsApi. Nothing was sent to /webhook/remove_handler.`;

	test('stops the run with a node error naming item 0, before any call', async () => {
		const result = await ctx.run(REMOVE, { items: ITEMS, credentials: false });
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message: MESSAGE(0) });
		expect(result.error.context.itemIndex).toBe(0);
		expect(await ctx.sandbox.calls(undefined, { probes: true })).toEqual([]);
	});

	test('with Continue On Fail every item gets its error item', async () => {
		const result = await ctx.run(REMOVE, {
			items: ITEMS,
			credentials: false,
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			{ error: MESSAGE(0), details: { description: DESCRIPTION } },
			{ error: MESSAGE(1), details: { description: DESCRIPTION } },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('Get Many, whose one call carries many items', () => {
	// The error of the batch's call used to be n8n's, and Get Many threw it after its calls: no item
	// was named.
	const LOOK_UP = {
		resource: 'order',
		operation: 'lookUp',
		lookUpBy: 'list',
		references: '={{ [$json] }}',
	};
	const refs = [
		{ store_id: '1001', order_number: 'A-1' },
		{ store_id: '1001', order_number: 'A-2' },
		{ store_id: '1001', order_number: 'A-3' },
	];

	test('a credential store that fails stops the run naming the first item of the batch, before any call', async () => {
		const result = await ctx.run(
			{ ...LOOK_UP, options: { batchSize: 2, callsInFlight: 1 } },
			{ items: refs, credentials: false },
		);
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message:
				'Could not read the Inventory Ops API credential for item 0: The test gave no credential of type inventoryOpsApi. Nothing was sent to /order/get_single_bulk.',
			context: expect.objectContaining({ itemIndex: 0 }),
		});
		expect(await ctx.sandbox.calls(undefined, { probes: true })).toEqual([]);
	});

	test('with Continue On Fail every item gets the error of its batch', async () => {
		const parameters = { ...LOOK_UP, options: { batchSize: 2, callsInFlight: 1 } };
		const result = await ctx.run(parameters, {
			items: refs,
			credentials: false,
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.error, item.pairedItem])).toEqual([
			[
				expect.stringMatching(/^Could not read the Inventory Ops API credential for item 0: /),
				{ item: 0 },
			],
			[
				expect.stringMatching(/^Could not read the Inventory Ops API credential for item 0: /),
				{ item: 1 },
			],
			[
				expect.stringMatching(/^Could not read the Inventory Ops API credential for item 2: /),
				{ item: 2 },
			],
		]);
		expect(await ctx.sandbox.calls(undefined, { probes: true })).toEqual([]);
	});
});

test('an error that is no node error (as a bug throws) is wrapped as a node error naming the item', () => {
	// No path over HTTP gives one any more: the transport wraps n8n's credential errors, and every
	// answer becomes a node error. So this drives the compiled helper both nodes use with a stand-in
	// node (a mutation run left the line uncovered).
	const path = require('node:path');
	const { NodeOperationError } = require('n8n-workflow');
	const { asNodeError } = require(
		path.resolve(__dirname, '../../../dist/nodes/InventoryOps/actions/helpers/perItem.js'),
	);
	const node = {
		name: 'Inventory Ops',
		type: 'inventoryOps',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	// A plain Error: under Stryker the tests' realm shares only Error with n8n (mutation/README.md).
	const wrapped = asNodeError(
		node,
		new Error("Cannot read properties of undefined (reading 'x')"),
		3,
	);
	expect(wrapped).toBeInstanceOf(NodeOperationError);
	expect(wrapped.message).toBe("Cannot read properties of undefined (reading 'x')");
	expect(wrapped.context.itemIndex).toBe(3);
});

test('a node error raised without an item gets the item it failed on; one that names its item keeps it', () => {
	// n8n-workflow as the compiled helper loads it, so its instanceof check sees a node error
	// (mutation/README.md).
	const path = require('node:path');
	const helper = path.resolve(
		__dirname,
		'../../../dist/nodes/InventoryOps/actions/helpers/perItem.js',
	);
	const { NodeOperationError } = require(
		require.resolve('n8n-workflow', { paths: [path.dirname(helper)] }),
	);
	const { asNodeError } = require(helper);
	const node = {
		name: 'Inventory Ops',
		type: 'inventoryOps',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const unnamed = new NodeOperationError(node, 'The service answered nothing usable');
	expect(unnamed.context.itemIndex).toBeUndefined();
	expect(asNodeError(node, unnamed, 2).context.itemIndex).toBe(2);
	const named = new NodeOperationError(node, 'Item 1 failed', { itemIndex: 1 });
	expect(asNodeError(node, named, 2).context.itemIndex).toBe(1);
});
