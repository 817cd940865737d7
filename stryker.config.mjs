// Mutation testing of nodes/ (`npm run mutation`; how and why: test/mutation/README.md). Stryker mutates the
// TypeScript, compiles the mutated copy once into its sandbox's dist/ (every mutant sits behind a switch), and runs
// the node suites (as one jest file) against it, per mutant only the tests that reached the mutated line.
export default {
	testRunner: 'jest',
	plugins: ['@stryker-mutator/jest-runner', './test/mutation/ignoreDescriptions.mjs'],
	ignorers: ['n8nDescriptions'],
	jest: { configFile: 'test/mutation/jest.config.js', enableFindRelatedTests: false },
	coverageAnalysis: 'perTest',
	mutate: ['nodes/**/*.ts', '!nodes/**/node.type.ts'],
	buildCommand: 'tsc -p tsconfig.build.json',
	// The mutated code would not type-check (a mutant may turn a string into a number); it only has to run.
	disableTypeChecks: 'nodes/**/*.ts',
	// One worker: the machine has two cores and other jobs; a second worker made the timing-based tests flaky.
	concurrency: 1,
	timeoutMS: 10_000,
	incremental: true,
	incrementalFile: 'test/mutation/stryker-incremental.json',
	reporters: ['progress', 'json', 'html'],
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	ignorePatterns: ['/e2e', '/bench', '/docs', '/examples', '/reports', '/dist', '/.cache', '/.ci', '/.github'],
	thresholds: { high: 90, low: 80, break: null },
	cleanTempDir: 'always',
};
