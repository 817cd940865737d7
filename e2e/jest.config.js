// The end-to-end suite (npm run e2e): real n8n hosts against the sandbox. e2e/run.js runs it once
// per host line with E2E_HOST_LINE set; one test file per host keeps one n8n per host line for the
// whole suite.
module.exports = {
	testEnvironment: 'node',
	rootDir: __dirname,
	roots: ['<rootDir>/tests'],
	testMatch: ['**/*.e2e.test.js'],
	// n8n starts in ~6-20 s and restarts several times in the lifecycle scenarios.
	testTimeout: 180_000,
	maxWorkers: 1,
	verbose: true,
	// A host that failed half-way must never keep CI waiting; every test closes what it opened
	// anyway.
	forceExit: true,
};
