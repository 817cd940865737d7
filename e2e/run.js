// `npm run e2e [-- <host line>...]`: the end-to-end suite (tests/n8n.e2e.test.js) in real n8n hosts
// (every line in e2e/hosts/ by default, or E2E_HOSTS=1.x,2.x). It builds the package once, installs
// the missing hosts side by side, then runs jest once per host line (the lines in parallel;
// E2E_SERIAL=1 runs them one after another), each writing reports/e2e-<line>.json for
// scripts/jest-totals.js (reports/e2e-<line>-<profile>.json when the line runs against another
// sandbox profile than its per-push one, so a run with the profiles swapped keeps its own report).
// The installer suite (tests/installer.e2e.test.js) installs the release's tarball from a registry,
// so the release rehearsal runs it (scripts/release.mjs rehearse, through runSuite below):
// reports/e2e-installer-<line>.json.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT, hostLines, installHost } = require('./lib/hosts');
const { buildPackage } = require('./lib/package');
const { installTools } = require('./lib/tools');

const log = (line) => process.stdout.write(`e2e: ${line}\n`);

// The sandbox profile (sandbox/profiles.js) each host line runs against on every push: two
// contrasting ones, one per line. The `swapped` slice of `npm run test:all` (scripts/test-all.sh)
// swaps them, so both lines meet both profiles. E2E_SANDBOX_PROFILES=swapped gives each line the
// other line's profile; E2E_SANDBOX_PROFILES=1.x=documented,2.x=gateway sets them per line;
// E2E_SANDBOX_PROFILE=<name> one for all lines.
const PER_PUSH_PROFILES = { '1.x': 'gateway', '2.x': 'documented' };
const SWAPPED_PROFILES = { '1.x': PER_PUSH_PROFILES['2.x'], '2.x': PER_PUSH_PROFILES['1.x'] };

function profileFor(line) {
	if (process.env.E2E_SANDBOX_PROFILE) return process.env.E2E_SANDBOX_PROFILE;
	if (process.env.E2E_SANDBOX_PROFILES === 'swapped') return SWAPPED_PROFILES[line] ?? 'documented';
	const chosen = Object.fromEntries(
		(process.env.E2E_SANDBOX_PROFILES ?? '')
			.split(',')
			.map((pair) => pair.split('=').map((part) => part.trim()))
			.filter(([name, profile]) => name && profile),
	);
	return chosen[line] ?? PER_PUSH_PROFILES[line] ?? 'documented';
}

function requestedLines() {
	const fromArgs = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
	if (fromArgs.length > 0) return fromArgs;
	if (process.env.E2E_HOSTS)
		return process.env.E2E_HOSTS.split(',')
			.map((line) => line.trim())
			.filter(Boolean);
	return hostLines();
}

const SUITES = { main: 'n8n.e2e.test.js', installer: 'installer.e2e.test.js' };

/**
 * Runs one suite of tests/ on one host line in its own jest; resolves to { line, profile, code,
 * seconds }.
 */
function runSuite(line, { suite = 'main', env = {} } = {}) {
	const profile = profileFor(line);
	const ownProfile = profile === (PER_PUSH_PROFILES[line] ?? 'documented');
	const name =
		suite === 'main' ? `e2e-${line}${ownProfile ? '' : `-${profile}`}` : `e2e-${suite}-${line}`;
	const report = path.join(REPO_ROOT, 'reports', `${name}.json`);
	fs.mkdirSync(path.dirname(report), { recursive: true });
	fs.rmSync(report, { force: true });
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			[
				require.resolve('jest/bin/jest', { paths: [REPO_ROOT] }),
				'--config',
				path.join(REPO_ROOT, 'e2e', 'jest.config.js'),
				`tests/${SUITES[suite]}`,
				'--json',
				`--outputFile=${report}`,
			],
			{
				cwd: REPO_ROOT,
				env: {
					...process.env,
					E2E_HOST_LINE: line,
					E2E_SANDBOX_PROFILE: profile,
					E2E_SKIP_BUILD: '1',
					FORCE_COLOR: '0',
					...env,
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const prefix = (stream) => {
			let rest = '';
			stream.on('data', (chunk) => {
				const lines = (rest + chunk.toString()).split('\n');
				rest = lines.pop();
				for (const text of lines) process.stdout.write(`[n8n ${line}] ${text}\n`);
			});
			stream.on('end', () => rest && process.stdout.write(`[n8n ${line}] ${rest}\n`));
		};
		prefix(child.stdout);
		prefix(child.stderr);
		child.on('close', (code) =>
			resolve({ line, profile, code, seconds: (Date.now() - started) / 1000 }),
		);
	});
}

async function main() {
	const lines = requestedLines();
	const started = Date.now();
	fs.mkdirSync(path.join(REPO_ROOT, 'reports'), { recursive: true });
	const hosts = await Promise.all([
		buildPackage({ log }),
		installTools({ log }), // playwright-core, for the editor in a real browser
		...lines.map((line) => installHost(line, { log })),
	]);
	for (const host of hosts.slice(2)) {
		log(
			`host ${host.line}: n8n ${host.version}${host.installedNow ? ` (installed in ${(host.installMs / 1000).toFixed(0)} s)` : ''}`,
		);
	}
	const results = [];
	if (process.env.E2E_SERIAL === '1') {
		for (const line of lines) results.push(await runSuite(line));
	} else {
		results.push(...(await Promise.all(lines.map((line) => runSuite(line)))));
	}
	for (const result of results) {
		log(
			`n8n ${result.line}, sandbox profile ${result.profile}: jest ${result.code === 0 ? 'passed' : `failed (exit ${result.code})`} in ${result.seconds.toFixed(0)} s`,
		);
	}
	log(`finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	process.exit(results.every((result) => result.code === 0) ? 0 : 1);
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`e2e: ${error.stack ?? error}\n`);
		process.exit(1);
	});
}

module.exports = { runSuite };
