// Which folders of test/ Stryker runs, with their subfolders (every folder whose tests load the
// package from dist/), and the property seed. Suites are named by their path under test/.
module.exports = {
	SUITE_FOLDERS: ['transport', 'trigger', 'actions', 'credential', 'ai', 'properties'],
	PROPERTY_SEED: 20261123,
	// Run last, quickest first (seconds for the whole suite, one run on the 2-core machine: 2.5 to
	// 15). A mutant's run stops at its first failing test, so a mutant that a quick suite kills does
	// not wait for these.
	SLOW_SUITES: [
		'credential/inventoryOpsApi.test.js',
		'credential/inventoryOpsApi.timeouts.test.js',
		'transport/answers.openPoints.test.js',
		'actions/order/lookUp/lookUp.test.js',
		'transport/errors.serviceFailures.test.js',
		'actions/helpers/validation.test.js',
		'actions/order/lookUp/lookUp.limits.test.js',
		'properties/actions.property.test.js',
		'actions/order/lookUp/lookUp.callsInFlight.test.js',
	],
};
