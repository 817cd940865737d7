// A failure raised by n8n itself while the node works on an item (no credential selected, the credential store
// failing) is tied to that item like the node's own errors: without Continue On Fail the run stops naming the item
// ("item N" in n8n); with it, every item gets an error item `{ error, details }` paired with its input item, and the
// run goes on. Through n8n's engine, against the sandbox over real HTTP.
const { useInventoryOps, jsonOf } = require('../helpers/inventoryOps');

const ctx = useInventoryOps({ orders: 5 });

const REMOVE = { resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' };
const ITEMS = [{ id: 'h-1' }, { id: 'h-2' }];

describe('no Inventory Ops credential selected (a workflow imported without one)', () => {
	// n8n's own NodeOperationError, raised without an item: the node names the item it was working on.
	const run = (continueOnFail) =>
		ctx.engine.run({
			node: { type: 'inventoryOps', parameters: REMOVE, continueOnFail },
			items: ITEMS,
			credentials: ctx.sandbox.credentials(),
			credentialType: 'httpHeaderAuth',
		});
	const MESSAGE = 'Node does not have any credentials set for "inventoryOpsApi"';

	test('stops the run naming item 0, before any call', async () => {
		const result = await run(false);
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message: MESSAGE });
		expect(result.error.context.itemIndex).toBe(0);
		expect(await ctx.sandbox.calls()).toEqual([]);
	});

	test('with Continue On Fail every item gets its error item', async () => {
		const result = await run(true);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: { error: MESSAGE, details: {} }, pairedItem: { item: 0 } },
			{ json: { error: MESSAGE, details: {} }, pairedItem: { item: 1 } },
		]);
	});
});

describe('the credential store fails (an error that is no n8n node error)', () => {
	// The test's credentials helper throws a plain Error when it holds no credential, as n8n's store does for a
	// credential it cannot find or decrypt.
	const MESSAGE = 'The test gave no credential of type inventoryOpsApi';

	test('stops the run with a node error naming item 0, before any call', async () => {
		const result = await ctx.run(REMOVE, { items: ITEMS, credentials: false });
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message: MESSAGE });
		expect(result.error.context.itemIndex).toBe(0);
		expect(await ctx.sandbox.calls()).toEqual([]);
	});

	test('with Continue On Fail every item gets its error item', async () => {
		const result = await ctx.run(REMOVE, { items: ITEMS, credentials: false, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			{ error: MESSAGE, details: {} },
			{ error: MESSAGE, details: {} },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
