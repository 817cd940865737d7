// Which test folders Stryker runs (every folder whose tests load the package from dist/), and the property seed.
module.exports = {
	SUITE_FOLDERS: ['transport', 'trigger', 'action', 'credential', 'ai', 'properties'],
	PROPERTY_SEED: 20261123,
	// Run last, quickest first (seconds for the whole suite, one run on the 2-core machine: 2.5 to 15). A mutant's
	// run stops at its first failing test, so a mutant that a quick suite kills does not wait for these.
	SLOW_SUITES: [
		'credential/inventoryOpsApi.test.js',
		'credential/timeouts.test.js',
		'action/serviceAnswers.test.js',
		'action/order.getMany.test.js',
		'action/serviceFailures.test.js',
		'action/inputChecks.test.js',
		'action/order.getMany.limits.test.js',
		'properties/actions.property.test.js',
		'action/order.callsInFlight.test.js',
	],
};
