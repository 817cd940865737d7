// Builds this repository's package and places it in an n8n user folder the way `npm install` inside
// ~/.n8n/nodes would: the files `npm pack` would publish, under .n8n/nodes/node_modules/<name>. n8n
// scans that folder for packages named n8n-nodes-* and loads them with their real type names
// (n8n-nodes-inventory-ops.inventoryOps); N8N_CUSTOM_EXTENSIONS would load them with a CUSTOM.
// prefix instead, which is not what users get.
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT, run } = require('./hosts');

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const PACKAGE_NAME = manifest.name;

let built;

/** `npm run build` once per process (E2E_SKIP_BUILD=1 skips it when dist/ is known to be fresh). */
function buildPackage({ log = () => {} } = {}) {
	if (!built) {
		built = (async () => {
			if (process.env.E2E_SKIP_BUILD === '1' && fs.existsSync(path.join(REPO_ROOT, 'dist'))) return;
			const started = Date.now();
			await run('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, env: process.env });
			log(`built the package in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		})();
	}
	return built;
}

/** The files `npm pack` would put in the tarball, relative to the repository root. */
async function packedFiles() {
	const output = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--silent'], {
		cwd: REPO_ROOT,
		env: process.env,
	});
	const [report] = JSON.parse(output.slice(output.indexOf('[')));
	return report.files.map((file) => file.path);
}

/**
 * Copies the packed files into `<userFolder>/.n8n/nodes/node_modules/<name>`; returns that folder.
 */
async function placePackage(userFolder) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	for (const file of await packedFiles()) {
		fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
		fs.copyFileSync(path.join(REPO_ROOT, file), path.join(target, file));
	}
	// What `npm install n8n-nodes-inventory-ops` inside ~/.n8n/nodes leaves next to node_modules.
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: manifest.version } }, null, 2)}\n`,
	);
	return target;
}

module.exports = { PACKAGE_NAME, buildPackage, placePackage, packedFiles };
