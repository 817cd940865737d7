// What n8n's editor builds from the node descriptions, checked on the loaded node types (dist/). The rules quoted
// here were read in the editor bundles of both hosts (n8n-editor-ui in .cache/hosts/n8n-1.123.81-* and
// n8n-2.41.1-*); the browser suite (e2e/) shows the same things on screen.
const path = require('node:path');

const DIST = path.resolve(__dirname, '../../dist');
const { InventoryOps } = require(path.join(DIST, 'nodes/InventoryOps/InventoryOps.node.js'));

const action = new InventoryOps().description;
const operations = action.properties.filter((property) => property.name === 'operation');

test('no operation value triggers the editor\'s "runs multiple times... Execute Once" hint', () => {
	// The editor shows it after a run with several input items when parameters.operation is one of these.
	const hinted = ['getAll', 'getMany', 'read', 'search'];
	const values = operations.flatMap((property) => property.options.map((option) => option.value));
	expect(values).toContain('lookUp');
	expect(values.filter((value) => hinted.includes(value))).toEqual([]);
});
