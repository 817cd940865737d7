// The n8n hosts the package is proven in. Each host line has its own pinned folder
// (e2e/hosts/<line>/ with a package.json and a committed package-lock.json) and is installed on
// demand with `npm ci` into a git-ignored cache, .cache/hosts/n8n-<version>-<lock hash>/, never
// into the package's own node_modules.
//
// Why these versions (checked on 2026-11-22 against the npm registry mirror the project's CI
// installs from):
// - 1.99: n8n@1.99.1, the oldest n8n the package supports; run only when named (the `oldest` slice
// of
// `npm run test:all`, scripts/test-all.sh). It is the oldest 1.x in the registry whose engines
// accept Node 24 (`npm view n8n@1.x engines`: 1.97.1 and older say <= 22, and n8n refuses to start
// on a Node outside them; the registry has no 1.98). Its n8n-workflow (1.96.0) loads the nodes as
// they are built.
//   Same xlsx override as 1.x; its sqlite3 is the same 5.1.7.
// - 1.x: n8n@1.123.81, the newest 1.123. Its `xlsx` dependency points at a tarball outside the
// registry, so the
// host's package.json overrides it with the registry's xlsx@0.18.5. sqlite3 builds from source
// (node-gyp)
//   against Node 24's headers; isolated-vm ships prebuilt binaries for Node 22/24.
// - 2.x: n8n@2.41.1. The newer 2.41.3 (the registry's `latest`, checked 2026-11-26) does not
// install: it pins 20 of
// n8n's own packages at versions the registry does not have (@n8n/agents 0.26.2 is only the first
// npm stops at;
// also n8n-core 2.41.2, n8n-editor-ui 2.41.1, @n8n/config 2.39.1, @n8n/api-types 1.41.1,
// @n8n/backend-common
// 1.41.2, @n8n/task-runner 2.41.2...; the registry ends at the versions 2.41.1 pins). Overriding
// them would run
// 2.41.3's n8n package on 2.41.1's engine and editor, a host nobody runs, and that package reads
// constants
//   (INSTANCE_AI_SETUP_PANEL_FLAG) the older @n8n/api-types lacks. 2.41.1 and
// 2.41.0 resolve linkedom@^0.18.13 to 0.18.15, which depends on `cssomnom`, missing from the
// registry; the
// host overrides linkedom with 0.18.14 (inside n8n's own range, the last release before cssomnom).
// Install scripts: `npm ci --ignore-scripts`, then sqlite3 is compiled (once, see provideSqlite3).
// n8n 2.x's Kafka client (@confluentinc/kafka-javascript) builds librdkafka from source and
// downloads zlib from zlib.net, which a CI without general internet access cannot reach, so a plain
// install fails there; the other scripts are optional native speed-ups, telemetry (@scarf) or
// checks. sqlite3 (n8n's database) is the one native addon n8n needs that has no prebuilt binary we
// can reach: it compiles with node-gyp against the running Node's headers. isolated-vm loads its
// bundled Node 22/24 prebuilds at run time without a script.
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const HOSTS_DIR = path.join(REPO_ROOT, 'e2e', 'hosts');
const CACHE_DIR = path.join(REPO_ROOT, '.cache', 'hosts');
// n8n user folders, databases and logs live outside the repository: n8n copies ~700 editor .js
// assets into each user folder, and `n8n-node lint` (whose ESLint config strict mode forbids
// changing) would walk them all. Everything left under .cache/ sits inside node_modules folders,
// which ESLint skips. One folder per clone, so clones never collide.
const RUNTIME_DIR = path.join(
	require('node:os').tmpdir(),
	`n8n-nodes-inventory-ops-${crypto.createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 10)}`,
);
const INSTALLED_MARKER = '.installed';

function compareVersions(a, b) {
	const [x, y] = [a, b].map((version) => version.split('.').map(Number));
	return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

function isOnlyWhenNamed(line) {
	return (
		JSON.parse(fs.readFileSync(path.join(HOSTS_DIR, line, 'package.json'), 'utf8'))
			.e2eOnlyWhenNamed === true
	);
}

/**
 * Host lines, oldest first: the ones every push runs. A line whose package.json says
 * `"e2eOnlyWhenNamed": true` (the oldest supported n8n) runs only when named (E2E_HOSTS or
 * arguments, as the `oldest` slice of scripts/test-all.sh does); `{ all: true }` lists it too. The
 * newest line is what `npm run dev` uses.
 */
function hostLines({ all = false } = {}) {
	return fs
		.readdirSync(HOSTS_DIR)
		.filter((line) => fs.existsSync(path.join(HOSTS_DIR, line, 'package-lock.json')))
		.filter((line) => all || !isOnlyWhenNamed(line))
		.sort((a, b) => compareVersions(describeHost(a).version, describeHost(b).version));
}

function newestHostLine() {
	const lines = hostLines();
	return lines[lines.length - 1];
}

function describeHost(line) {
	const folder = path.join(HOSTS_DIR, line);
	if (!fs.existsSync(path.join(folder, 'package-lock.json'))) {
		throw new Error(
			`Unknown n8n host line "${line}" (known: ${hostLines({ all: true }).join(', ')})`,
		);
	}
	const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
	const version = manifest.dependencies.n8n;
	const lockHash = crypto
		.createHash('sha256')
		.update(fs.readFileSync(path.join(folder, 'package.json')))
		.update(fs.readFileSync(path.join(folder, 'package-lock.json')))
		.digest('hex')
		.slice(0, 10);
	const installDir = path.join(CACHE_DIR, `n8n-${version}-${lockHash}`);
	return {
		line,
		version,
		folder,
		installDir,
		n8nBin: path.join(installDir, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

function isInstalled(host) {
	return fs.existsSync(path.join(host.installDir, INSTALLED_MARKER));
}

/**
 * Native addons (sqlite3) must compile against the headers of the Node that runs n8n, i.e. this
 * one.
 */
function npmEnvironment() {
	const env = {
		...process.env,
		npm_config_yes: 'true',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
	};
	const nodeRoot = path.resolve(path.dirname(process.execPath), '..');
	if (fs.existsSync(path.join(nodeRoot, 'include', 'node', 'node_api.h')))
		env.npm_config_nodedir = nodeRoot;
	return env;
}

function run(command, args, options) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
		let output = '';
		const keep = (chunk) => {
			output = (output + chunk.toString()).slice(-20_000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) resolve(output);
			else reject(new Error(`${command} ${args.join(' ')} failed with ${code}:\n${output}`));
		});
	});
}

const sqlite3Builds = new Map();

/**
 * sqlite3 compiled for this Node, built once and shared by every host that pins the same sqlite3
 * version (both lines do), kept in .cache/hosts/native/. Compiling it takes a couple of CPU
 * minutes, the biggest part of an install after the download.
 */
async function provideSqlite3(installDir, env, log) {
	const moduleDir = path.join(installDir, 'node_modules', 'sqlite3');
	const { version } = JSON.parse(fs.readFileSync(path.join(moduleDir, 'package.json'), 'utf8'));
	const key = `sqlite3-${version}-abi${process.versions.modules}-${process.platform}-${process.arch}`;
	const cached = path.join(CACHE_DIR, 'native', key, 'node_sqlite3.node');
	const binary = path.join(moduleDir, 'build', 'Release', 'node_sqlite3.node');
	if (!sqlite3Builds.has(key)) {
		sqlite3Builds.set(
			key,
			(async () => {
				if (fs.existsSync(cached)) return;
				const started = Date.now();
				await run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], { cwd: installDir, env });
				fs.mkdirSync(path.dirname(cached), { recursive: true });
				fs.copyFileSync(binary, `${cached}.${process.pid}`);
				fs.renameSync(`${cached}.${process.pid}`, cached);
				log(`compiled ${key} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
			})(),
		);
	}
	await sqlite3Builds.get(key);
	if (!fs.existsSync(binary)) {
		fs.mkdirSync(path.dirname(binary), { recursive: true });
		fs.copyFileSync(cached, binary);
	}
}

/**
 * Installs a host line unless it is already in the cache. It installs into a temporary folder and
 * renames it into place when `npm ci` succeeded, so an interrupted install never leaves a
 * half-installed host behind, and two processes installing the same host at once both end up with a
 * complete one.
 */
async function installHost(line, { log = () => {} } = {}) {
	const host = describeHost(line);
	if (isInstalled(host)) return { ...host, installedNow: false, installMs: 0 };

	const started = Date.now();
	fs.mkdirSync(CACHE_DIR, { recursive: true });
	const staging = `${host.installDir}.staging-${process.pid}`;
	fs.rmSync(staging, { recursive: true, force: true });
	fs.mkdirSync(staging);
	for (const file of ['package.json', 'package-lock.json']) {
		fs.copyFileSync(path.join(host.folder, file), path.join(staging, file));
	}
	log(
		`installing n8n ${host.version} (host line ${line}) into ${path.relative(REPO_ROOT, host.installDir)}`,
	);
	try {
		const env = npmEnvironment();
		await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: staging,
			env,
		});
		await provideSqlite3(staging, env, log);
		fs.writeFileSync(path.join(staging, INSTALLED_MARKER), `${new Date().toISOString()}\n`);
		if (isInstalled(host)) {
			fs.rmSync(staging, { recursive: true, force: true });
		} else {
			fs.rmSync(host.installDir, { recursive: true, force: true });
			fs.renameSync(staging, host.installDir);
		}
	} catch (error) {
		fs.rmSync(staging, { recursive: true, force: true });
		throw error;
	}
	const installMs = Date.now() - started;
	log(`installed n8n ${host.version} in ${(installMs / 1000).toFixed(0)} s`);
	return { ...host, installedNow: true, installMs };
}

module.exports = {
	REPO_ROOT,
	RUNTIME_DIR,
	hostLines,
	isOnlyWhenNamed,
	newestHostLine,
	describeHost,
	installHost,
	isInstalled,
	provideSqlite3,
	run,
};
