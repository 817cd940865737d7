// `node scripts/release.mjs prepare <version>` (CONTRIBUTING.md, Cutting a release): the release
// commit's edits, run on a temporary copy of this repository's own package.json, package-lock.json,
// CHANGELOG.md and README.md, and the check the rehearsal makes of the tarball's README.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { root, runRelease, script } = require('./fixture');

const FILES = ['package.json', 'package-lock.json', 'CHANGELOG.md', 'README.md'];
const today = new Date().toISOString().slice(0, 10);

function copyOfTheRepository() {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-ops-prepare-'));
	for (const file of FILES) fs.copyFileSync(path.join(root, file), path.join(folder, file));
	return folder;
}
const read = (folder, file) => fs.readFileSync(path.join(folder, file), 'utf8');
const prepare = (folder, version) => runRelease(['prepare', version, '--package', path.join(folder, 'package.json')]);

/**
 * The lines of `after` that differ from `before`, as [before, after] pairs (the files keep their
 * line count).
 */
function changedLines(before, after) {
	const [a, b] = [before.split('\n'), after.split('\n')];
	expect(b).toHaveLength(a.length);
	return a.map((line, i) => [line, b[i]]).filter(([x, y]) => x !== y);
}

test('the first release: dates the CHANGELOG entry and turns README\'s status line into the released one, nothing else', async () => {
	const folder = copyOfTheRepository();
	const result = await prepare(folder, '0.1.0');
	expect(result.code).toBe(0);
	expect(changedLines(fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'), read(folder, 'CHANGELOG.md'))).toEqual([['## 0.1.0 — unreleased', `## 0.1.0 — ${today}`]]);
	const readme = changedLines(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), read(folder, 'README.md'));
	expect(readme).toHaveLength(1);
	expect(readme[0][0]).toMatch(/^\*\*Not on npm yet\.\*\*/);
	expect(readme[0][1]).toMatch(/^\*\*On npm\.\*\* Install it from n8n's editor, as below\.$/);
	for (const file of ['package.json', 'package-lock.json']) expect(read(folder, file)).toBe(fs.readFileSync(path.join(root, file), 'utf8'));
	expect(result.stdout).toContain('git tag v0.1.0');
});

test('a later release: sets the version in package.json and package-lock.json too; a second run changes nothing', async () => {
	const folder = copyOfTheRepository();
	fs.writeFileSync(path.join(folder, 'CHANGELOG.md'), read(folder, 'CHANGELOG.md').replace('## 0.1.0 — unreleased', '## 0.2.0 — unreleased\n\n### Fixed\n- x\n\n## 0.1.0 — 2026-11-28'));
	expect((await prepare(folder, '0.2.0')).code).toBe(0);
	const lock = JSON.parse(read(folder, 'package-lock.json'));
	expect([JSON.parse(read(folder, 'package.json')).version, lock.version, lock.packages[''].version]).toEqual(['0.2.0', '0.2.0', '0.2.0']);
	expect(changedLines(fs.readFileSync(path.join(root, 'package.json'), 'utf8'), read(folder, 'package.json'))).toEqual([['  "version": "0.1.0",', '  "version": "0.2.0",']]);
	expect(read(folder, 'CHANGELOG.md')).toContain(`## 0.2.0 — ${today}\n`);
	const once = FILES.map((file) => read(folder, file));
	expect((await prepare(folder, '0.2.0')).code).toBe(0);
	expect(FILES.map((file) => read(folder, file))).toEqual(once);
});

test.each([
	['a version with no CHANGELOG entry', '0.3.0', 'CHANGELOG.md has no entry for 0.3.0: add `## 0.3.0 — unreleased` with its changes, then run prepare again'],
	['not a semantic version', '1.0', 'prepare: "1.0" is not a semantic version'],
])('refuses %s, and changes no file', async (_case, version, message) => {
	const folder = copyOfTheRepository();
	const result = await prepare(folder, version);
	expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: expect.stringContaining(message) });
	for (const file of FILES) expect(read(folder, file)).toBe(fs.readFileSync(path.join(root, file), 'utf8'));
});

test("README of a tarball: the rehearsal's check passes only with the released status line", async () => {
	const check = (folder) => {
		const packed = path.join(folder, 'out');
		fs.mkdirSync(packed);
		fs.mkdirSync(path.join(folder, 'package'));
		fs.copyFileSync(path.join(folder, 'README.md'), path.join(folder, 'package', 'README.md'));
		execFileSync('tar', ['-czf', path.join(packed, 'p.tgz'), '-C', folder, 'package']);
		const source = `import { checkReleasedReadme } from ${JSON.stringify(`file://${script}`)};
			try { checkReleasedReadme(${JSON.stringify(path.join(packed, 'p.tgz'))}); console.log('ok'); } catch (error) { console.log(error.message); }`;
		return execFileSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' }).trim().split('\n').at(-1);
	};
	const prepared = copyOfTheRepository();
	await prepare(prepared, '0.1.0');
	expect(check(prepared)).toBe('ok');
	expect(check(copyOfTheRepository())).toMatch(/^the tarball's README\.md says "Not on npm yet"/);
});
