// The sandbox profile the node suites run against: SANDBOX_PROFILE=<name> (sandbox/profiles.js;
// default `documented`). test/helpers/sandbox.js starts every sandbox with its switches; a test
// whose expectation depends on how the service answers an open point reads it from `answers`
// instead of assuming the default.
const { DEFAULT_PROFILE, profileSwitches, profileValues } = require('../../sandbox/profiles');
const { codeAs } = require('../../sandbox/errors');

const profileName = process.env.SANDBOX_PROFILE || DEFAULT_PROFILE;
const answers = profileValues(profileName);

/**
 * The code the profile's service sends where the sandbox's own is `code` (switch `errorCodes`: the
 * sandbox's, another made-up one, or undefined for none). A test that checks a code reads it here,
 * never names the sandbox's.
 */
const sandboxCode = (code) => codeAs(answers.errorCodes, code);

/**
 * What of an error answer reaches the node under the profile's `errorBodies` and `errorCodes`: the
 * service's code (when it sends one) and trace id come through in the structured bodies; plain text
 * carries `CODE: message` (or the message alone) as the message; a gateway's HTML page only its
 * title (`<status> <overview>`), so the service's own message is lost.
 */
function errorSeen(status) {
	const structured = answers.errorBodies === 'spec' || answers.errorBodies === 'bare';
	return {
		httpCode: String(status),
		code: structured && answers.errorCodes !== 'none',
		traceId: structured,
		serviceMessage: answers.errorBodies !== 'html',
	};
}

/**
 * The same for a refusal (400, 404, 409) of kit create or handler add, which the profile's
 * `refusals` may send as 200 `{ success: false, message, code }`: then the code and message come
 * through, the trace id does not.
 */
function refusalSeen(status) {
	if (answers.refusals === 'success-false') {
		return {
			httpCode: '200',
			code: answers.errorCodes !== 'none',
			traceId: false,
			serviceMessage: true,
		};
	}
	return errorSeen(status);
}

/**
 * The wait before the first retry of a 429 sent with `Retry-After: <seconds>`, as the profile's
 * service sends it.
 */
function firstRetryWaitAtLeastMs(seconds) {
	if (answers.retryAfter === 'seconds') return seconds * 1000 - 50;
	// An HTTP date has whole seconds, so the wait it gives may be up to a second shorter; no header:
	// the node's own first backoff (transport/rateLimit.ts, 500 ms).
	return answers.retryAfter === 'absent' ? 450 : Math.max(0, seconds * 1000 - 1000);
}

module.exports = {
	profileName,
	/** The switches the profile sets (what differs from the defaults). */
	profileConfig: profileSwitches(profileName),
	/** Every switch's value under the profile. */
	answers,
	errorSeen,
	refusalSeen,
	sandboxCode,
	firstRetryWaitAtLeastMs,
};
