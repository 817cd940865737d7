// No tracked file over 1 MB, lock files aside: a file that big (the old one-file mutation results,
// 15 MB) makes every change to it a diff of 100k lines and a conflict between any two branches that
// touch it. Mutation results are one small file per module (mutation/results/, mutation/README.md).
// A copy that is not a checkout (Download ZIP, `git archive`) has no git to ask: the check of this
// repository skips there.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { gitCheckout, testInCheckout } = require('../helpers/gitCheckout');

const ROOT = path.resolve(__dirname, '../..');
const LIMIT = 1024 * 1024;
const LOCK_FILES = new Set([
	'package-lock.json',
	'npm-shrinkwrap.json',
	'yarn.lock',
	'pnpm-lock.yaml',
]);

/**
 * Tracked files of the repository at `cwd` over the limit, lock files aside: "<path> (<bytes>)".
 */
function oversizedTrackedFiles(cwd) {
	const files = execFileSync('git', ['ls-files', '-z'], {
		cwd,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	})
		.split('\0')
		.filter(Boolean);
	return files
		.filter((file) => !LOCK_FILES.has(path.basename(file)))
		.map((file) => ({ file, stat: fs.lstatSync(path.join(cwd, file), { throwIfNoEntry: false }) }))
		.filter(({ stat }) => stat?.isFile() && stat.size > LIMIT)
		.map(({ file, stat }) => `${file} (${stat.size} bytes)`);
}

describe('tracked files', () => {
	testInCheckout(gitCheckout(ROOT))('no tracked file is over 1 MB, lock files aside', () => {
		expect(oversizedTrackedFiles(ROOT)).toEqual([]);
	});

	test('the check finds a tracked file over 1 MB, and passes a lock file that big', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracked-files-'));
		try {
			execFileSync('git', ['init', '-q'], { cwd: dir });
			fs.mkdirSync(path.join(dir, 'mutation'));
			fs.writeFileSync(path.join(dir, 'mutation/results.json'), 'x'.repeat(LIMIT + 1));
			fs.writeFileSync(path.join(dir, 'package-lock.json'), 'x'.repeat(LIMIT + 1));
			fs.writeFileSync(path.join(dir, 'small.json'), 'x'.repeat(LIMIT));
			execFileSync('git', ['add', 'mutation/results.json', 'package-lock.json', 'small.json'], {
				cwd: dir,
			});
			expect(oversizedTrackedFiles(dir)).toEqual([`mutation/results.json (${LIMIT + 1} bytes)`]);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('whether the sources are a git checkout', () => {
	let dir;
	// Git looks no higher than the temporary folder, whatever holds it.
	const check = () => gitCheckout(dir, { env: { GIT_CEILING_DIRECTORIES: path.dirname(dir) } });
	beforeEach(() => {
		dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'git-checkout-')));
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	test('a folder without .git (a Download ZIP, a git archive) is not one, and the reason says so', () => {
		fs.writeFileSync(path.join(dir, 'package.json'), '{}\n');
		const checkout = check();
		expect(checkout.inside).toBe(false);
		expect(checkout.reason).toContain(`${dir} has no .git`);
		expect(checkout.reason).toContain('fatal: not a git repository');
	});

	test('a git work tree is one', () => {
		execFileSync('git', ['init', '-q'], { cwd: dir });
		expect(check()).toEqual({ inside: true });
	});

	test('a .git that git cannot read is a failure, not a reason to skip', () => {
		execFileSync('git', ['init', '-q'], { cwd: dir });
		fs.writeFileSync(path.join(dir, '.git/HEAD'), 'not a ref\n');
		expect(check).toThrow(/git rev-parse --is-inside-work-tree failed in .*not a git repository/);
		fs.rmSync(path.join(dir, '.git'), { recursive: true });
		fs.writeFileSync(path.join(dir, '.git'), `gitdir: ${path.join(dir, 'gone')}\n`);
		expect(check).toThrow(/git rev-parse --is-inside-work-tree failed in .*not a git repository: /);
	});
});
