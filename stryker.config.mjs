// Mutation testing of nodes/ (`npm run mutation`; how and why: test/mutation/README.md). Stryker mutates the
// TypeScript, compiles the mutated copy once into its sandbox's dist/ (every mutant sits behind a switch), and runs
// the node suites (as one jest file) against it, per mutant only the tests that reached the mutated line.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Stryker's sandbox (a copy of the repository) lives outside the checkout: n8n-node lint would read its
// instrumented copy of nodes/, and one folder per checkout keeps two checkouts' runs apart.
const tempDirName = join(tmpdir(), `stryker-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}`);

export default {
	testRunner: 'jest',
	plugins: ['@stryker-mutator/jest-runner', './test/mutation/ignoreDescriptions.mjs'],
	ignorers: ['n8nDescriptions'],
	jest: { configFile: 'test/mutation/jest.config.js', enableFindRelatedTests: false },
	coverageAnalysis: 'perTest',
	mutate: ['nodes/**/*.ts', '!nodes/**/node.type.ts'],
	// Stryker links node_modules into its sandbox only after the build, and a sandbox outside the checkout cannot
	// find the checkout's by walking up: the build links it first.
	buildCommand: `ln -s ${JSON.stringify(join(process.cwd(), 'node_modules'))} node_modules && tsc -p tsconfig.build.json`,
	symlinkNodeModules: false,
	// The mutated code would not type-check (a mutant may turn a string into a number); it only has to run.
	disableTypeChecks: 'nodes/**/*.ts',
	// Both cores (CI has the machine to itself; on a shared machine run it under the `heavy` lock).
	concurrency: 2,
	timeoutMS: 10_000,
	incremental: true,
	incrementalFile: 'test/mutation/stryker-incremental.json',
	reporters: ['progress', 'json', 'html'],
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	ignorePatterns: ['/e2e', '/bench', '/docs', '/examples', '/reports', '/dist', '/.cache', '/.ci', '/.github'],
	thresholds: { high: 90, low: 80, break: null },
	tempDirName,
	cleanTempDir: 'always',
};
