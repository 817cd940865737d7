// A local npm registry for the release rehearsal and the installer suite: Verdaccio (from
// e2e/tools) on 127.0.0.1 with a throw-away storage folder and no uplink, so the only packages it
// serves are the ones we publish to it (n8n's installer strips the package's peer dependency before
// its `npm install`, so nothing else is asked for). scripts/release.mjs rehearse starts one per
// host line and publishes the release's tarball to it with the release's own `npm publish` (the
// registry and --provenance aside), with a token from Verdaccio's own user sign-up (what `npm
// adduser` does). The installer suite's update is that tarball with only the version in its
// package.json raised, packed and published again.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { run } = require('./hosts');
const { PACKAGE_NAME } = require('./package');
const { toolPath } = require('./tools');
const { exitedWithin, freePort, waitFor } = require('./wait');

const PUBLISHER = { name: 'e2e-publisher', password: 'e2e-publisher-password' };

class LocalRegistry {
	constructor({ folder, port, child }) {
		this.folder = folder;
		this.port = port;
		this.url = `http://127.0.0.1:${port}`;
		this.child = child;
		this.npmrc = path.join(folder, 'npmrc');
	}

	/**
	 * The environment of an npm with its own user config and cache, so nothing of the machine's npm
	 * takes part.
	 */
	npmEnvironment() {
		return {
			...process.env,
			npm_config_userconfig: this.npmrc,
			npm_config_cache: path.join(this.folder, 'npm-cache'),
			npm_config_update_notifier: 'false',
			npm_config_audit: 'false',
			npm_config_fund: 'false',
		};
	}

	npm(args, { cwd = this.folder } = {}) {
		return run('npm', args, { cwd, env: this.npmEnvironment() });
	}

	/** What a suite in another process needs to use this registry (attachRegistry). */
	suiteEnvironment() {
		return { E2E_REGISTRY_URL: this.url, E2E_REGISTRY_FOLDER: this.folder };
	}

	/**
	 * Signs up the publisher (Verdaccio's htpasswd allows it) and keeps its token in this registry's
	 * npmrc.
	 */
	async signUp() {
		const response = await fetch(`${this.url}/-/user/org.couchdb.user:${PUBLISHER.name}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				name: PUBLISHER.name,
				password: PUBLISHER.password,
				type: 'user',
				roles: [],
			}),
		});
		const body = await response.json();
		if (!response.ok || !body.token)
			throw new Error(`Verdaccio sign-up answered ${response.status}: ${JSON.stringify(body)}`);
		fs.writeFileSync(
			this.npmrc,
			`registry=${this.url}/\n//127.0.0.1:${this.port}/:_authToken=${body.token}\n`,
			{ mode: 0o600 },
		);
	}

	/**
	 * The same tarball with another version in its package.json, packed again; resolves to the new
	 * tarball's path.
	 */
	async withVersion(tarball, version) {
		const folder = path.join(this.folder, `unpacked-${version}`);
		fs.mkdirSync(folder, { recursive: true });
		await run('tar', ['-xzf', tarball, '-C', folder], {});
		const manifestPath = path.join(folder, 'package', 'package.json');
		const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
		fs.writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
		const output = await this.npm([
			'pack',
			path.join(folder, 'package'),
			'--pack-destination',
			this.folder,
			'--json',
			'--ignore-scripts',
			'--silent',
		]);
		const [report] = JSON.parse(output.slice(output.indexOf('[')));
		return path.join(this.folder, report.filename);
	}

	async publish(tarball) {
		await this.npm(['publish', tarball, '--registry', `${this.url}/`, '--ignore-scripts']);
	}

	/** The versions the registry serves for the package, as npm would see them. */
	async versions() {
		const response = await fetch(`${this.url}/${PACKAGE_NAME}`);
		if (response.status === 404) return [];
		return Object.keys((await response.json()).versions).sort();
	}

	async close() {
		if (!this.child) return;
		const child = this.child;
		this.child = undefined;
		child.kill('SIGTERM');
		if (!(await exitedWithin(child, 10_000))) {
			child.kill('SIGKILL');
			await child.exited;
		}
		fs.rmSync(this.folder, { recursive: true, force: true });
	}
}

/**
 * Starts Verdaccio on a free loopback port with a fresh storage folder; resolves once it answers
 * /-/ping.
 */
async function startRegistry({ log = () => {} } = {}) {
	const bin = await toolPath('verdaccio', path.join('bin', 'verdaccio'), { log });
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-registry-'));
	const port = await freePort();
	// JSON is YAML, so the config needs no YAML writer.
	const config = {
		storage: path.join(folder, 'storage'),
		auth: { htpasswd: { file: path.join(folder, 'htpasswd'), max_users: 10 } },
		uplinks: {},
		packages: { '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' } },
		web: { enable: false },
		log: { type: 'stdout', format: 'pretty', level: 'warn' },
	};
	const configPath = path.join(folder, 'config.yaml');
	fs.writeFileSync(configPath, JSON.stringify(config, null, 2));
	const child = spawn(
		process.execPath,
		[bin, '--config', configPath, '--listen', `127.0.0.1:${port}`],
		{
			cwd: folder,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let output = '';
	const keep = (chunk) => {
		output = (output + chunk.toString()).slice(-4000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	child.exited = new Promise((resolve) => child.on('exit', resolve));
	const registry = new LocalRegistry({ folder, port, child });
	try {
		await waitFor(
			async () => {
				if (child.exitCode !== null)
					throw new Error(`Verdaccio exited (${child.exitCode}): ${output}`);
				return (await fetch(`${registry.url}/-/ping`)).ok;
			},
			{ timeoutMs: 30_000, what: 'Verdaccio to answer /-/ping' },
		);
		await registry.signUp();
	} catch (error) {
		await registry.close();
		throw error;
	}
	log(`local registry (Verdaccio) on ${registry.url}`);
	return registry;
}

/**
 * The registry another process started (scripts/release.mjs rehearse), from its suiteEnvironment();
 * closing it leaves it running for its owner.
 */
function attachRegistry({ E2E_REGISTRY_URL: url, E2E_REGISTRY_FOLDER: folder } = process.env) {
	if (!url || !folder) return undefined;
	return new LocalRegistry({ folder, port: Number(new URL(url).port), child: undefined });
}

module.exports = { attachRegistry, startRegistry };
