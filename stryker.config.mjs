// Mutation testing of nodes/ (`npm run mutation`; how and why: mutation/README.md). Stryker mutates
// the TypeScript, compiles the mutated copy once into its sandbox's dist/ (every mutant sits behind
// a switch), and runs the node suites (as one jest file) against it, per mutant only the tests that
// reached the mutated line.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Stryker's sandbox (a copy of the repository) lives outside the checkout: n8n-node lint would read
// its instrumented copy of nodes/, and one folder per checkout keeps two checkouts' runs apart.
const tempDirName = join(
	tmpdir(),
	`stryker-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}`,
);

// For mutation/build.js, which runs in the sandbox.
process.env.MUTATION_CHECKOUT = process.cwd();
// Written by the killer-first reporter before the mutant runs, read by every worker
// (mutation/hintsFile.js).
const require = createRequire(import.meta.url);
const { HINTS_VARIABLE } = require('./mutation/hintsFile.js');
// Built from the committed results (mutation/results/, one file per module) before a run and split
// back into them after it: scripts/mutation-results.js, mutation/resultsStore.js. Under reports/,
// not committed.
const { INCREMENTAL_FILE } = require('./mutation/resultsStore.js');
process.env[HINTS_VARIABLE] = join(process.cwd(), 'reports/mutation/killer-hints.json');

export default {
	testRunner: 'jest',
	plugins: [
		'@stryker-mutator/jest-runner',
		'./mutation/ignoreDescriptions.mjs',
		'./mutation/killerFirst.mjs',
	],
	ignorers: ['n8nDescriptions'],
	jest: { configFile: 'mutation/jest.config.js', enableFindRelatedTests: false },
	coverageAnalysis: 'perTest',
	mutate: ['nodes/**/*.ts'],
	// mutation/build.js: links the checkout's node_modules into the sandbox, then compiles.
	buildCommand: 'node mutation/build.js',
	symlinkNodeModules: false,
	// The mutated code would not type-check (a mutant may turn a string into a number); it only has
	// to run.
	disableTypeChecks: 'nodes/**/*.ts',
	// Both cores (CI has the machine to itself; on a shared machine run it under the `heavy` lock).
	concurrency: 2,
	// Stryker adds this to 1.5x the covering tests' own time; a mutant that hangs a pool or a loop
	// then costs 5 s and a restart of its worker, not 10.
	timeoutMS: 5_000,
	// A jest run keeps part of what it loaded (n8n-core, the sandboxes): after a few hundred mutants
	// a worker held 4 GB and spent its time collecting garbage. A fresh worker every 40 mutants costs
	// a few seconds.
	maxTestRunnerReuse: 40,
	// The first run of all suites measures coverage; on a loaded machine it took over Stryker's
	// default 5 minutes.
	dryRunTimeoutMinutes: 20,
	// A static mutant (code run when a module loads: a constant, a key list, a regular expression at
	// the top of a file) cannot be traced to tests, so Stryker runs every test for it (~40 s for each
	// one that survives). The full run (`npm run mutation`, scripts/mutation-full.sh, which sets
	// MUTATION_STATIC=1) runs them, and they count like any other mutant
	// (scripts/mutation-report.js); `mutation:ci` and a bare `npx stryker run` leave them out (they
	// keep no result: the report's `static not run`). Stryker's command line can only switch this on,
	// not off.
	ignoreStatic: process.env.MUTATION_STATIC !== '1',
	incremental: true,
	incrementalFile: INCREMENTAL_FILE,
	reporters: ['progress', 'json', 'html', 'killer-first'],
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	// docs/service-interface.md stays: test/transport/requestTable.test.js holds the package's
	// requests to its table.
	ignorePatterns: [
		'/e2e',
		'/bench',
		'/docs/*',
		'!/docs/service-interface.md',
		'/examples',
		'/mutation/results',
		'/reports',
		'/dist',
		'/.cache',
		'/.ci',
		'/.github',
	],
	thresholds: { high: 90, low: 80, break: null },
	tempDirName,
	cleanTempDir: 'always',
};
