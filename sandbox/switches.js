'use strict';

// The open points of the service's description that the sandbox can answer more than one way: each
// switch with every value it takes, the default first. The admin API's config schema and the test
// profiles are built from this list, so a new answer to an open point is one new value here (plus
// its behaviour where the switch is read).
const OPEN_POINT_SWITCHES = {
	bulkOrder: ['request', 'shuffled'],
	bulkUnmatched: ['omit', 'entry'],
	// How a batch longer than `bulkMaxLength` is refused: 400 ARRAY_TOO_LONG or 413
	// PAYLOAD_TOO_LARGE.
	bulkTooLongStatus: [400, 413],
	// Which order fields a bulk answer carries: all of them, or none of `store_id`.
	bulkOrderFields: ['all', 'noStoreId'],
	// What a bulk entry is: `{ order, metrics, barcode_generation_failed }`, or the order record
	// itself (with barcode_generation_failed at its top when it failed).
	bulkEntries: ['wrapped', 'bare'],
	// Where add_handler puts the new handler's id: `{ success, _id }`, `{ success, handler: { _id }
	// }`, nowhere.
	addHandlerId: ['top', 'nested', 'none'],
	removeUnknown: [404, 'success-false'],
	// How kit/create and add_handler refuse what they will not do: an error status, or 200 `{
	// success: false, message }`.
	refusals: ['status', 'success-false'],
	// The body of every non-2xx answer: the documented `{ error }`, the error object bare, plain
	// text, a gateway's HTML page.
	errorBodies: ['spec', 'bare', 'text', 'html'],
	// The `code` of every error: the sandbox's own (ALREADY_RESTORED, ...), other made-up ones
	// (E_RESTORE_TWICE, ...), none.
	errorCodes: ['sandbox', 'other', 'none'],
	// How a 429 says when to come back: `Retry-After` in seconds, as an HTTP date, or no header.
	retryAfter: ['seconds', 'date', 'absent'],
	// The body of a delivery to a handler: `{ id, type, created_at, data }`, an envelope with other
	// names (`{ event_id, event_type, occurred_at, payload }`), an array of such events, or the
	// changed record alone.
	deliveryBody: ['event', 'envelope', 'array', 'record'],
	// Whether restore checks the request (a shipment selector) before it looks the order up, or the
	// order first: then a restore naming no order gets 404 `order not found`.
	restoreChecks: ['request-first', 'order-first'],
	// How a path the service does not serve is answered: 404 code NOT_FOUND `No route POST /path`, or
	// a 404 like any other error of the service's, `Not Found` (both in the shape errorBodies gives).
	unknownPaths: ['plain', 'service-error'],
	// Whether add_handler takes a suffix wildcard (`order.status.*`) or refuses it with 400
	// WILDCARD_NOT_SUPPORTED.
	wildcards: ['suffix', 'refused'],
};

// The switches that take any value (a number, a pattern): the default first, then the values the
// test profiles (sandbox/profiles.js) give them.
const FREE_SWITCH_VALUES = {
	bulkMaxLength: [500, 40],
	// An order_number not matching makes the whole batch 400 VALIDATION_ERROR (a malformed
	// reference).
	bulkReferencePattern: [null, '^[0-9A-Za-z_-]{1,32}$'],
	latencyMs: [0, 3],
	latencyPerKbMs: [0, 0.2],
};

/** Every switch at its default (the first value). */
const DEFAULT_SWITCHES = Object.fromEntries(
	Object.entries({ ...OPEN_POINT_SWITCHES, ...FREE_SWITCH_VALUES }).map(([name, values]) => [
		name,
		values[0],
	]),
);

module.exports = { OPEN_POINT_SWITCHES, FREE_SWITCH_VALUES, DEFAULT_SWITCHES };
