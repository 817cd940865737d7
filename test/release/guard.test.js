// The release guard (`node scripts/release.mjs guard`, release.yml's first job): one test per
// release shape it decides (CONTRIBUTING.md, Releasing). Each runs the script as release.yml does,
// in a child process with the environment GitHub Actions gives a tag's run, against a git
// repository with its origin and a registry over real HTTP (fixture.js); nothing of the script is
// mocked.
const fs = require('node:fs');
const path = require('node:path');
const semver = require('semver');

const { NAME, REPOSITORY, fakeRegistry, held, releaseRepository, runRelease, script, tagEnvironment } = require('./fixture');

let registry;
let packages;
beforeAll(async () => {
	registry = await fakeRegistry({ packages: () => packages });
});
afterAll(() => registry.close());
beforeEach(() => {
	// The first release's registry: CONTRIBUTING.md's step 4 published the placeholder 0.0.0.
	packages = held(['0.0.0']);
});

/**
 * Runs the guard for a pushed tag of `repository` (or in the rehearsal); resolves to its result and
 * outputs.
 */
async function guard(repository, { rehearsal = false, ...environment } = {}) {
	const args = ['guard', '--package', repository.packageFile, '--registry', registry.url, ...(rehearsal ? ['--rehearsal'] : [])];
	// CI's rehearsal runs in GitHub Actions for a branch: GITHUB_REPOSITORY is set, the run is not
	// for a tag.
	const env = rehearsal ? { GITHUB_REPOSITORY: REPOSITORY } : tagEnvironment(repository, environment);
	const result = await runRelease(args, { env });
	const outputFile = path.join(repository.folder, '.github-output');
	const outputs = fs.existsSync(outputFile) ? Object.fromEntries(fs.readFileSync(outputFile, 'utf8').trim().split('\n').map((line) => line.split('='))) : {};
	return { ...result, outputs };
}

/** The reasons a refusal lists, one per "  - " line. */
const reasons = (output) => [...output.matchAll(/^ {2}- (.*)$/gm)].map((match) => match[1]);

describe('a release the guard lets through', () => {
	test('the tag is v<version> of a commit on main, all set: latest, written to GITHUB_OUTPUT, in seconds', async () => {
		const started = Date.now();
		const result = await guard(releaseRepository());
		expect(result.output).toContain('guard: publishes 0.1.0 under the dist-tag latest');
		expect({ code: result.code, outputs: result.outputs }).toEqual({ code: 0, outputs: { version: '0.1.0', 'dist-tag': 'latest' } });
		expect(Date.now() - started).toBeLessThan(10_000);
	});
});

describe('refusals: each names what to fix, and the job fails with no output', () => {
	test.each([
		['the tag is not v<version>', {}, { tag: 'v0.1.1' }, /the tag v0\.1\.1 is not v0\.1\.0, the version in package\.json/],
		['the run is not for a tag', {}, { refType: 'branch', tag: 'main' }, /the tag \(none\) is not v0\.1\.0/],
		[
			"package.json's repository.url is not the repository running the workflow",
			{},
			{ githubRepository: 'someone-else/a-fork' },
			/repository\.url is git\+https:\/\/github\.com\/n8n-nodes-inventory-ops\/n8n-nodes-inventory-ops\.git, but this runs in someone-else\/a-fork: npm refuses provenance/,
		],
		[
			'the author email is the placeholder',
			{ pkg: { author: { name: 'x', email: 'maintainers@inventory-ops.invalid' } } },
			{},
			/author\.email is maintainers@inventory-ops\.invalid, a placeholder: .*What a maintainer sets once, 2/,
		],
		[
			'CHANGELOG.md has no dated entry for the version',
			{ changelog: '# Changelog\n\n## 0.1.0 — unreleased\n\nThe first release.\n' },
			{},
			/CHANGELOG\.md has no dated entry for 0\.1\.0 \(`## 0\.1\.0 — YYYY-MM-DD`; it says `## 0\.1\.0 — unreleased`\)/,
		],
	])('%s', async (_shape, files, environment, reason) => {
		const result = await guard(releaseRepository(files), environment);
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toEqual([expect.stringMatching(reason)]);
		expect(result.outputs).toEqual({});
	});

	test('the version is on the registry already', async () => {
		packages = held(['0.0.0', '0.1.0']);
		const result = await guard(releaseRepository());
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toEqual([`${NAME}@0.1.0 is already on the registry, and a published version cannot be replaced: raise the version`]);
	});

	test('every reason at once, so one run shows all there is to fix', async () => {
		const result = await guard(releaseRepository({ pkg: { author: { email: 'a@b.invalid' } }, changelog: '' }), { githubRepository: 'x/y', tag: 'v9' });
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toHaveLength(4);
	});
});

describe('refusals the first tag would otherwise meet late', () => {
	test("the registry does not have the package: trusted publishing cannot create it (CONTRIBUTING.md's step 4)", async () => {
		packages = {};
		const started = Date.now();
		const result = await guard(releaseRepository());
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toEqual([
			expect.stringMatching(
				/^the registry has no n8n-nodes-inventory-ops yet, and trusted publishing cannot create a package: publish 0\.0\.0 by hand first \(CONTRIBUTING\.md, What a maintainer sets once, 4\. The first version, once, by hand\)$/,
			),
		]);
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	test("the tagged commit is not on origin's default branch", async () => {
		const repository = releaseRepository({ sideCommit: true });
		const result = await guard(repository);
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toEqual([
			`the tagged commit ${repository.head.slice(0, 7)} is not on origin/main, the default branch: tag a commit of main, after CI passed on it (CONTRIBUTING.md, Cutting a release, 1)`,
		]);
	});

	test('the event names no default branch: refused, not taken as fine', async () => {
		const repository = releaseRepository();
		fs.writeFileSync(repository.event, JSON.stringify({ ref: 'refs/tags/v0.1.0' }));
		const result = await guard(repository);
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toEqual([expect.stringMatching(/^the default branch is unknown \(no repository\.default_branch in the event, GITHUB_EVENT_PATH\)/)]);
	});

	test('the default branch was not fetched: refused, not taken as fine', async () => {
		const result = await guard(releaseRepository({ origin: false }));
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toEqual([expect.stringMatching(/^origin\/main is not in this checkout, so the guard cannot tell whether the tagged commit is on main/)]);
	});

	test.each([
		['README.md still says the package is not on npm', { readme: '# x\n\n**Not on npm yet.** Build it from a clone.\n' }, /^README\.md still says "Not on npm yet"/],
		['CHANGELOG.md is dated but its entry still says the package is not on npm', { changelog: '# Changelog\n\n## 0.1.0 — 2026-11-28\n\nThe first release. Not on npm yet: build it from a clone.\n' }, /^CHANGELOG\.md's entry for 0\.1\.0 still says "Not on npm yet"/],
	])('%s', async (_shape, files, reason) => {
		const result = await guard(releaseRepository(files));
		expect(result.code).toBe(1);
		expect(reasons(result.output)).toEqual([expect.stringMatching(reason)]);
		expect(reasons(result.output)[0]).toContain('node scripts/release.mjs prepare 0.1.0');
	});
});

describe("the dist-tag, from the registry's latest", () => {
	test.each([
		['a higher version', '0.2.0', ['0.0.0', '0.1.0'], 'latest', undefined],
		['a prerelease of a higher version: next, so n8n never offers it', '0.2.0-rc.1', ['0.0.0', '0.1.0'], 'next', undefined],
		['a backport, the newest of its line', '0.1.2', ['0.0.0', '0.1.0', '0.1.1', '0.2.0'], 'latest-0.1', undefined],
		['a backport that is not the newest of its line', '0.1.2', ['0.0.0', '0.1.0', '0.1.3', '0.2.0'], undefined, '0.1.2 is lower than 0.1.3, already published in its line 0.1'],
		['a prerelease lower than latest', '0.1.5-rc.1', ['0.0.0', '0.1.0', '0.2.0'], undefined, 'the prerelease 0.1.5-rc.1 is lower than latest (0.2.0)'],
	])('%s', async (_shape, version, versions, distTag, refusal) => {
		packages = held(versions);
		const result = await guard(releaseRepository({ version }));
		if (refusal) {
			expect(result.code).toBe(1);
			expect(reasons(result.output)).toEqual([expect.stringContaining(refusal)]);
		} else {
			expect({ code: result.code, outputs: result.outputs }).toEqual({ code: 0, outputs: { version, 'dist-tag': distTag } });
		}
	});
});

describe('the rehearsal (npm run release:rehearse)', () => {
	test('reports what a release of this commit would refuse, and goes on', async () => {
		const repository = releaseRepository({ pkg: { author: { email: 'm@x.invalid' } }, changelog: '## 0.1.0 — unreleased\n' });
		const result = await guard(repository, { rehearsal: true });
		expect(result.code).toBe(0);
		expect(result.output).toContain('a release of this commit would be refused; the rehearsal goes on');
		expect(reasons(result.output)).toEqual([expect.stringContaining('author.email'), expect.stringContaining('CHANGELOG.md has no dated entry')]);
		expect(result.output).toContain('guard: publishes 0.1.0 under the dist-tag latest');
	});

	test('has no remote and a fresh local registry: it says what it does not check instead of refusing', async () => {
		packages = {};
		const result = await guard(releaseRepository({ origin: false, sideCommit: false }), { rehearsal: true });
		expect(result.code).toBe(0);
		expect(reasons(result.output)).toEqual([]);
		expect(result.output).toMatch(/guard: not checked in a rehearsal: whether the commit is on the default branch/);
		expect(result.output).toMatch(/guard: not checked in a rehearsal: the local registry is fresh; on npm, the package must exist first/);
	});
});

test("package.json's version must be a semantic version", async () => {
	const result = await guard(releaseRepository({ version: '1.0' }));
	expect(result.code).toBe(1);
	expect(reasons(result.output)).toEqual([`package.json's version "1.0" is not a semantic version`]);
});

test("the guard's semver precedence and parsing are the semver package's", async () => {
	const versions = ['0.0.0', '0.1.0', '0.1.1', '0.10.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.0-0', '1.0.0-x.7.z.92', '1.0.0-1a', '2.0.0', '10.0.0'];
	const invalid = ['1.0', 'v1.0.0', '01.0.0', '1.0.0-', '1.0.0-01', '1.0.0+build', ''];
	const source = `import { compareVersions, parseVersion } from ${JSON.stringify(`file://${script}`)};
		const versions = ${JSON.stringify(versions)}, invalid = ${JSON.stringify(invalid)};
		console.log(JSON.stringify({ pairs: versions.flatMap((a) => versions.map((b) => compareVersions(a, b))), parsed: [...versions, ...invalid].map((v) => parseVersion(v) !== undefined) }));`;
	const { execFileSync } = require('node:child_process');
	const ours = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' }));
	expect(ours.pairs).toEqual(versions.flatMap((a) => versions.map((b) => semver.compare(a, b))));
	// What parses is what semver calls valid, but for what semver also takes and npm drops: a leading
	// v, build metadata.
	expect(ours.parsed).toEqual([...versions, ...invalid].map((v) => semver.valid(v) !== null && !/^v|\+/.test(v)));
});

test('the repository itself: the placeholder repository is what the guard compares with', () => {
	expect(REPOSITORY).toBe(new URL(require('../../package.json').repository.url.replace(/^git\+/, '')).pathname.replace(/^\/|\.git$/g, ''));
});
