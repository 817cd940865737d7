'use strict';

// The open points of the service's description that the sandbox can answer more than one way: each switch with
// every value it takes, the default first. The admin API's config schema and the test profiles are built from
// this list, so a new answer to an open point is one new value here (plus its behaviour where the switch is read).
const OPEN_POINT_SWITCHES = {
	bulkOrder: ['request', 'shuffled'],
	bulkUnmatched: ['omit', 'entry'],
	// Where add_handler puts the new handler's id: `{ success, _id }`, `{ success, handler: { _id } }`, nowhere.
	addHandlerId: ['top', 'nested', 'none'],
	removeUnknown: [404, 'success-false'],
	// How kit/create and add_handler refuse what they will not do: an error status, or 200 `{ success: false, message }`.
	refusals: ['status', 'success-false'],
	// The body of every non-2xx answer: the documented `{ error }`, the error object bare, plain text, a gateway's HTML page.
	errorBodies: ['spec', 'bare', 'text', 'html'],
	// How a 429 says when to come back: `Retry-After` in seconds, as an HTTP date, or no header.
	retryAfter: ['seconds', 'date', 'absent'],
	// The body of a delivery to a handler: `{ id, type, created_at, data }`, an envelope with other names
	// (`{ event_id, event_type, occurred_at, payload }`), an array of such events, or the changed record alone.
	deliveryBody: ['event', 'envelope', 'array', 'record'],
	// Whether add_handler takes a suffix wildcard (`order.status.*`) or refuses it with 400 WILDCARD_NOT_SUPPORTED.
	wildcards: ['suffix', 'refused'],
};

const DEFAULT_OPEN_POINT_SWITCHES = Object.fromEntries(
	Object.entries(OPEN_POINT_SWITCHES).map(([name, values]) => [name, values[0]]),
);

module.exports = { OPEN_POINT_SWITCHES, DEFAULT_OPEN_POINT_SWITCHES };
