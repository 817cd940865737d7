import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { readServiceError, type ServiceError } from './answers';
import { isPlainObject } from '../shared/objects';
import { withoutUrlCredentials, withoutUrlCredentialsDeep } from '../shared/redact';

/** The `exp` of a JWT as a Date, without verifying it; undefined when the token is not a readable JWT. */
export function jwtExpiry(token: unknown): Date | undefined {
	if (typeof token !== 'string') return undefined;
	const parts = token.split('.');
	if (parts.length !== 3) return undefined;
	try {
		const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
		if (isPlainObject(payload) && typeof payload.exp === 'number') return new Date(payload.exp * 1000);
	} catch {
		return undefined;
	}
	return undefined;
}

/**
 * What the node concludes from an error status, and what to do. Only the status is read: the service's description
 * ties 401, 403 and 429 to the token and the rate limit and names no other condition, and its `code` values are
 * not known, so a code is only quoted. `{path}`, `{status}` and `{base}` are filled in for each error.
 */
const STATUS_READINGS: Record<number, [conclusion: string, advice: string]> = {
	400: ['The service refused {path} as invalid (400)', 'Check the fields the service names.'],
	401: ['The service refused the access token (401)', 'Check the Access Token in the Inventory Ops API credential.'],
	403: ['The access token lacks the permission (scope) {path} needs (403)', 'Use a token with that scope in the Inventory Ops API credential.'],
	404: ['The service answered {path} with 404 (not found)', 'Check the identifiers sent, and the {base} in the credential.'],
	409: ['The service refused {path} as a conflict with data it holds (409)', 'Check the request against the data already on the service.'],
	429: [
		'The service rate limit was exceeded (429) and stayed exceeded after the allowed retries',
		'Try again later or lower the batch size / calls in flight.',
	],
	500: ['The service failed ({status}) during {path}', 'This call only reads data: run it again once the service works.'],
};

/** Where an operation knows more than the status's reading: its conclusion or advice for that status. */
const OPERATION_READINGS: Partial<Record<Endpoint, Record<number, [conclusion: string, advice: string]>>> = {
	// A 409 is a refusal, so the restore did not happen, whatever the answer's body.
	shipmentRestoreInventory: {
		404: [STATUS_READINGS[404][0], 'Check Store ID, Order Number and the shipment identifiers, and the App Base URL in the credential.'],
		409: [
			'The service refused the restore as a conflict (409), so nothing was restored',
			'A restore may conflict when the shipment was already restored or never deducted stock: check the shipment in Inventory Ops.',
		],
	},
	kitCreate: { 409: [STATUS_READINGS[409][0], 'A kit may conflict when its SKU is already used by another item or kit.'] },
	webhookRemoveHandler: { 404: [STATUS_READINGS[404][0], 'The handler may be gone already: check the ID, and the Base URL in the credential.'] },
};

const MAY_HAVE_APPLIED =
	'Nothing here can tell whether the change was applied, so it was not sent again; check the service before running this item again.';

/** "<conclusion>. The service said: <its words>." The node's reading first, then the service's own, whole. */
export function quoting(conclusion: string, said: string | undefined): string {
	const words = said?.trim() ?? '';
	return words === '' ? `${conclusion}.` : `${conclusion}. The service said: ${words}${/[.!?…]$/.test(words) ? '' : '.'}`;
}

// The status's own name, which some services put in `overview`: it says nothing the status code does not.
const GENERIC_STATUS_TEXTS = new Set([
	'bad request',
	'unauthorized',
	'forbidden',
	'not found',
	'method not allowed',
	'conflict',
	'payload too large',
	'unprocessable entity',
	'too many requests',
	'internal server error',
	'bad gateway',
	'service unavailable',
	'gateway timeout',
	'request error',
	'server error',
	'error',
]);

function saysMoreThanStatus(overview: string | undefined): overview is string {
	return overview !== undefined && !GENERIC_STATUS_TEXTS.has(overview.trim().replace(/\.$/, '').toLowerCase());
}

interface ErrorContext {
	node: INode;
	endpoint: Endpoint;
	itemIndex?: number;
	accessToken?: unknown;
	now?: number;
}

/** Turns a non-2xx answer into a NodeApiError carrying the error object's fields; never includes the token. */
export function apiErrorFromResponse(status: number, body: unknown, context: ErrorContext): NodeApiError {
	// The service may repeat a URL it was sent, password included: none leaves through the error.
	return apiError(status, withoutUrlCredentialsDeep(readServiceError(body)), context);
}

/** A 200 with `success: false` from an operation where that means it was not done (transport/answers.ts). */
export function apiErrorFromRefusal(refusal: ServiceError, context: ErrorContext): NodeApiError {
	return apiError(200, withoutUrlCredentialsDeep(refusal), context);
}

/**
 * A 2xx answer the node cannot read: the message names the operation and what arrived. For a call that may change
 * data, the answer said the service took it, so it was not sent again.
 */
export function apiErrorFromUnexpectedAnswer(problem: string, context: ErrorContext): NodeApiError {
	const { path, changesData } = ENDPOINTS[context.endpoint];
	const description = changesData
		? 'The service answered with a success status, so the change was probably applied; it was not sent again. Check the service before running this item again.'
		: 'This call only reads data; nothing was changed.';
	return new NodeApiError(context.node, { endpoint: path, unexpectedAnswer: problem } as JsonObject, {
		message: `The service answered ${path} with ${problem}`,
		description,
		itemIndex: context.itemIndex,
	});
}

/** The node's conclusion and advice for an error status (or a 200 with success: false) of an operation. */
function reading(status: number, endpoint: Endpoint): [conclusion: string, advice: string] {
	const { path, base } = ENDPOINTS[endpoint];
	if (status === 200) return [`The service refused ${path} with success: false`, 'It answered 200 with success: false, which says the change was not made.'];
	const [conclusion, advice] = OPERATION_READINGS[endpoint]?.[status] ??
		STATUS_READINGS[status] ?? (status >= 500 ? STATUS_READINGS[500] : [`The service answered {status} to {path}`, '']);
	const fill = (text: string) =>
		text.replace('{path}', path).replace('{status}', String(status)).replace('{base}', base === 'baseUrl' ? 'Base URL' : 'App Base URL');
	return [fill(conclusion), status >= 500 && ENDPOINTS[endpoint].changesData ? MAY_HAVE_APPLIED : fill(advice)];
}

/**
 * The message: the node's conclusion from the status, then the service's words (its `message`, else its
 * `overview`), or the title of a gateway's web page. The description: the overview when it says more, what to do,
 * the service's code and trace id when it sent them.
 */
function apiError(status: number, serviceError: ServiceError, context: ErrorContext): NodeApiError {
	const { message: said, overview, code, serviceTraceId, page } = serviceError;
	const expiry = status === 401 ? jwtExpiry(context.accessToken) : undefined;
	const expired = expiry !== undefined && expiry.getTime() <= (context.now ?? Date.now());
	const [conclusion, advice] = expired
		? [`The access token expired at ${expiry.toISOString()}`, 'Create a new token and update the Inventory Ops API credential.']
		: reading(status, context.endpoint);
	const message =
		page === true
			? `${conclusion}. The answer was a web page titled "${said}", from a gateway or proxy in front of the service.`
			: quoting(conclusion, said ?? overview);
	const fields = Object.fromEntries(
		Object.entries({ ...serviceError, page: undefined, statusCode: status, endpoint: ENDPOINTS[context.endpoint].path }).filter(
			([, value]) => value !== undefined,
		),
	) as JsonObject;
	return new NodeApiError(context.node, fields, {
		message,
		description: [
			said !== undefined && saysMoreThanStatus(overview) && overview !== said ? overview : '',
			advice,
			code ? `The service's code: ${code}.` : '',
			serviceTraceId ? `Trace id: ${serviceTraceId}.` : '',
		]
			.filter(Boolean)
			.join(' '),
		httpCode: String(status),
		itemIndex: context.itemIndex,
	});
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT']);
/** The HTTP client's own words for a time-out; a host name in a message ("ENOTFOUND timeout.example") is not one. */
const TIMEOUT_WORDS = /\btimeout of \d+ ?ms exceeded\b|\btimed out\b/i;

/**
 * The low-level reason of a failed call. n8n wraps the HTTP client's error and replaces its message with a
 * generic text, so the code is read from the wrapped cause first.
 */
export function networkReason(error: unknown): { reason: string; timedOut: boolean; refusedByN8n: boolean } {
	if (!isPlainObject(error)) return { reason: 'unknown network error', timedOut: false, refusedByN8n: false };
	const cause = isPlainObject(error.cause) ? error.cause : {};
	const texts = [
		cause.code,
		error.code,
		error.httpCode,
		...(Array.isArray(error.messages) ? error.messages : []),
		cause.message,
		error.message,
	].filter((text): text is string => typeof text === 'string' && text !== '' && !/^\d+$/.test(text));
	return {
		reason: texts[0] ?? 'unknown network error',
		timedOut: texts.some((text) => TIMEOUT_CODES.has(text) || TIMEOUT_WORDS.test(text)),
		// n8n 2.x's SSRF protection (SsrfBlockedIpError, SsrfBlockedHostnameError) refuses before anything is sent.
		refusedByN8n: [error.name, cause.name].some((name) => typeof name === 'string' && name.startsWith('SsrfBlocked')),
	};
}

/** What n8n's SSRF protection needs to let an address through, for a message that follows n8n's own words. */
export const SSRF_ADVICE =
	'n8n refused to send it (its SSRF protection, N8N_SSRF_PROTECTION_ENABLED): nothing was sent. To allow this address, add its host name to N8N_SSRF_ALLOWED_HOSTNAMES, or its IP range to N8N_SSRF_ALLOWED_IP_RANGES for an address written as an IP, and restart n8n.';

/** A call that never got an answer. For a call that may change data, say plainly that it was not repeated. */
export function apiErrorFromNetworkFailure(error: unknown, context: ErrorContext): NodeApiError {
	const { path, changesData } = ENDPOINTS[context.endpoint];
	const { reason: rawReason, timedOut, refusedByN8n } = networkReason(error);
	const reason = withoutUrlCredentials(rawReason);
	if (refusedByN8n) {
		return new NodeApiError(context.node, { networkError: reason, endpoint: path, changesData, timedOut } as JsonObject, {
			message: `${reason}: ${path} was not sent`,
			description: SSRF_ADVICE,
			itemIndex: context.itemIndex,
		});
	}
	// The low-level code (ECONNRESET...) stays out of the message and out of a `code` field: n8n would replace
	// a message containing it with a generic text that drops the endpoint and the "not repeated" advice.
	const message = timedOut
		? `The service did not answer ${path} in time`
		: `The connection to the service was lost during ${path} before an answer arrived`;
	const description = changesData
		? 'The service may or may not have applied this change, so it was not sent again. Check the service before running this item again.'
		: 'No answer was received. This call only reads data and can be run again safely.';
	return new NodeApiError(context.node, { networkError: reason, endpoint: path, changesData, timedOut } as JsonObject, {
		message,
		description,
		itemIndex: context.itemIndex,
	});
}
