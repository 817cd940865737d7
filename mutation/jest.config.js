// The jest configuration Stryker runs (stryker.config.mjs): all node suites as one file
// (all.mutation.js), in the environment that stops a mutant run at its first failing test
// (bailEnvironment.js).
const path = require('node:path');

const base = require('../jest.config');

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '..'),
	// This folder for the one test file, test/ for the suites it requires.
	roots: ['<rootDir>/mutation', '<rootDir>/test'],
	testMatch: ['<rootDir>/mutation/all.mutation.js'],
	// An absolute path: Stryker wraps the environment and resolves its name itself, without
	// <rootDir>.
	testEnvironment: path.join(__dirname, 'bailEnvironment.js'),
	// n8n's packages as the environment loaded them once per worker, not again for every mutant
	// (preload.js).
	setupFiles: [path.join(__dirname, 'preload.js')],
	maxWorkers: 1,
};
