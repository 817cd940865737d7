// Whether the sources are a git checkout: a copy made by GitHub's Download ZIP or `git archive` has
// no .git, and the tests that read the repository's git (test/package/paths.test.js,
// test/package/trackedFiles.test.js) skip there, saying why. In a checkout a failing git is a
// failure: only git's own "not a git repository", in a folder without .git, means the copy is not a
// checkout.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const NOT_A_REPOSITORY = /^fatal: not a git repository \(or any of the parent directories\)/m;

/**
 * `{ inside: true }` when `dir` is in a git work tree, `{ inside: false, reason }` when git says it
 * is not and `dir` has no .git; any other failure of git is thrown. `env` is added to the
 * environment git runs with.
 */
function gitCheckout(dir, { env } = {}) {
	let answer;
	try {
		answer = execFileSync('git', ['rev-parse', '--is-inside-work-tree'], {
			cwd: dir,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, ...env },
		}).trim();
	} catch (error) {
		const said = String(error.stderr ?? '').trim();
		if (
			error.status === 128 &&
			NOT_A_REPOSITORY.test(said) &&
			!fs.existsSync(path.join(dir, '.git'))
		) {
			return {
				inside: false,
				reason: `${dir} has no .git, and git rev-parse --is-inside-work-tree says "${said.split('\n')[0]}"`,
			};
		}
		throw new Error(
			`git rev-parse --is-inside-work-tree failed in ${dir}: ${said || error.message}`,
			{ cause: error },
		);
	}
	if (answer === 'true') return { inside: true };
	if (answer === 'false')
		return { inside: false, reason: `git rev-parse --is-inside-work-tree prints false in ${dir}` };
	throw new Error(
		`git rev-parse --is-inside-work-tree in ${dir} printed ${JSON.stringify(answer)}, not true or false`,
	);
}

/**
 * `test` for tests that read the git of `checkout`'s folder; outside a checkout, `test.skip` with
 * the reason added to each name ("… (skipped, not a git checkout: …)"), and told once on the
 * console.
 */
function testInCheckout(checkout) {
	if (checkout.inside) return test;
	console.warn(
		`Tests that read this repository's git are skipped, not a git checkout: ${checkout.reason}`,
	);
	return (name, body) =>
		test.skip(`${name} (skipped, not a git checkout: ${checkout.reason})`, body);
}

module.exports = { gitCheckout, testInCheckout };
