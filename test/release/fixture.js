// What scripts/release.mjs runs against, built for real in a temporary folder: a git repository
// with its origin (a bare clone, so `origin/main` exists as in the guard job's checkout), a
// registry over real HTTP, and the script run as release.yml runs it, in a child process with the
// environment GitHub Actions gives it.
//
//   const { releaseRepository, fakeRegistry, runRelease } = require('./fixture');
const { execFile, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const script = path.join(root, 'scripts', 'release.mjs');
const NAME = 'n8n-nodes-inventory-ops';
const REPOSITORY = 'n8n-nodes-inventory-ops/n8n-nodes-inventory-ops';

const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' }).trim();

/** A package ready to release at `version`, unless the overrides say otherwise. */
function releasable(version = '0.1.0') {
	return {
		pkg: {
			name: NAME,
			version,
			author: { name: 'A maintainer', email: 'maintainer@example.com' },
			repository: { type: 'git', url: `git+https://github.com/${REPOSITORY}.git` },
		},
		changelog: `# Changelog\n\n## ${version} — 2026-11-28\n\nThe first release.\n\n## 0.0.1 — 2026-01-01\n\nOlder.\n`,
		readme: `# ${NAME}\n\n## Installation\n\nOn npm: install it from n8n's Community Nodes settings.\n`,
	};
}

/**
 * A git repository holding package.json, CHANGELOG.md and README.md, committed on main and pushed
 * to a bare origin; `sideCommit` leaves HEAD on a branch commit that main does not have.
 */
function releaseRepository({ version, pkg = {}, changelog, readme, sideCommit = false, origin = true } = {}) {
	const base = releasable(version);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-release-test-'));
	const write = () => {
		fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify({ ...base.pkg, ...pkg }, null, 2)}\n`);
		fs.writeFileSync(path.join(folder, 'CHANGELOG.md'), changelog ?? base.changelog);
		fs.writeFileSync(path.join(folder, 'README.md'), readme ?? base.readme);
	};
	write();
	git(folder, 'init', '-q', '-b', 'main');
	git(folder, 'add', '.');
	git(folder, 'commit', '-q', '-m', 'release');
	if (origin) {
		git(folder, 'clone', '-q', '--bare', folder, path.join(folder, '.origin.git'));
		git(folder, 'remote', 'add', 'origin', path.join(folder, '.origin.git'));
		git(folder, 'fetch', '-q', 'origin');
	}
	if (sideCommit) {
		git(folder, 'checkout', '-q', '-b', 'side');
		fs.appendFileSync(path.join(folder, 'README.md'), '\nA change made on a branch.\n');
		git(folder, 'commit', '-q', '-am', 'on a branch only');
	}
	const event = path.join(folder, '.event.json');
	fs.writeFileSync(event, JSON.stringify({ ref: `refs/tags/v${base.pkg.version}`, repository: { default_branch: 'main' } }));
	return { folder, packageFile: path.join(folder, 'package.json'), event, version: { ...base.pkg, ...pkg }.version, head: git(folder, 'rev-parse', 'HEAD') };
}

/**
 * An npm registry over real HTTP holding what each test gives it: `packages` (or a function
 * returning it, read at each request), `{ [name]: { 'dist-tags', versions } }` (absent: 404, as
 * registry.npmjs.org answers for a package it does not have). It also answers npm's OIDC token
 * exchange (`exchange`: status and body), and stands in for GitHub's id-token endpoint, which
 * cannot run here.
 */
async function fakeRegistry({ packages = {}, exchange = { status: 401, body: { message: 'no trusted publisher matches this workflow' } }, idToken } = {}) {
	const requests = [];
	const server = http.createServer((request, response) => {
		requests.push(`${request.method} ${request.url}`);
		const answer = (status, body) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		const url = new URL(request.url, 'http://x');
		if (url.pathname === '/github/id-token') return answer(idToken.status, idToken.body);
		if (url.pathname.startsWith('/-/npm/v1/oidc/token/exchange/')) return answer(exchange.status, exchange.body);
		const held = (typeof packages === 'function' ? packages() : packages)[decodeURIComponent(url.pathname.slice(1))];
		if (request.method !== 'GET' || !held) return answer(404, { error: 'Not found' });
		return answer(200, { name: NAME, 'dist-tags': held['dist-tags'], versions: Object.fromEntries(held.versions.map((v) => [v, { name: NAME, version: v }])) });
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}/`;
	return { url, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * The registry's answer for a package holding `versions`, with `latest` (default: the last one).
 */
const held = (versions, distTags = { latest: versions.at(-1) }) => ({ [NAME]: { 'dist-tags': distTags, versions } });

/**
 * The environment of the runner, less anything the machine running the tests has of GitHub Actions.
 */
function cleanEnvironment(extra) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(GITHUB_|ACTIONS_|RUNNER_|CI$)/.test(key)));
	return { ...env, npm_config_update_notifier: 'false', ...extra };
}

/**
 * Runs `node scripts/release.mjs <args>` (`source`: node -e of a module importing it); resolves to
 * { code, stdout, stderr, output }.
 */
function runRelease(args, { env = {}, cwd = root, source } = {}) {
	return new Promise((resolve) => {
		execFile(process.execPath, source ? ['--input-type=module', '-e', source] : [script, ...args], { cwd, env: cleanEnvironment(env), timeout: 60_000 }, (error, stdout, stderr) => {
			resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr, output: `${stdout}${stderr}` });
		});
	});
}

/**
 * The environment release.yml's guard job gives the script for a pushed tag of the repository's
 * `v<version>`.
 */
function tagEnvironment(repository, { tag = `v${JSON.parse(fs.readFileSync(repository.packageFile, 'utf8')).version}`, refType = 'tag', githubRepository = REPOSITORY } = {}) {
	return {
		GITHUB_ACTIONS: 'true',
		GITHUB_REF_TYPE: refType,
		GITHUB_REF_NAME: tag,
		GITHUB_REPOSITORY: githubRepository,
		GITHUB_EVENT_PATH: repository.event,
		GITHUB_OUTPUT: path.join(repository.folder, '.github-output'),
	};
}

module.exports = { NAME, REPOSITORY, root, script, git, releasable, releaseRepository, fakeRegistry, held, runRelease, tagEnvironment, cleanEnvironment };
