// forEachItem reads the node once per run: n8n's getNode() deep-copies the node with its parameters
// on every call, and a copy per input item adds 10-20 MiB to the peak memory of a 10,000-item
// lookup.
const { forEachItem } = require('../../../dist/nodes/InventoryOps/actions/helpers/perItem');

test('reads the node once for all items, and gives each handler a check for its item', async () => {
	const node = { name: 'Inventory Ops', type: 'inventoryOps', typeVersion: 1, parameters: {} };
	const context = { getNode: jest.fn(() => structuredClone(node)), continueOnFail: () => false };
	const items = Array.from({ length: 1000 }, (_, index) => ({ json: { index } }));
	const output = await forEachItem.call(context, items, (check) => [{ checked: check.itemIndex }]);
	expect(context.getNode).toHaveBeenCalledTimes(1);
	expect(output).toHaveLength(1000);
	expect(output[999]).toEqual({ json: { checked: 999 }, pairedItem: { item: 999 } });
});
