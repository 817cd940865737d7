#!/usr/bin/env node
// The steps that turn a commit into what users install, in one place: .github/workflows/release.yml
// runs them for a tag, and `npm run release:rehearse` (README's test command, every CI run) runs
// the same ones against a local registry. The rehearsal differs from the release only in the
// registry, in `--provenance`, and in running `prepare` on its own build (a tagged commit is
// prepared already).
//
//   node scripts/release.mjs prepare <version> [--package <package.json>]
// The release commit's edits: package.json's (and package-lock.json's) version, CHANGELOG.md's
// entry dated
//       today in place of `— unreleased`, and README's status line turned into the released one.
//   node scripts/release.mjs guard [--rehearsal] [--registry <url>] [--package <package.json>]
// Every release shape decided up front, in a second: the tag, the commit on origin's default
// branch, the
// repository, the author, CHANGELOG.md's dated entry and README's status (what `prepare` does), the
// package
// on the registry already (trusted publishing cannot create one), prerelease and backport (the
// registry's
// `latest`). Prints the dist-tag (and writes `version`, `dist-tag` to $GITHUB_OUTPUT). A release
// refuses with
// every reason; a rehearsal prints what a release of this commit would refuse and goes on (until
// the first
// release, main carries a placeholder author and an undated CHANGELOG entry), and says what it
// cannot check.
//   node scripts/release.mjs build --out <folder>
// A fresh build of the commit (HEAD) from `git archive` in an empty folder: `npm ci
// --ignore-scripts`, `npm run
// build`, `npm pack`. Prints the tarball; writes `tarball`, `sha256` to $GITHUB_OUTPUT. (The
// rehearsal runs
//       `prepare` in that folder first, as the release commit will have.)
//   node scripts/release.mjs verify <tarball>
// The pack test (test/package/pack.test.js) and n8n's scanner rules (scripts/scan-package.mjs) on
// that tarball.
//   node scripts/release.mjs publish <tarball> --dist-tag <tag> --sha256 <hash>
// The release's publish: registry.npmjs.org, trusted publishing (npm's OIDC exchange, logged),
// provenance.
//   node scripts/release.mjs rehearse [--tarball <file>] [<host line>...]
// guard, build (or the given tarball, e.g. the release's build job's), the tarball's README checked
// for the
//       released status line, verify, publish to a local registry
// (Verdaccio, e2e/lib/registry.js), then n8n's community-package installer installs it from there
// into a fresh
//       n8n of each host line (1.x and 2.x by default) and a workflow runs against the sandbox
//       (e2e/tests/installer.e2e.test.js).
//   node scripts/release.mjs prepublish
// package.json's prepublishOnly: `npm publish` from a clone is refused, except the one bootstrap
// publish of
// 0.0.0 that CONTRIBUTING.md describes (a release publishes a tarball from release.yml, which runs
// no
//       lifecycle script).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const NPMJS = 'https://registry.npmjs.org/';
/** The version npm added trusted publishing in. */
const NPM_WITH_TRUSTED_PUBLISHING = '11.5.1';
/**
 * The one version a maintainer publishes from a clone: the name's placeholder (CONTRIBUTING.md,
 * Releasing).
 */
const BOOTSTRAP_VERSION = '0.0.0';
/**
 * README's status line until the first release begins with this; `prepare` puts RELEASED_STATUS in
 * its place.
 */
const NOT_ON_NPM = 'Not on npm yet';
const RELEASED_STATUS = "**On npm.** Install it from n8n's editor, as below.";

const log = (text) => process.stdout.write(`release: ${text}\n`);

// ---- Versions
// ------------------------------------------------------------------------------------------------
// semver.org's own pattern for a version (build metadata left out: npm drops it).
const SEMVER =
	/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?$/;

/**
 * Parses a version, or undefined. The guard runs before `npm ci` (in seconds), so it cannot load
 * `semver`.
 */
export function parseVersion(text) {
	const match = SEMVER.exec(String(text));
	if (!match) return undefined;
	return {
		numbers: match.slice(1, 4).map(Number),
		prerelease: match[4] ? match[4].split('.') : [],
	};
}

/**
 * semver precedence: -1, 0 or 1 (test/release/guard.test.js holds it to the `semver` package's).
 */
export function compareVersions(a, b) {
	const [x, y] = [parseVersion(a), parseVersion(b)];
	for (let i = 0; i < 3; i++)
		if (x.numbers[i] !== y.numbers[i]) return x.numbers[i] < y.numbers[i] ? -1 : 1;
	if (x.prerelease.length === 0 || y.prerelease.length === 0)
		return Math.sign(y.prerelease.length - x.prerelease.length);
	for (let i = 0; i < Math.max(x.prerelease.length, y.prerelease.length); i++) {
		const [p, q] = [x.prerelease[i], y.prerelease[i]];
		if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
		if (p === q) continue;
		const [pn, qn] = [/^\d+$/.test(p), /^\d+$/.test(q)];
		if (pn && qn) return Number(p) < Number(q) ? -1 : 1;
		if (pn !== qn) return pn ? -1 : 1;
		return p < q ? -1 : 1;
	}
	return 0;
}

// ---- Guard
// ------------------------------------------------------------------------------------------------
/**
 * What the registry holds of the package: its dist-tags and versions (none when it answers 404).
 */
export async function readRegistry(registry, name) {
	const url = new URL(
		encodeURIComponent(name).replace(/^%40/, '@'),
		registry.endsWith('/') ? registry : `${registry}/`,
	);
	let response;
	try {
		response = await fetch(url, { headers: { accept: 'application/vnd.npm.install-v1+json' } });
	} catch (error) {
		throw new Error(
			`could not reach the registry ${registry} (${error.cause?.code ?? error.message}) to read ${name}'s dist-tags`,
		);
	}
	if (response.status === 404) return { exists: false, distTags: {}, versions: [] };
	if (!response.ok)
		throw new Error(
			`the registry ${registry} answered ${response.status} when asked for ${name}'s dist-tags`,
		);
	const body = await response.json();
	return {
		exists: true,
		distTags: body['dist-tags'] ?? {},
		versions: Object.keys(body.versions ?? {}),
	};
}

/** CHANGELOG.md's entry for `version`: its heading's match and its text up to the next entry. */
function changelogEntry(changelog, version) {
	const heading = new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]? — (.*)$`, 'm').exec(
		changelog,
	);
	if (!heading) return undefined;
	const rest = changelog.slice(heading.index + heading[0].length);
	const next = rest.search(/^## /m);
	return { heading, text: next === -1 ? rest : rest.slice(0, next) };
}

/**
 * Decides a release of `pkg` from the tag, the repository running the workflow, the files the tag
 * ships, whether the commit is on the default branch (`branch`: a refusal or a note, found by
 * runGuard) and what the registry holds. Returns { version, tag, distTag, refusals, notes }: a
 * release goes ahead only with no refusal.
 */
export function decide({
	pkg,
	tag,
	repository,
	changelog = '',
	readme = '',
	branch = {},
	rehearsal = false,
	registry: { exists = true, distTags, versions },
}) {
	const refusals = [];
	const notes = [];
	const version = pkg.version;
	const parsed = parseVersion(version);
	if (!parsed)
		return {
			version,
			tag,
			refusals: [`package.json's version "${version}" is not a semantic version`],
			notes,
		};

	if (tag !== `v${version}`) {
		refusals.push(
			`the tag ${tag ?? '(none)'} is not v${version}, the version in package.json: tag the commit that carries the version`,
		);
	}
	if (!repository) {
		refusals.push(
			'no repository to compare package.json with (GITHUB_REPOSITORY is unset): a release runs in GitHub Actions',
		);
	} else if (pkg.repository?.url !== `git+https://github.com/${repository}.git`) {
		refusals.push(
			`package.json's repository.url is ${pkg.repository?.url}, but this runs in ${repository}: npm refuses provenance that names another repository (CONTRIBUTING.md, What a maintainer sets once, 1)`,
		);
	}
	const email = pkg.author?.email;
	if (!email || /\.invalid$/i.test(email)) {
		refusals.push(
			`package.json's author.email is ${email ?? 'missing'}, a placeholder: set a maintainer's address (CONTRIBUTING.md, What a maintainer sets once, 2)`,
		);
	}

	// The entry and README ship with the tag (GitHub shows the one, npm the other), so they must not
	// say "unreleased": `prepare` makes both edits.
	const prepareStep = `run \`node scripts/release.mjs prepare ${version}\` and commit (CONTRIBUTING.md, Cutting a release, 1)`;
	const entry = changelogEntry(changelog, version);
	if (!entry || !/^\d{4}-\d{2}-\d{2}$/.test(entry.heading[1].trim())) {
		refusals.push(
			`CHANGELOG.md has no dated entry for ${version} (\`## ${version} — YYYY-MM-DD\`${entry ? `; it says \`${entry.heading[0].trim()}\`` : ''}): ${entry ? '' : `add \`## ${version} — unreleased\` with its changes, then `}${prepareStep}`,
		);
	} else if (entry.text.includes(NOT_ON_NPM)) {
		refusals.push(
			`CHANGELOG.md's entry for ${version} still says "${NOT_ON_NPM}": reword it, then ${prepareStep}`,
		);
	}
	if (readme.includes(NOT_ON_NPM)) {
		refusals.push(`README.md still says "${NOT_ON_NPM}", and it is the npm page: ${prepareStep}`);
	}
	if (branch.refusal) refusals.push(branch.refusal);
	if (branch.note) notes.push(branch.note);
	// A rehearsal's local registry starts empty; npm will not be, once step 4 is done.
	if (!exists && rehearsal) {
		notes.push(
			'not checked in a rehearsal: the local registry is fresh; on npm, the package must exist first (CONTRIBUTING.md, What a maintainer sets once, 4)',
		);
	} else if (!exists) {
		refusals.push(
			`the registry has no ${pkg.name} yet, and trusted publishing cannot create a package: publish 0.0.0 by hand first (CONTRIBUTING.md, What a maintainer sets once, 4. The first version, once, by hand)`,
		);
	}

	const latest = distTags.latest;
	let distTag;
	if (versions.includes(version)) {
		refusals.push(
			`${pkg.name}@${version} is already on the registry, and a published version cannot be replaced: raise the version`,
		);
	} else if (parsed.prerelease.length > 0) {
		if (latest && compareVersions(version, latest) < 0) {
			refusals.push(
				`the prerelease ${version} is lower than latest (${latest}): \`next\` would offer testers an older line; tag a prerelease of the next version`,
			);
		} else {
			distTag = 'next';
			notes.push(
				`${version} is a prerelease: dist-tag next, so that latest (${latest ?? 'none yet'}) stays what n8n installs`,
			);
		}
	} else if (!latest || compareVersions(version, latest) > 0) {
		distTag = 'latest';
	} else {
		// A backport: a fix to an older line. It gets that line's own dist-tag, so latest (what n8n's
		// installer and its Update button take) stays on the newest line; it must be the newest of its
		// line.
		const [major, minor] = parsed.numbers;
		const line = `${major}.${minor}`;
		const newerInLine = versions.filter(
			(other) =>
				parseVersion(other)?.numbers.slice(0, 2).join('.') === line &&
				compareVersions(other, version) > 0,
		);
		if (newerInLine.length > 0) {
			refusals.push(
				`${version} is lower than ${newerInLine.sort(compareVersions).at(-1)}, already published in its line ${line}: a backport must be the newest of its line`,
			);
		} else {
			distTag = `latest-${line}`;
			notes.push(
				`${version} is lower than latest (${latest}): a backport, published under the dist-tag ${distTag}; latest stays ${latest}`,
			);
		}
	}
	return { version, tag, distTag, refusals, notes };
}

function writeOutputs(outputs) {
	if (!process.env.GITHUB_OUTPUT) return;
	fs.appendFileSync(
		process.env.GITHUB_OUTPUT,
		Object.entries(outputs)
			.map(([key, value]) => `${key}=${value}\n`)
			.join(''),
	);
}

/**
 * Whether HEAD is on origin's default branch (the event's repository.default_branch): the
 * Environment's `v*` rule lets any tag publish, wherever its commit is. release.yml's guard job
 * checks out with fetch-depth: 0, so the branch is there to compare with.
 */
function defaultBranchCheck(cwd) {
	const event =
		process.env.GITHUB_EVENT_PATH && fs.existsSync(process.env.GITHUB_EVENT_PATH)
			? JSON.parse(fs.readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'))
			: {};
	const branch = event.repository?.default_branch;
	if (!branch)
		return {
			refusal:
				'the default branch is unknown (no repository.default_branch in the event, GITHUB_EVENT_PATH): a release runs in GitHub Actions',
		};
	const git = (...args) => spawnSync('git', args, { cwd, encoding: 'utf8' });
	const ref = `refs/remotes/origin/${branch}`;
	if (git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`).status !== 0) {
		return {
			refusal: `origin/${branch} is not in this checkout, so the guard cannot tell whether the tagged commit is on ${branch}: check out with fetch-depth: 0, as release.yml's guard job does`,
		};
	}
	const head = git('rev-parse', '--short=7', 'HEAD').stdout.trim();
	const ancestor = git('merge-base', '--is-ancestor', 'HEAD', ref);
	if (ancestor.status === 0) return { note: `${head} is on origin/${branch}, the default branch` };
	if (ancestor.status === 1) {
		return {
			refusal: `the tagged commit ${head} is not on origin/${branch}, the default branch: tag a commit of ${branch}, after CI passed on it (CONTRIBUTING.md, Cutting a release, 1)`,
		};
	}
	throw new Error(`git merge-base --is-ancestor HEAD ${ref} failed: ${ancestor.stderr.trim()}`);
}

/**
 * The guard command; returns the decision, throws when a release (not a rehearsal) must not go on.
 */
export async function runGuard({
	rehearsal = false,
	registry = NPMJS,
	packageFile = path.join(root, 'package.json'),
} = {}) {
	const pkg = JSON.parse(fs.readFileSync(packageFile, 'utf8'));
	const folder = path.dirname(packageFile);
	const tag = rehearsal
		? `v${pkg.version}`
		: process.env.GITHUB_REF_TYPE === 'tag'
			? process.env.GITHUB_REF_NAME
			: undefined;
	const repository = process.env.GITHUB_REPOSITORY || undefined;
	const readText = (name) =>
		fs.existsSync(path.join(folder, name)) ? fs.readFileSync(path.join(folder, name), 'utf8') : '';
	// A rehearsal runs on every branch's commits, and may have no remote at all.
	const branch = rehearsal
		? {
				note: 'not checked in a rehearsal: whether the commit is on the default branch (a rehearsal runs on any branch)',
			}
		: defaultBranchCheck(folder);
	const onRegistry = await readRegistry(registry, pkg.name);
	const decision = decide({
		pkg,
		tag,
		repository,
		changelog: readText('CHANGELOG.md'),
		readme: readText('README.md'),
		branch,
		rehearsal,
		registry: onRegistry,
	});
	log(
		`guard${rehearsal ? ' (rehearsal)' : ''}: ${pkg.name}@${decision.version}, tag ${tag ?? '(none)'}, repository ${repository ?? '(not in GitHub Actions)'}, registry ${registry} (latest: ${onRegistry.distTags.latest ?? 'none'})`,
	);
	for (const note of decision.notes) log(`guard: ${note}`);
	if (decision.refusals.length > 0) {
		const heading = rehearsal
			? 'a release of this commit would be refused; the rehearsal goes on'
			: 'refused';
		log(`guard: ${heading}:\n${decision.refusals.map((reason) => `  - ${reason}`).join('\n')}`);
		if (!rehearsal || !decision.distTag)
			throw new Error(`guard: ${decision.refusals.length} reason(s) above`);
	}
	log(`guard: publishes ${decision.version} under the dist-tag ${decision.distTag}`);
	writeOutputs({ version: decision.version, 'dist-tag': decision.distTag });
	return decision;
}

// ---- Prepare
// ------------------------------------------------------------------------------------------------
/**
 * The release commit's edits, all or none: the version in package.json and package-lock.json,
 * CHANGELOG.md's entry dated today, README's status line. Running it again changes nothing.
 */
export function prepare({
	version,
	packageFile = path.join(root, 'package.json'),
	today = new Date(),
}) {
	if (!parseVersion(version)) throw new Error(`prepare: "${version}" is not a semantic version`);
	const folder = path.dirname(packageFile);
	const file = (name) => path.join(folder, name);
	const edits = {};

	for (const name of ['package.json', 'package-lock.json']) {
		if (!fs.existsSync(file(name))) continue;
		const json = JSON.parse(fs.readFileSync(file(name), 'utf8'));
		if (json.version === version) continue;
		json.version = version;
		if (json.packages?.['']) json.packages[''].version = version;
		edits[name] = `${JSON.stringify(json, null, 2)}\n`;
	}

	const changelog = fs.readFileSync(file('CHANGELOG.md'), 'utf8');
	const entry = changelogEntry(changelog, version);
	if (!entry)
		throw new Error(
			`prepare: CHANGELOG.md has no entry for ${version}: add \`## ${version} — unreleased\` with its changes, then run prepare again`,
		);
	const day = entry.heading[1].trim();
	if (day === 'unreleased') {
		edits['CHANGELOG.md'] = changelog.replace(
			entry.heading[0],
			entry.heading[0].replace(/— unreleased$/, `— ${today.toISOString().slice(0, 10)}`),
		);
	} else if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
		throw new Error(
			`prepare: CHANGELOG.md's entry for ${version} says \`${entry.heading[0]}\`, neither "unreleased" nor a day`,
		);
	}

	const readme = fs.readFileSync(file('README.md'), 'utf8');
	if (!readme.includes(RELEASED_STATUS)) {
		const status = new RegExp(`^\\*\\*${NOT_ON_NPM}\\.\\*\\*.*$`, 'm');
		if (!status.test(readme))
			throw new Error(
				`prepare: README.md has no status line to turn into the released one (a line beginning "**${NOT_ON_NPM}.**")`,
			);
		edits['README.md'] = readme.replace(status, RELEASED_STATUS);
	}

	for (const [name, text] of Object.entries(edits)) fs.writeFileSync(file(name), text);
	log(
		`prepare: ${version}: ${Object.keys(edits).join(', ') || 'nothing to change'}${Object.keys(edits).length ? ' changed' : ''}`,
	);
}

/**
 * The rehearsal's check of what npm will show: the tarball's README has the released status line.
 */
export function checkReleasedReadme(tarball) {
	const readme = execFileSync('tar', ['-xzOf', tarball, 'package/README.md'], { encoding: 'utf8' });
	if (readme.includes(NOT_ON_NPM))
		throw new Error(
			`the tarball's README.md says "${NOT_ON_NPM}": npm would show it as the released package's page`,
		);
	if (!readme.includes(RELEASED_STATUS))
		throw new Error(`the tarball's README.md lacks the released status line (${RELEASED_STATUS})`);
	log(`the tarball's README.md has the released status line`);
}

// ---- Build, verify
// ------------------------------------------------------------------------------------------------
/**
 * Runs a command, its output shown as it comes; resolves to that output, rejects with its exit code
 * and output.
 */
function exec(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
		let output = '';
		const show = (stream) => (chunk) => {
			output += chunk;
			stream.write(chunk);
		};
		child.stdout.on('data', show(process.stdout));
		child.stderr.on('data', show(process.stderr));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolve(output)
				: reject(
						Object.assign(new Error(`${command} ${args.join(' ')} exited with ${code}`), {
							output,
						}),
					),
		);
	});
}

/**
 * What npm's OIDC exchange did, from its `verbose oidc` log lines (npm 11's lib/utils/oidc.js): a
 * failed exchange leaves npm without a token, and npm then fails as if nobody had logged in.
 */
export function oidcOutcome(output) {
	const lines = output.split('\n').filter((line) => /^npm \w+ oidc /.test(line));
	if (lines.some((line) => line.includes('Successfully retrieved and set token')))
		return { exchanged: true, lines };
	return { exchanged: false, lines };
}

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/**
 * A fresh build of HEAD from `git archive` in an empty folder; resolves to { tarball, sha256 } in
 * `out`. With `prepareVersion` (the rehearsal), `prepare` runs on that folder first.
 */
export async function build({ out, prepareVersion }) {
	const started = Date.now();
	const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
	const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
		cwd: root,
		encoding: 'utf8',
	}).trim();
	if (dirty)
		log(
			`build: the working tree has uncommitted changes; they are not in the build, which is of ${commit.slice(0, 7)}`,
		);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-release-build-'));
	try {
		execFileSync('sh', ['-c', `git archive --format=tar "${commit}" | tar -xf - -C "${folder}"`], {
			cwd: root,
			stdio: 'inherit',
		});
		log(`build: ${commit.slice(0, 7)} from git archive in ${folder}`);
		if (prepareVersion)
			prepare({ version: prepareVersion, packageFile: path.join(folder, 'package.json') });
		// No dependency's install script runs here; the build needs none (tsc and gulp are plain
		// JavaScript).
		await exec(
			'npm',
			['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel', 'error'],
			{ cwd: folder },
		);
		await exec('npm', ['run', 'build', '--silent'], { cwd: folder });
		// npm pack does not create its --pack-destination (npm 11 exits with ENOENT): release.yml's
		// pack step did exactly that until this rehearsal ran it.
		fs.mkdirSync(out, { recursive: true });
		const packed = execFileSync(
			'npm',
			['pack', '--json', '--ignore-scripts', '--pack-destination', out],
			{ cwd: folder, encoding: 'utf8' },
		);
		const [{ filename }] = JSON.parse(packed);
		const tarball = path.join(out, filename);
		const hash = sha256(tarball);
		log(
			`build: ${path.relative(process.cwd(), tarball)} sha256 ${hash} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
		);
		writeOutputs({ tarball: filename, sha256: hash });
		return { tarball, sha256: hash };
	} finally {
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

/** The pack test and n8n's scanner rules on the tarball itself. */
export async function verify(tarball, { report } = {}) {
	const jest = require.resolve('jest/bin/jest', { paths: [root] });
	const reportArgs = report ? ['--json', `--outputFile=${report}`] : [];
	await exec(process.execPath, [jest, 'test/package/pack.test.js', ...reportArgs], {
		cwd: root,
		env: { ...process.env, PACK_TARBALL: path.resolve(tarball) },
	});
	await exec(
		process.execPath,
		[path.join(root, 'scripts', 'scan-package.mjs'), path.resolve(tarball)],
		{ cwd: root },
	);
}

// ---- Publish
// ------------------------------------------------------------------------------------------------
/**
 * `npm publish` of the tarball, the same for the release and the rehearsal but for the registry and
 * --provenance. Never runs the package's lifecycle scripts (a tarball has been built already).
 */
export async function publish({ tarball, distTag, registry, provenance, env = process.env }) {
	const args = [
		'publish',
		path.resolve(tarball),
		'--tag',
		distTag,
		'--access',
		'public',
		'--registry',
		registry,
		'--ignore-scripts',
	];
	if (provenance) args.push('--provenance', '--loglevel', 'verbose');
	log(`publish: npm ${args.join(' ')}`);
	await exec('npm', args, { cwd: os.tmpdir(), env });
}

/**
 * The release's publish, from release.yml's publish job (in the GitHub Environment npm-publish).
 * `registry` is registry.npmjs.org but in test/release/publish.test.js.
 */
export async function publishRelease({ tarball, distTag, expectedSha256, registry = NPMJS }) {
	const npmVersion = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
	if (compareVersions(npmVersion, NPM_WITH_TRUSTED_PUBLISHING) < 0) {
		throw new Error(
			`npm ${npmVersion} cannot publish with trusted publishing (${NPM_WITH_TRUSTED_PUBLISHING} or newer)`,
		);
	}
	if (sha256(tarball) !== expectedSha256)
		throw new Error(`${tarball} is not the tarball the build job made (sha256 ${expectedSha256})`);
	if (!process.env.ACTIONS_ID_TOKEN_REQUEST_URL) {
		throw new Error(
			'no OIDC token can be requested (ACTIONS_ID_TOKEN_REQUEST_URL is unset): the publish job needs `id-token: write`',
		);
	}
	// No token of any kind: npm's OIDC exchange is the only way in, so a failed exchange cannot fall
	// back to a stale or placeholder token and fail as something else.
	const env = { ...process.env };
	for (const key of Object.keys(env))
		if (/^(NODE_AUTH_TOKEN|NPM_TOKEN|npm_config_.*auth.*)$/i.test(key)) delete env[key];
	const userconfig = path.join(
		fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-npmrc-')),
		'npmrc',
	);
	fs.writeFileSync(userconfig, '');
	env.npm_config_userconfig = userconfig;
	try {
		await publish({ tarball, distTag, registry, provenance: true, env });
	} catch (error) {
		const oidc = oidcOutcome(error.output ?? '');
		if (oidc.exchanged)
			throw new Error(
				`${error.message}: npm's OIDC exchange succeeded, so the registry refused the publish itself (its reason above)`,
			);
		const said =
			oidc.lines.length > 0
				? ` (${oidc.lines.map((line) => line.trim()).join('; ')})`
				: ' (npm logged no oidc line)';
		const cause = oidc.lines.some((line) => line.includes('id_token'))
			? 'GitHub gave this job no OIDC token: the publish job needs `permissions: id-token: write`'
			: "npm did not accept this run as the package's trusted publisher: check on npmjs.com (the package's Settings, Trusted publishing) the owner, the repository, the workflow file release.yml, the environment npm-publish, and Allowed actions with npm publish ticked (npm stage publish alone is refused) (CONTRIBUTING.md, What a maintainer sets once, 5)";
		throw new Error(
			`${error.message}: npm's OIDC exchange failed${said}, so npm had no token to publish with. ${cause}`,
		);
	}
	log(
		`publish: ${tarball} published under the dist-tag ${distTag}, with provenance, through npm's OIDC exchange`,
	);
}

// ---- Rehearsal
// ------------------------------------------------------------------------------------------------
async function rehearse({ tarball: given, lines }) {
	const started = Date.now();
	const times = [];
	const step = async (name, action) => {
		const stepStarted = Date.now();
		const result = await action();
		times.push(`${name} ${((Date.now() - stepStarted) / 1000).toFixed(0)} s`);
		return result;
	};
	const { startRegistry } = require(path.join(root, 'e2e', 'lib', 'registry.js'));
	const { hostLines, installHost } = require(path.join(root, 'e2e', 'lib', 'hosts.js'));
	const { runSuite } = require(path.join(root, 'e2e', 'run.js'));
	const chosenLines = lines.length > 0 ? lines : hostLines();
	const name = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name;

	// One local registry per host line: each line's installer suite publishes its own update on it.
	const registries = await step('registries', () =>
		Promise.all(chosenLines.map(() => startRegistry({ log }))),
	);
	try {
		const decision = await step('guard', () =>
			runGuard({ rehearsal: true, registry: registries[0].url }),
		);
		const out = path.join(root, 'release');
		let tarball = given && path.resolve(given);
		if (!tarball) {
			fs.rmSync(out, { recursive: true, force: true });
			fs.mkdirSync(out, { recursive: true });
			tarball = (await step('build', () => build({ out, prepareVersion: decision.version })))
				.tarball;
		} else {
			log(`the given tarball ${given}, sha256 ${sha256(tarball)}`);
		}
		checkReleasedReadme(tarball);
		fs.mkdirSync(path.join(root, 'reports'), { recursive: true });
		await step('verify', () =>
			verify(tarball, { report: path.join(root, 'reports', 'release-pack.json') }),
		);
		await step('publish', async () => {
			for (const registry of registries) {
				await publish({
					tarball,
					distTag: decision.distTag,
					registry: `${registry.url}/`,
					provenance: false,
					env: registry.npmEnvironment(),
				});
				const { distTags } = await readRegistry(registry.url, name);
				if (distTags[decision.distTag] !== decision.version) {
					throw new Error(
						`after the publish, ${registry.url} has dist-tags ${JSON.stringify(distTags)}, not ${decision.distTag}: ${decision.version}`,
					);
				}
			}
			log(
				`publish: ${name}@${decision.version} is ${decision.distTag} on ${registries.map((registry) => registry.url).join(', ')}`,
			);
		});
		await step(`install ${chosenLines.join(', ')}`, async () => {
			await Promise.all(chosenLines.map((line) => installHost(line, { log })));
			const results = await Promise.all(
				chosenLines.map((line, index) =>
					runSuite(line, {
						suite: 'installer',
						env: { E2E_RELEASE_TARBALL: tarball, ...registries[index].suiteEnvironment() },
					}),
				),
			);
			const failed = results.filter((result) => result.code !== 0);
			if (failed.length > 0)
				throw new Error(
					`the installer suite failed on ${failed.map((result) => result.line).join(', ')}`,
				);
		});
	} finally {
		await Promise.all(registries.map((registry) => registry.close()));
	}
	log(`rehearsal passed in ${((Date.now() - started) / 1000).toFixed(0)} s (${times.join(', ')})`);
}

// ---- Laptop guard
// ------------------------------------------------------------------------------------------------
function prepublish({ packageFile = path.join(root, 'package.json') } = {}) {
	const { version } = JSON.parse(fs.readFileSync(packageFile, 'utf8'));
	if (version === BOOTSTRAP_VERSION) {
		log(
			`prepublish: ${version}, the placeholder that reserves the name (CONTRIBUTING.md, What a maintainer sets once, 4)`,
		);
		return;
	}
	throw new Error(
		`prepublish: npm publish of ${version} from a clone is refused: n8n verifies only versions published from GitHub Actions with provenance. Push the tag v${version} instead (CONTRIBUTING.md, Cutting a release)`,
	);
}

// ---- Command line
// ------------------------------------------------------------------------------------------------
async function main() {
	const [command, ...rest] = process.argv.slice(2);
	const { values, positionals } = parseArgs({
		args: rest,
		allowPositionals: true,
		options: {
			rehearsal: { type: 'boolean', default: false },
			registry: { type: 'string' },
			package: { type: 'string' },
			out: { type: 'string' },
			tarball: { type: 'string' },
			'dist-tag': { type: 'string' },
			sha256: { type: 'string' },
		},
	});
	switch (command) {
		case 'prepare':
			if (!positionals[0]) throw new Error('prepare: <version> is required');
			prepare({
				version: positionals[0],
				packageFile: values.package && path.resolve(values.package),
			});
			log(
				`prepare: next, commit, push to main and wait for CI, then: git tag v${positionals[0]} && git push origin v${positionals[0]}`,
			);
			return;
		case 'guard':
			await runGuard({
				rehearsal: values.rehearsal,
				registry: values.registry ?? NPMJS,
				packageFile: values.package && path.resolve(values.package),
			});
			return;
		case 'build':
			if (!values.out) throw new Error('build: --out <folder> is required');
			await build({ out: path.resolve(values.out) });
			return;
		case 'verify':
			await verify(positionals[0]);
			return;
		case 'publish':
			if (!positionals[0] || !values['dist-tag'] || !values.sha256)
				throw new Error('publish: <tarball> --dist-tag <tag> --sha256 <hash> are required');
			await publishRelease({
				tarball: positionals[0],
				distTag: values['dist-tag'],
				expectedSha256: values.sha256,
			});
			return;
		case 'rehearse':
			await rehearse({
				tarball: values.tarball || process.env.RELEASE_TARBALL || undefined,
				lines: positionals,
			});
			return;
		case 'prepublish':
			prepublish({ packageFile: values.package && path.resolve(values.package) });
			return;
		default:
			throw new Error(
				`unknown command ${command ?? '(none)'}: prepare, guard, build, verify, publish, rehearse or prepublish (see the top of scripts/release.mjs)`,
			);
	}
}

if (
	process.argv[1] &&
	path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
) {
	main().catch((error) => {
		process.stderr.write(`release: ${error.message}\n`);
		process.exit(1);
	});
}
