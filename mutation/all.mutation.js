// The node suites as ONE jest test file, for Stryker only (`npm run mutation`, mutation/README.md).
// Jest gives every test file its own module registry, so each file loads n8n-core and n8n-workflow
// again (about half a second); Stryker runs jest once per mutant, and with twenty files that load
// alone cost ~10 s per mutant. Here they load once per run. Each suite keeps its own hooks inside a
// describe named after its file, and jest runs no hook of a describe whose tests are all filtered
// out, so a mutant run starts only the sandboxes of the tests that cover it.
const fs = require('node:fs');
const path = require('node:path');

const { SUITE_FOLDERS, PROPERTY_SEED, SLOW_SUITES } = require('./suites');

// The property suites draw from a fixed seed here: a mutant must meet the same inputs as the run
// that measured which tests cover it.
process.env.PROPERTY_SEED = String(PROPERTY_SEED);

// A mutant run names the tests to run (`-t`, a list of full names, each escaped as a regular
// expression; set by bailEnvironment.js): a suite none of them is in is not even loaded. Without a
// filter (the run that measures coverage, or a mutant Stryker cannot place) every suite is.
const pattern = globalThis.__mutationTestNamePattern;
// As Stryker escapes each name (@stryker-mutator/util escapeRegExp).
const escaped = (text) => text.replace(/[.*+\-?^${}()|[\]\\]/g, '\\$&');
const root = path.resolve(__dirname, '../test');
// Named by their path under test/, with / between folders (the names the results file and suites.js
// use).
const suites = SUITE_FOLDERS.flatMap((folder) =>
	fs
		.readdirSync(path.join(root, folder), { recursive: true })
		.filter((name) => name.endsWith('.test.js'))
		.map((name) => `${folder}/${name.split(path.sep).join('/')}`)
		.sort(),
);
const slowness = (suite) => SLOW_SUITES.indexOf(suite);
suites.sort((a, b) => slowness(a) - slowness(b));
const named = pattern ? suites.filter((suite) => pattern.includes(`(${escaped(suite)} `)) : [];
// The suite that killed this mutant in the last run goes first (killerFirst.mjs): most mutants it
// kills again.
const first = globalThis.__mutationFirstSuite;
if (named.includes(first)) named.unshift(...named.splice(named.indexOf(first), 1));
// A survivor listed as equivalent runs no test (bailEnvironment.js skips them all): one suite to
// skip is enough.
const toLoad =
	globalThis.__mutationListedEquivalent && named.length > 0
		? named.slice(0, 1)
		: named.length > 0
			? named
			: suites;
for (const suite of toLoad) {
	describe(suite, () => {
		require(path.join(root, suite));
	});
}

// A suite may call jest.retryTimes (lookUp.limits); inside one file that would retry every later
// suite's failing tests too, and a killed mutant would be run three times. Mutation runs retry
// nothing.
delete globalThis[Symbol.for('RETRY_TIMES')];
