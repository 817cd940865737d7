// The release's publish (`node scripts/release.mjs publish`, release.yml's publish job) and
// `prepublishOnly`: what each refuses, and what the publish says when npm's OIDC exchange fails.
// npm runs for real against a registry over real HTTP (fixture.js). Two things cannot run here and
// are stood in for, each in its own test: GitHub's id-token endpoint (the fake registry answers
// it), and an npm older than 11.5.1 (a stub `npm` that only answers --version).
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { NAME, cleanEnvironment, fakeRegistry, runRelease, script } = require('./fixture');

const temporary = (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), `inventory-ops-${prefix}-`));

/** A real tarball of the package's name, packed by npm. */
function tarball(version = '0.1.0') {
	const folder = temporary('publish-package');
	fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: NAME, version }));
	fs.writeFileSync(path.join(folder, 'index.js'), '');
	const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts'], { cwd: folder, encoding: 'utf8', env: cleanEnvironment() }));
	const file = path.join(folder, filename);
	return { file, sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') };
}

describe('publish refuses before npm runs', () => {
	test('an npm without trusted publishing (older than 11.5.1)', async () => {
		const bin = temporary('old-npm');
		// Stands in for npm 10 (Node 22's), which is not on this machine: it only answers `npm
		// --version`.
		fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\n[ "$1" = --version ] && echo 10.9.2 && exit 0\nexit 99\n', { mode: 0o755 });
		const { file, sha256 } = tarball();
		const result = await runRelease(['publish', file, '--dist-tag', 'latest', '--sha256', sha256], { env: { PATH: `${bin}:${process.env.PATH}` } });
		expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({ code: 1, stderr: 'release: npm 10.9.2 cannot publish with trusted publishing (11.5.1 or newer)' });
	});

	test("a tarball that is not the build job's (its sha256 differs)", async () => {
		const { file } = tarball();
		const result = await runRelease(['publish', file, '--dist-tag', 'latest', '--sha256', 'f'.repeat(64)]);
		expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({ code: 1, stderr: `release: ${file} is not the tarball the build job made (sha256 ${'f'.repeat(64)})` });
	});

	test('a job that cannot request an OIDC token', async () => {
		const { file, sha256 } = tarball();
		const result = await runRelease(['publish', file, '--dist-tag', 'latest', '--sha256', sha256]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('ACTIONS_ID_TOKEN_REQUEST_URL is unset): the publish job needs `id-token: write`');
	});
});

describe("npm's OIDC exchange fails: the error says why, from npm's own log", () => {
	/**
	 * The release's publish against `registry` (release.yml's goes to registry.npmjs.org), as in
	 * GitHub Actions.
	 */
	async function publishThrough(registry) {
		const { file, sha256 } = tarball();
		const source = `import { publishRelease } from ${JSON.stringify(`file://${script}`)};
			try { await publishRelease({ tarball: ${JSON.stringify(file)}, distTag: 'latest', expectedSha256: '${sha256}', registry: '${registry.url}' }); }
			catch (error) { console.error('release: ' + error.message); process.exit(1); }`;
		return runRelease([], {
			source,
			env: {
				GITHUB_ACTIONS: 'true',
				ACTIONS_ID_TOKEN_REQUEST_URL: `${registry.url}github/id-token?api-version=2.0`,
				ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token',
				NPM_TOKEN: 'a token that must not be sent',
			},
		});
	}

	test("the registry's token exchange refuses: the trusted publisher's fields to check, allowed actions included", async () => {
		const registry = await fakeRegistry({ idToken: { status: 200, body: { value: 'a.b.c' } } });
		try {
			const result = await publishThrough(registry);
			expect(result.code).toBe(1);
			expect(registry.requests).toEqual(expect.arrayContaining(['GET /github/id-token?api-version=2.0&audience=npm%3A127.0.0.1', `POST /-/npm/v1/oidc/token/exchange/package/${NAME}`]));
			expect(registry.requests.filter((request) => request.startsWith('PUT'))).toEqual([]);
			const message = result.stderr.split('\n').find((line) => line.startsWith('release: '));
			expect(message).toContain("npm's OIDC exchange failed (npm verbose oidc Failed token exchange request with body message: no trusted publisher matches this workflow)");
			expect(message).toMatch(/the owner, the repository, the workflow file release\.yml, the environment npm-publish, and Allowed actions with npm publish ticked \(npm stage publish alone is refused\) \(CONTRIBUTING\.md, What a maintainer sets once, 5\)$/);
		} finally {
			await registry.close();
		}
	});

	test("GitHub's id-token endpoint refuses: the publish job's id-token permission", async () => {
		const registry = await fakeRegistry({ idToken: { status: 403, body: { message: 'not allowed' } } });
		try {
			const result = await publishThrough(registry);
			expect(result.code).toBe(1);
			expect(registry.requests.filter((request) => request.includes('/oidc/'))).toEqual([]);
			expect(result.stderr).toMatch(/npm's OIDC exchange failed \(npm verbose oidc Failed to fetch id_token from GitHub: received an invalid response\), so npm had no token to publish with\. GitHub gave this job no OIDC token/);
		} finally {
			await registry.close();
		}
	});
});

describe('prepublishOnly: npm publish from a clone', () => {
	const packageWith = (version) => {
		const file = path.join(temporary('prepublish'), 'package.json');
		fs.writeFileSync(file, JSON.stringify({ name: NAME, version }));
		return file;
	};

	test('lets through only 0.0.0, the placeholder that reserves the name', async () => {
		const result = await runRelease(['prepublish', '--package', packageWith('0.0.0')]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('What a maintainer sets once, 4');
	});

	test.each(['0.1.0', '0.0.1', '0.0.0-rc.1'])('refuses %s: a release is a pushed tag', async (version) => {
		const result = await runRelease(['prepublish', '--package', packageWith(version)]);
		expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({
			code: 1,
			stderr: expect.stringContaining(`npm publish of ${version} from a clone is refused`),
		});
		expect(result.stderr).toContain(`Push the tag v${version} instead`);
	});

	test("is package.json's prepublishOnly, before npm test", () => {
		expect(require('../../package.json').scripts.prepublishOnly).toBe('node scripts/release.mjs prepublish && npm test');
	});
});
