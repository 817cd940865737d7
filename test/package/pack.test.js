// What `npm pack` would publish: only what n8n loads at run time, never tests, sandbox or TypeScript sources.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');

test('the packed tarball holds only dist/, index.js, README, LICENSE and package.json', () => {
	const [pack] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
	);
	const files = pack.files.map((file) => file.path);
	const unexpected = files.filter(
		(file) => !/^(dist\/.+\.(js|json|svg)|index\.js|README\.md|LICENSE|package\.json)$/.test(file),
	);
	expect(unexpected).toEqual([]);
	expect(files.filter((file) => /\.ts$|^(test|sandbox|e2e|bench)\//.test(file))).toEqual([]);
	expect(files).toEqual(
		expect.arrayContaining([
			'package.json',
			'index.js',
			'dist/nodes/InventoryOps/InventoryOps.node.js',
			'dist/nodes/InventoryOps/InventoryOpsTrigger.node.js',
			'dist/credentials/InventoryOpsApi.credentials.js',
		]),
	);
});
