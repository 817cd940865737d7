// The harness's own tools (e2e/tools/package.json: playwright-core for the screenshot, verdaccio
// for the installer suite), installed on demand with `npm ci` into the git-ignored
// .cache/tools/<lock hash>/, never into the package's node_modules: the package itself needs none
// of them. Installed into a staging folder and renamed into place, so two processes installing at
// once, or an interrupted install, never leave half a folder behind.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT, run } = require('./hosts');

const TOOLS_DIR = path.join(REPO_ROOT, 'e2e', 'tools');

let installing;

/** Installs e2e/tools once per lockfile; resolves to the folder that holds its node_modules. */
function installTools({ log = () => {} } = {}) {
	if (!installing) {
		installing = (async () => {
			const lock = fs.readFileSync(path.join(TOOLS_DIR, 'package-lock.json'));
			const hash = crypto.createHash('sha256').update(lock).digest('hex').slice(0, 10);
			const installDir = path.join(REPO_ROOT, '.cache', 'tools', hash);
			const marker = path.join(installDir, '.installed');
			if (fs.existsSync(marker)) return installDir;
			const staging = `${installDir}.staging-${process.pid}`;
			fs.rmSync(staging, { recursive: true, force: true });
			fs.mkdirSync(staging, { recursive: true });
			for (const file of ['package.json', 'package-lock.json']) {
				fs.copyFileSync(path.join(TOOLS_DIR, file), path.join(staging, file));
			}
			const started = Date.now();
			log('installing the e2e tools (e2e/tools/package.json)');
			try {
				// None of the tools needs an install script (playwright-core uses the system's Chromium).
				await run(
					'npm',
					['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
					{
						cwd: staging,
						env: { ...process.env, npm_config_yes: 'true' },
					},
				);
				fs.writeFileSync(path.join(staging, '.installed'), `${new Date().toISOString()}\n`);
				if (fs.existsSync(marker)) {
					fs.rmSync(staging, { recursive: true, force: true });
				} else {
					fs.rmSync(installDir, { recursive: true, force: true });
					fs.renameSync(staging, installDir);
				}
			} catch (error) {
				fs.rmSync(staging, { recursive: true, force: true });
				throw error;
			}
			log(`installed the e2e tools in ${((Date.now() - started) / 1000).toFixed(0)} s`);
			return installDir;
		})();
	}
	return installing;
}

/** require() of one of the tools, installing them first if needed. */
async function requireTool(name, options) {
	const installDir = await installTools(options);
	return require(path.join(installDir, 'node_modules', name));
}

/** The path of a file inside one of the installed tools (for a tool run as its own process). */
async function toolPath(name, file, options) {
	const installDir = await installTools(options);
	return path.join(installDir, 'node_modules', name, file);
}

module.exports = { installTools, requireTool, toolPath };
