// What `npm pack` publishes: only what n8n loads at run time, never tests, sandbox, sources, maps
// or docs; and what n8n's package scanner says about that tarball (scripts/scan-package.mjs, run by
// `npm test` as `npm run scan`). In `npm test` the tarball is packed from dist/ as it is (`npm
// test` builds first); with PACK_TARBALL=<file> the tests read that tarball instead: the release's,
// built from `git archive` (scripts/release.mjs verify).
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const pkg = require(path.join(root, 'package.json'));

let workDir;
let tarball;
let unpacked;
let files;

beforeAll(() => {
	workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-pack-test-'));
	if (process.env.PACK_TARBALL) {
		tarball = path.resolve(process.env.PACK_TARBALL);
	} else {
		const [pack] = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workDir], {
				cwd: root,
				encoding: 'utf8',
			}),
		);
		tarball = path.join(workDir, pack.filename);
	}
	unpacked = path.join(workDir, 'package');
	execFileSync('tar', ['-xzf', tarball, '-C', workDir]);
	files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter((entry) => entry && !entry.endsWith('/'))
		.map((entry) => entry.replace(/^package\//, ''))
		.sort();
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

test('the tarball holds only dist/ (the nodes and the credential), index.js, README, LICENSE and package.json', () => {
	expect(
		files.filter(
			(file) =>
				!/^(dist\/(nodes|credentials)\/.+\.(js|json|svg)|index\.js|README\.md|LICENSE|package\.json)$/.test(
					file,
				),
		),
	).toEqual([]);
	expect(
		files.filter((file) =>
			/\.(ts|map)$|\.test\.js$|(^|\/)(test|sandbox|e2e|bench|docs|examples|scripts)\//.test(file),
		),
	).toEqual([]);
	expect(files).toEqual(
		expect.arrayContaining(['LICENSE', 'README.md', 'index.js', 'package.json']),
	);
});

test("the tarball's package.json is the repository's: name, version, entries, no dependencies", () => {
	const packed = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
	expect({
		name: packed.name,
		version: packed.version,
		n8n: packed.n8n,
		main: packed.main,
	}).toEqual({
		name: pkg.name,
		version: pkg.version,
		n8n: pkg.n8n,
		main: pkg.main,
	});
	expect(packed.dependencies).toBeUndefined();
});

test('every compiled file in the tarball comes from a node or credential source, and every entry n8n loads is in it', () => {
	const compiled = files.filter((file) => file.endsWith('.js') && file.startsWith('dist/'));
	expect(
		compiled.filter(
			(file) => !fs.existsSync(path.join(root, file.slice('dist/'.length).replace(/\.js$/, '.ts'))),
		),
	).toEqual([]);
	const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
	const codexFiles = pkg.n8n.nodes.map((file) => file.replace(/\.js$/, '.json'));
	const icons = entries.flatMap((file) =>
		['inventoryOps.svg', 'inventoryOps.dark.svg'].map((icon) =>
			path.posix.join(path.posix.dirname(file), icon),
		),
	);
	expect(files).toEqual(expect.arrayContaining([...entries, ...codexFiles, ...icons]));
	// Nothing else besides the compiled sources: a stray JSON or SVG in dist/ would ship unnoticed.
	expect(
		files.filter(
			(file) => /^dist\/.+\.(json|svg)$/.test(file) && ![...codexFiles, ...icons].includes(file),
		),
	).toEqual([]);
});

test("every module the shipped code requires is in the tarball or is n8n-workflow or Node's crypto", () => {
	const missing = [];
	for (const file of files.filter((name) => name.endsWith('.js'))) {
		const source = fs.readFileSync(path.join(unpacked, file), 'utf8');
		for (const [, request] of source.matchAll(/\brequire\(["']([^"']+)["']\)/g)) {
			if (request.startsWith('.')) {
				const target = path.posix.join(path.posix.dirname(file), request);
				if (
					![target, `${target}.js`, `${target}.json`, `${target}/index.js`].some((name) =>
						files.includes(name),
					)
				) {
					missing.push(`${file}: ${request}`);
				}
			} else if (!['n8n-workflow', 'crypto', 'node:crypto'].includes(request)) {
				missing.push(`${file}: ${request}`);
			}
		}
	}
	expect(missing).toEqual([]);
});

describe("n8n's scanner rules on the packed tarball (scripts/scan-package.mjs)", () => {
	const scan = (file) =>
		spawnSync(process.execPath, [path.join(root, 'scripts/scan-package.mjs'), file], {
			cwd: root,
			encoding: 'utf8',
		});

	test('the tarball passes, and the same tarball with a console call slipped into a shipped file fails', () => {
		const clean = scan(tarball);
		expect({ status: clean.status, out: clean.stdout }).toEqual({
			status: 0,
			out: expect.stringContaining('scan (tarball): passed'),
		});

		// The scanner forbids console calls in shipped code (n8n's no-console rule); the source tree
		// never sees this one.
		const shipped = path.join(unpacked, pkg.n8n.nodes[0]);
		fs.appendFileSync(shipped, '\nconsole.log("slipped in after the build");\n');
		const doctored = path.join(workDir, 'doctored.tgz');
		execFileSync('tar', ['-czf', doctored, '-C', workDir, 'package']);
		const result = scan(doctored);
		expect(result.status).toBe(1);
		expect(result.stdout).toContain('scan (tarball): FAILED');
		expect(result.stdout).toContain(path.basename(pkg.n8n.nodes[0]));
		expect(result.stdout).toContain('no-console');
	}, 120_000);
});
