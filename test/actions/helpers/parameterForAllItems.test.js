// parameterForAllItems under an n8n that evaluates an expression where the setting takes none
// (1.99, the oldest host line). The jest engine is a newer n8n, which passes such an expression on
// as text (test/transport/answers.shapes.test.js covers that over real HTTP), so this one path is
// driven by a stand-in for n8n's execute context: it is the only mock.
const path = require('node:path');

const { parameterForAllItems } = require(
	path.join(__dirname, '../../../dist/nodes/InventoryOps/actions/helpers/parameterForAllItems.js'),
);

function context(parameters, valuesByItem) {
	return {
		getNode: () => ({ name: 'Inventory Ops', type: 'inventoryOps', typeVersion: 1, parameters }),
		getNodeParameter: (name, itemIndex) => valuesByItem[itemIndex],
		getInputData: () => valuesByItem.map(() => ({ json: {} })),
	};
}

test('an expression giving items different values stops the run naming the setting and both values', () => {
	const run = context({ lookUpBy: '={{ $json.by }}' }, ['list', 'list', 'itemFields']);
	expect(() => parameterForAllItems.call(run, 'lookUpBy', 'Look Up By', undefined)).toThrow(
		'\'Look Up By\' must be the same for every input item: item 0 gives "list", item 2 gives "itemFields"',
	);
});

test('an expression inside Options giving the same value to every item is read once', () => {
	const run = context({ options: { batchSize: '={{ $vars.size }}' } }, [50, 50, 50]);
	expect(parameterForAllItems.call(run, 'options.batchSize', 'Batch Size', 100)).toBe(50);
});

test('a value that is no expression is taken from item 0 without reading the others', () => {
	const run = context({ options: { batchSize: 50 } }, [50, 'never read']);
	expect(parameterForAllItems.call(run, 'options.batchSize', 'Batch Size', 100)).toBe(50);
});

test('the error of items that disagree names the item that differs and says how to fix it', () => {
	const run = context({ lookUpBy: '={{ $json.by }}' }, ['list', 'list', 'itemFields']);
	let error;
	try {
		parameterForAllItems.call(run, 'lookUpBy', 'Look Up By', undefined);
	} catch (caught) {
		error = caught;
	}
	expect(error).toMatchObject({
		name: 'NodeOperationError',
		description:
			'Set it without an expression that depends on the item, or split the items into separate runs.',
	});
	expect(error.context.itemIndex).toBe(2);
});

test('text that is no expression is read from item 0 alone', () => {
	const reads = [];
	const run = {
		getNode: () => ({
			name: 'Inventory Ops',
			type: 'inventoryOps',
			typeVersion: 1,
			parameters: { lookUpBy: 'list' },
		}),
		getNodeParameter: (name, itemIndex) => {
			reads.push(itemIndex);
			return 'list';
		},
	};
	expect(parameterForAllItems.call(run, 'lookUpBy', 'Look Up By', undefined)).toBe('list');
	expect(reads).toEqual([0]);
});
