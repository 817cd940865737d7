// `npm run e2e:queue`: the trigger and the action node in n8n's queue mode (see
// e2e/queue/README.md). One file, run in band: the scenarios share one cluster and run one after
// another on purpose.
module.exports = {
	rootDir: __dirname,
	roots: ['<rootDir>/tests'],
	testMatch: ['**/*.test.js'],
	testEnvironment: 'node',
	testTimeout: 600_000,
	maxWorkers: 1,
};
