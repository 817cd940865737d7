import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { readServiceError, type ServiceError } from './answers';
import { isPlainObject } from '../shared/objects';
import { withoutUrlCredentials, withoutUrlCredentialsDeep } from '../shared/redact';

/** The `exp` of a JWT, unverified; undefined when the token is not a readable JWT. */
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

type Reading = [conclusion: string, advice: string];

// Only the status is read: the service's description names no other condition for 401, 403 and 429, and its `code`
// values are not known, so a code is only quoted.
const STATUS_READINGS: Record<number, Reading> = {
	400: ['The service refused {path} as invalid (400)', 'Check the fields the service names.'],
	401: ['The service refused the access token (401)', 'Check the Access Token in the Inventory Ops API credential.'],
	403: ['The access token lacks the permission (scope) {path} needs (403)', 'Use a token with that scope in the Inventory Ops API credential.'],
	// Only Base URL endpoints read this advice: the restore, under the App Base URL, has its own.
	404: ['The service answered {path} with 404 (not found)', 'Check the identifiers sent, and the Base URL in the credential.'],
	409: ['The service refused {path} as a conflict with data it holds (409)', 'Check the request against the data already on the service.'],
	429: ['The service is rate limiting (429), still after the retries allowed', 'Try again later, or lower Batch Size or Calls in Flight.'],
	500: ['The service failed ({status}) during {path}', 'This call only reads data: run it again once the service works.'],
};

const RESTORE_CONFLICT =
	'A restore may conflict when the shipment was already restored or never deducted stock: check the shipment in Inventory Ops.';
const OPERATION_READINGS: Partial<Record<Endpoint, Record<number, Reading>>> = {
	shipmentRestoreInventory: {
		404: [STATUS_READINGS[404][0], 'Check Store ID, Order Number and the shipment identifiers, and the App Base URL in the credential.'],
		// A 409 is a refusal: the restore did not happen, whatever the body says.
		409: ['The service refused the restore as a conflict (409), so nothing was restored', RESTORE_CONFLICT],
	},
	kitCreate: { 409: [STATUS_READINGS[409][0], 'A kit may conflict when its SKU is already used by another item or kit.'] },
	webhookRemoveHandler: { 404: [STATUS_READINGS[404][0], 'The handler may be gone already: check the ID, and the Base URL in the credential.'] },
};

const MAY_HAVE_APPLIED = 'It may have applied the change, so it was not sent again: check the service before running this item again.';

function withServiceWords(conclusion: string, said: string | undefined): string {
	const words = said?.trim() ?? '';
	return words === '' ? `${conclusion}.` : `${conclusion}. The service said: ${words}${/[.!?…]$/.test(words) ? '' : '.'}`;
}

/** A status's own name, which some services put in `overview`: it says nothing the status does not. */
const STATUS_NAMES = new Set([
	'bad request', 'unauthorized', 'forbidden', 'not found', 'method not allowed', 'conflict', 'payload too large',
	'unprocessable entity', 'too many requests', 'internal server error', 'bad gateway', 'service unavailable',
	'gateway timeout', 'request error', 'server error', 'error',
]);

function saysMoreThanStatus(overview: string | undefined): overview is string {
	return overview !== undefined && !STATUS_NAMES.has(overview.trim().replace(/\.$/, '').toLowerCase());
}

interface ErrorContext {
	node: INode;
	endpoint: Endpoint;
	itemIndex?: number;
	accessToken?: unknown;
	now?: number;
}

export function apiErrorFromResponse(status: number, body: unknown, context: ErrorContext): NodeApiError {
	// The service may repeat a URL it was sent, password included.
	return apiError(status, withoutUrlCredentialsDeep(readServiceError(body)), context);
}

export function apiErrorFromRefusal(refusal: ServiceError, context: ErrorContext): NodeApiError {
	return apiError(200, withoutUrlCredentialsDeep(refusal), context);
}

/** `problem`: what arrived instead of an answer the node can read. */
export function apiErrorFromUnexpectedAnswer(problem: string, context: ErrorContext): NodeApiError {
	const { path, changesData } = ENDPOINTS[context.endpoint];
	const description = changesData
		? 'A success status says the change was probably applied, so it was not sent again. Check the service before running this item again.'
		: 'This call only reads data; nothing was changed.';
	return new NodeApiError(context.node, { endpoint: path, unexpectedAnswer: problem } as JsonObject, {
		message: `The service answered ${path} with ${problem}`,
		description,
		itemIndex: context.itemIndex,
	});
}

function readingOf(status: number, endpoint: Endpoint): Reading {
	const { path, changesData } = ENDPOINTS[endpoint];
	if (status === 200) return [`The service refused ${path} with success: false`, 'Its success: false says the change was not made.'];
	const [conclusion, advice] = OPERATION_READINGS[endpoint]?.[status] ??
		STATUS_READINGS[status] ?? (status >= 500 ? STATUS_READINGS[500] : [`The service answered {status} to {path}`, '']);
	const fill = (text: string) => text.replace('{path}', path).replace('{status}', String(status));
	return [fill(conclusion), status >= 500 && changesData ? MAY_HAVE_APPLIED : fill(advice)];
}

function apiError(status: number, serviceError: ServiceError, context: ErrorContext): NodeApiError {
	const { message: said, overview, code, serviceTraceId, page } = serviceError;
	const expiry = status === 401 ? jwtExpiry(context.accessToken) : undefined;
	const expired = expiry !== undefined && expiry.getTime() <= (context.now ?? Date.now());
	const [conclusion, advice] = expired
		? [`The access token expired at ${expiry.toISOString()}`, 'Create a new token and update the Inventory Ops API credential.']
		: readingOf(status, context.endpoint);
	const message =
		page === true
			? `${conclusion}. The answer was a web page titled "${said}", from a gateway or proxy in front of the service.`
			: withServiceWords(conclusion, said ?? overview);
	const fields = { ...serviceError, page: undefined, statusCode: status, endpoint: ENDPOINTS[context.endpoint].path };
	const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as JsonObject;
	const moreThanSaid = said !== undefined && saysMoreThanStatus(overview) && overview !== said ? overview : '';
	const description = [moreThanSaid, advice, code ? `The service's code: ${code}.` : '', serviceTraceId ? `Trace id: ${serviceTraceId}.` : '']
		.filter(Boolean)
		.join(' ');
	const { node, itemIndex } = context;
	return new NodeApiError(node, defined, { message, description, httpCode: String(status), itemIndex });
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT']);
/** The HTTP client's words for a time-out; a host name such as "timeout.example" is not one. */
const TIMEOUT_WORDS = /\btimeout of \d+ ?ms exceeded\b|\btimed out\b/i;

/** n8n wraps the client's error under a generic message, so the cause is read first. */
export function networkReason(error: unknown): { reason: string; timedOut: boolean; refusedByN8n: boolean } {
	if (!isPlainObject(error)) return { reason: 'unknown network error', timedOut: false, refusedByN8n: false };
	const cause = isPlainObject(error.cause) ? error.cause : {};
	const messages = Array.isArray(error.messages) ? error.messages : [];
	const texts = [cause.code, error.code, error.httpCode, ...messages, cause.message, error.message].filter(
		(text): text is string => typeof text === 'string' && text !== '' && !/^\d+$/.test(text),
	);
	return {
		reason: texts[0] ?? 'unknown network error',
		timedOut: texts.some((text) => TIMEOUT_CODES.has(text) || TIMEOUT_WORDS.test(text)),
		// n8n 2.x's SSRF protection (SsrfBlockedIpError, SsrfBlockedHostnameError) refuses before anything is sent.
		refusedByN8n: [error.name, cause.name].some((name) => typeof name === 'string' && name.startsWith('SsrfBlocked')),
	};
}

export const SSRF_ADVICE =
	'n8n refused to send it (its SSRF protection, N8N_SSRF_PROTECTION_ENABLED): nothing was sent. To allow it, add its host name to N8N_SSRF_ALLOWED_HOSTNAMES (an IP address: its range to N8N_SSRF_ALLOWED_IP_RANGES) and restart n8n.';

export function apiErrorFromNetworkFailure(error: unknown, context: ErrorContext): NodeApiError {
	const { path, changesData } = ENDPOINTS[context.endpoint];
	const { reason: rawReason, timedOut, refusedByN8n } = networkReason(error);
	const reason = withoutUrlCredentials(rawReason);
	const fields = { networkError: reason, endpoint: path, changesData, timedOut } as JsonObject;
	const { node, itemIndex } = context;
	if (refusedByN8n) return new NodeApiError(node, fields, { message: `${reason}: ${path} was not sent`, description: SSRF_ADVICE, itemIndex });
	// The low-level code (ECONNRESET...) stays out of the message and of `code`: n8n would replace such a message with
	// a generic text that drops the endpoint and the advice.
	const message = timedOut
		? `The service did not answer ${path} in time`
		: `The connection to the service was lost during ${path} before an answer arrived`;
	const description = changesData
		? 'The service may or may not have applied this change, so it was not sent again. Check the service before running this item again.'
		: 'No answer was received. This call only reads data and can be run again safely.';
	return new NodeApiError(node, fields, { message, description, itemIndex });
}
