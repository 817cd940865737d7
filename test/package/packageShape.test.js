// The package as n8n sees it: the manifest, the built files it points at, and the fixed type names.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const pkg = require(path.join(root, 'package.json'));

describe('package.json', () => {
	test('is an n8n community node package with no runtime dependencies', () => {
		expect(pkg.name).toBe('n8n-nodes-inventory-ops');
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(Object.keys(pkg.peerDependencies)).toEqual(['n8n-workflow']);
		expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
	});

	test('every file in the n8n section is built and loads with its fixed name', () => {
		const names = [...pkg.n8n.credentials, ...pkg.n8n.nodes].map((file) => {
			const built = path.join(root, file);
			expect(fs.existsSync(built)).toBe(true);
			const exported = Object.values(require(built));
			expect(exported).toHaveLength(1);
			const instance = new exported[0]();
			return instance.description?.name ?? instance.name;
		});
		expect(names).toEqual(['inventoryOpsApi', 'inventoryOps', 'inventoryOpsTrigger']);
	});

	test('icons referenced by the nodes are copied next to the built files', () => {
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
			const dir = path.dirname(path.join(root, file));
			expect(fs.existsSync(path.join(dir, 'inventoryOps.svg'))).toBe(true);
			expect(fs.existsSync(path.join(dir, 'inventoryOps.dark.svg'))).toBe(true);
		}
	});
});

describe('links to the documentation', () => {
	/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
	const slug = (heading) =>
		heading
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N} -]/gu, '')
			.replace(/ /g, '-');
	const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
	const anchors = new Set([...readme.matchAll(/^#+ (.+)$/gm)].map((match) => slug(match[1])));
	const repository = pkg.homepage.replace(/#.*$/, '');

	test('every link of the codex files and the credential to the README lands on a heading', () => {
		const codexLinks = pkg.n8n.nodes.flatMap((file) => {
			const codex = require(path.join(root, file.replace(/\.js$/, '.json')));
			return [
				...codex.resources.primaryDocumentation,
				...(codex.resources.credentialDocumentation ?? []),
			].map((link) => link.url);
		});
		const credential = Object.values(require(path.join(root, pkg.n8n.credentials[0])))[0];
		const nodeLinks = pkg.n8n.nodes.map((file) => {
			const NodeType = Object.values(require(path.join(root, file)))[0];
			return new NodeType().description.documentationUrl;
		});
		const links = [...codexLinks, new credential().documentationUrl, ...nodeLinks];
		expect(links.length).toBeGreaterThanOrEqual(7);
		for (const link of links) {
			expect(link.startsWith(`${repository}#`)).toBe(true);
			expect({ link, found: anchors.has(link.split('#')[1]) }).toEqual({ link, found: true });
		}
	});
});
