// Tests are plain CommonJS JavaScript: n8n's strict community lint covers every .ts file in the
// repo and forbids what tests need (process, timers, most imports). They exercise the compiled
// package in dist/, the code that ships.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.js'],
	testTimeout: 30_000,
	maxWorkers: 2,
};
