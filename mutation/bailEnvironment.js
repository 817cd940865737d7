// Jest's node environment, but during a Stryker mutant run the tests after the first failure are
// skipped: the mutant is killed already, and the rest of the covering tests (up to the whole suite
// for a line every call goes through) would only cost time. jest's own `bail` stops between test
// files, and all suites are one file here (all.mutation.js). The run that measures coverage (no
// active mutant) runs everything. It also hands the run's test name filter to all.mutation.js, and
// holds each test of a mutant run to a few times its time in the measuring run (`timeLimitMs`): a
// mutant that hangs a pool or a loop then fails its first covering test within seconds, where
// Stryker's own time-out waits 1.5x the time of every covering test (over two minutes for a line
// that every test reaches).
const fs = require('node:fs');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

// By this run's mutant ids: which suite killed each last time, and which are survivors listed as
// equivalent.
const { HINTS_VARIABLE } = require('./hintsFile');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
/**
 * Written by the measuring run, read by every mutant run (same Stryker sandbox, one file per run).
 */
const DURATIONS_FILE = 'reports/mutation/test-durations.json';
/**
 * Generous: mutant runs share the two cores three ways, and a test may wait on its sandbox's
 * latency.
 */
const timeLimitMs = (measuredMs) => 4 * measuredMs + 3_000;

/**
 * The test's full name, as jest's -t filter and Stryker see it (the describes from the outside in,
 * then its own).
 */
function fullName(test) {
	const names = [];
	for (let block = test; block && block.parent; block = block.parent) names.unshift(block.name);
	return names.join(' ');
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

// Read once per worker: the hints do not change during a run.
let hints;
function readHints() {
	const read = (process.env[HINTS_VARIABLE] && readJson(process.env[HINTS_VARIABLE])) || {};
	return {
		firstSuite: read.firstSuite ?? {},
		listedEquivalent: new Set(read.listedEquivalent ?? []),
	};
}

const PRELOADED = [
	'n8n-workflow',
	'n8n-core',
	'@n8n/di',
	'@n8n/backend-common',
	'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool',
	// Where n8n-workflow's `sleep` lives: test/trigger/helpers/setup.js puts it on the fake clock,
	// and must reach the very module the preloaded n8n-workflow reads it from.
	'@n8n/utils/sleep',
];
let preloaded;
function preload(rootDir) {
	preloaded ??= Object.fromEntries(
		PRELOADED.map((name) => [name, require(require.resolve(name, { paths: [rootDir] }))]),
	);
	return preloaded;
}

class BailAfterFirstFailure extends TestEnvironment {
	/**
	 * Set at the first failing test (or from the start for a listed equivalent): every test after it
	 * is skipped.
	 */
	skipping = false;

	constructor(config, context) {
		super(config, context);
		// The tests Stryker asked for (a mutant run names the tests that cover the mutant):
		// all.mutation.js loads only the suites that hold one of them.
		this.global.__mutationTestNamePattern = config.globalConfig.testNamePattern ?? undefined;
		this.durationsFile = path.join(config.projectConfig.rootDir, DURATIONS_FILE);
		this.mutantRun = process.env[ACTIVE_MUTANT] !== undefined;
		this.configuredTimeout = config.globalConfig.testTimeout ?? 5_000;
		this.durations = this.mutantRun ? readJson(this.durationsFile) : {};
		if (this.mutantRun) {
			hints ??= readHints();
			const mutantId = process.env[ACTIVE_MUTANT];
			// all.mutation.js loads this suite first.
			this.global.__mutationFirstSuite = hints.firstSuite[mutantId];
			// A survivor listed as equivalent: no test runs (killerFirst.mjs), as if one had failed;
			// all.mutation.js loads one suite, since jest needs a test to skip.
			this.global.__mutationListedEquivalent = hints.listedEquivalent.has(mutantId);
			this.skipping = this.global.__mutationListedEquivalent;
		}
		if (process.env.MUTATION_PRELOAD !== '0') {
			this.global.__mutationPreloaded = preload(config.projectConfig.rootDir);
			this.global.Error = Error;
		}
	}

	async handleTestEvent(event) {
		if (!this.mutantRun) {
			this.measure(event);
			return;
		}
		if (event.name === 'test_start') this.limit(event.test);
		// Only a test that failed counts: a failed beforeAll marks the tests of its describe failed
		// when they run, so they must not be skipped (skipped, they would report the mutant as a
		// survivor).
		if (event.name === 'test_done' && event.test.errors.length > 0) this.skipping = true;
		if (!this.skipping) return;
		// A describe entered after the failure: its tests are marked skipped before jest looks for
		// enabled tests, so its beforeAll hooks (a sandbox, a harness) do not run either.
		if (event.name === 'run_describe_start') skipAll(event.describeBlock);
		if (event.name === 'test_start') event.test.mode = 'skip';
	}

	measure(event) {
		if (event.name === 'test_done' && event.test.errors.length === 0)
			this.durations[fullName(event.test)] = event.test.duration;
		if (event.name === 'run_finish') {
			fs.mkdirSync(path.dirname(this.durationsFile), { recursive: true });
			fs.writeFileSync(this.durationsFile, JSON.stringify(this.durations));
		}
	}

	/**
	 * Only ever lowers a test's own time-out (or the configured one), for tests the measuring run
	 * timed.
	 */
	limit(test) {
		const measured = this.durations?.[fullName(test)];
		if (typeof measured !== 'number') return;
		const own = test.timeout || this.configuredTimeout;
		test.timeout = Math.min(own, timeLimitMs(measured));
	}
}

function skipAll(block) {
	for (const child of block.children) {
		if (child.type === 'describeBlock') skipAll(child);
		else child.mode = 'skip';
	}
}

module.exports = BailAfterFirstFailure;
