// Jest's node environment, but during a Stryker mutant run the tests after the first failure are skipped: the
// mutant is killed already, and the rest of the covering tests (up to the whole suite for a line every call goes
// through) would only cost time. jest's own `bail` stops between test files, and all suites are one file here
// (all.mutation.js). The run that measures coverage (no active mutant) runs everything.
// It also hands the run's test name filter to all.mutation.js.
const { TestEnvironment } = require('jest-environment-node');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';

class BailAfterFirstFailure extends TestEnvironment {
	failed = false;

	constructor(config, context) {
		super(config, context);
		// The tests Stryker asked for (a mutant run names the tests that cover the mutant): all.mutation.js loads
		// only the suites that hold one of them.
		this.global.__mutationTestNamePattern = config.globalConfig.testNamePattern ?? undefined;
	}

	async handleTestEvent(event) {
		if (process.env[ACTIVE_MUTANT] === undefined) return;
		if (event.name === 'test_done' && event.test.errors.length > 0) this.failed = true;
		if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.failed = true;
		if (!this.failed) return;
		// A describe entered after the failure: its tests are marked skipped before jest looks for enabled tests,
		// so its beforeAll hooks (a sandbox, a harness) do not run either.
		if (event.name === 'run_describe_start') skipAll(event.describeBlock);
		if (event.name === 'test_start') event.test.mode = 'skip';
	}
}

function skipAll(block) {
	for (const child of block.children) {
		if (child.type === 'describeBlock') skipAll(child);
		else child.mode = 'skip';
	}
}

module.exports = BailAfterFirstFailure;
