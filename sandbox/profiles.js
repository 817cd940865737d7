'use strict';

// Named sandbox profiles: each answers every open point one way, and together they give every
// switch every value of sandbox/switches.js at least once (test/sandbox/profiles.test.js checks
// that). The node suites run against each profile (SANDBOX_PROFILE=<name>,
// scripts/jest-profiles.sh) and the e2e suite against two contrasting ones (E2E_SANDBOX_PROFILE,
// e2e/README.md). A profile names only what differs from the default answers.
const { DEFAULT_SWITCHES, FREE_SWITCH_VALUES } = require('./switches');

const PROFILES = {
	// The answers docs/service-interface.md describes, where it describes one: every switch at its
	// default.
	documented: {},
	// A service that answers in other shapes: shuffled results with entries for unmatched pairs,
	// orders without store_id, the handler id nested, refusals as 200 success: false, the error
	// object bare, Retry-After as a date, deliveries in an envelope with other names, wildcards
	// refused; a smaller batch limit refused with 413.
	reshaped: {
		bulkOrder: 'shuffled',
		bulkUnmatched: 'entry',
		bulkTooLongStatus: 413,
		bulkOrderFields: 'noStoreId',
		bulkMaxLength: 40,
		addHandlerId: 'nested',
		removeUnknown: 'success-false',
		refusals: 'success-false',
		errorBodies: 'bare',
		retryAfter: 'date',
		deliveryBody: 'envelope',
		wildcards: 'refused',
	},
	// A terse service: no handler id, errors as plain text without a code, no Retry-After, deliveries
	// as arrays of events, a strict order_number format; results shuffled.
	terse: {
		bulkOrder: 'shuffled',
		addHandlerId: 'none',
		errorBodies: 'text',
		errorCodes: 'none',
		retryAfter: 'absent',
		deliveryBody: 'array',
		bulkReferencePattern: FREE_SWITCH_VALUES.bulkReferencePattern[1],
	},
	// Behind a gateway on a network: HTML error pages, deliveries of the changed record alone, a
	// little latency per call and per KB; refusals as success: false, unmatched pairs as entries,
	// orders without store_id.
	gateway: {
		bulkUnmatched: 'entry',
		bulkOrderFields: 'noStoreId',
		refusals: 'success-false',
		removeUnknown: 'success-false',
		addHandlerId: 'nested',
		errorBodies: 'html',
		deliveryBody: 'record',
		latencyMs: FREE_SWITCH_VALUES.latencyMs[1],
		latencyPerKbMs: FREE_SWITCH_VALUES.latencyPerKbMs[1],
	},
	// A service that reads the open points against our sandbox's guesses: other error codes for every
	// error, the order checked before the shipment selectors on a restore, unknown paths answered
	// like a service error, bulk entries that are the order records themselves.
	contrary: {
		errorCodes: 'other',
		restoreChecks: 'order-first',
		unknownPaths: 'service-error',
		bulkEntries: 'bare',
	},
};

const DEFAULT_PROFILE = 'documented';

/**
 * The switches a named profile sets (what differs from the defaults); throws for an unknown name.
 */
function profileSwitches(name = DEFAULT_PROFILE) {
	if (!Object.hasOwn(PROFILES, name)) {
		throw new Error(
			`Unknown sandbox profile "${name}"; known: ${Object.keys(PROFILES).join(', ')}`,
		);
	}
	return { ...PROFILES[name] };
}

/**
 * Every switch's value under a profile, defaults included: what a test reads its expectation from.
 */
function profileValues(name = DEFAULT_PROFILE) {
	return { ...DEFAULT_SWITCHES, ...profileSwitches(name) };
}

module.exports = { PROFILES, DEFAULT_PROFILE, profileSwitches, profileValues };
