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

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request as invalid. Check the fields named in the message.',
	401: 'The access token was missing or rejected. Check the Access Token in the Inventory Ops API credential.',
	403: 'The access token is valid but lacks the permission (scope) this operation needs.',
	409: 'The request conflicts with data already on the service.',
	429: 'The service rate limit was exceeded and stayed exceeded after the allowed retries. Try again later or lower the batch size / calls in flight.',
	500: 'The service failed internally.',
};

/** What a 409 means where the service says more than "conflict"; both codes say the restore changed nothing. */
const CONFLICT_HINTS: Record<string, string> = {
	ALREADY_RESTORED: 'The inventory of this shipment was already restored. Nothing was changed.',
	NOTHING_TO_RESTORE: 'This shipment never deducted inventory, so there was nothing to restore. Nothing was changed.',
};

/** A 409 whose code says no more (or a gateway's page with no code), per operation. */
const ENDPOINT_CONFLICT_HINTS: Partial<Record<Endpoint, string>> = {
	// A 409 is a refusal, so the restore did not happen, whatever the answer's body.
	shipmentRestoreInventory:
		'The service refused the restore as a conflict without saying which: most likely the inventory of this shipment was already restored, or the shipment never deducted any. Nothing was changed.',
	kitCreate: `${STATUS_HINTS[409]} A kit's SKU must not be used by another item or kit.`,
};

/** A 404 about a record the service looked for (e.g. HANDLER_NOT_FOUND), per operation: the address was right. */
const RECORD_NOT_FOUND_HINTS: Partial<Record<Endpoint, string>> = {
	webhookRemoveHandler: 'The service knows no webhook handler with this ID; it may have been removed already. Check the ID.',
	shipmentRestoreInventory:
		'The service found no shipment for these IDs. Check Store ID, Order Number and the shipment identifiers.',
};

const CREDENTIAL_FIELD: Record<'baseUrl' | 'appBaseUrl', string> = { baseUrl: 'Base URL', appBaseUrl: 'App Base URL' };

function notFoundHint(endpoint: Endpoint, code: string | undefined): string {
	// A code naming a record (SHIPMENT_NOT_FOUND) comes from the operation itself, so the address is right; a bare
	// NOT_FOUND, no code or a web page is what an address without the operation answers.
	if (code !== undefined && code !== 'NOT_FOUND' && /NOT_FOUND$/.test(code)) {
		return RECORD_NOT_FOUND_HINTS[endpoint] ?? 'The service does not know the record named in the message. Check the identifiers sent.';
	}
	return `The service has no such address or record. Check the ${CREDENTIAL_FIELD[ENDPOINTS[endpoint].base]} in the credential, and the identifiers sent.`;
}

function hintFor(status: number, endpoint: Endpoint, code: string | undefined): string | undefined {
	if (status === 404) return notFoundHint(endpoint, code);
	if (status === 409) {
		if (code !== undefined && CONFLICT_HINTS[code] !== undefined) return CONFLICT_HINTS[code];
		if (ENDPOINT_CONFLICT_HINTS[endpoint] !== undefined) return ENDPOINT_CONFLICT_HINTS[endpoint];
	}
	const hint = STATUS_HINTS[status] ?? (status >= 500 ? STATUS_HINTS[500] : undefined);
	if (status < 500 || !ENDPOINTS[endpoint].changesData) return hint;
	return `${hint} Nothing here can tell whether the change was applied, so it was not sent again; check the service before running this item again.`;
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
	const { path } = ENDPOINTS[context.endpoint];
	const reason = refusal.message ?? 'it answered success: false and gave no reason';
	return apiError(
		200,
		withoutUrlCredentialsDeep({
			...refusal,
			message: `The service refused ${path}: ${reason}`,
			overview: 'It answered 200 with success: false, which says the change was not made.',
		}),
		context,
	);
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

function apiError(status: number, serviceError: ServiceError, context: ErrorContext): NodeApiError {
	const expiry = status === 401 ? jwtExpiry(context.accessToken) : undefined;
	const expired = expiry !== undefined && expiry.getTime() <= (context.now ?? Date.now());
	const message = expired
		? `The access token expired at ${expiry.toISOString()}. Create a new token and update the Inventory Ops API credential.`
		: serviceError.page === true
			? `The service answered ${status} to ${ENDPOINTS[context.endpoint].path} with a web page titled "${serviceError.message}" (from a gateway or proxy in front of it)`
			: (serviceError.message ?? `The service answered ${status} to ${ENDPOINTS[context.endpoint].path}`);
	const overview = saysMoreThanStatus(serviceError.overview) ? serviceError.overview : undefined;
	const details = [overview, hintFor(status, context.endpoint, serviceError.code)].filter(Boolean).join(' ');
	const fields = Object.fromEntries(
		Object.entries({
			...serviceError,
			page: undefined,
			statusCode: status,
			endpoint: ENDPOINTS[context.endpoint].path,
		}).filter(([, value]) => value !== undefined),
	) as JsonObject;
	return new NodeApiError(context.node, fields, {
		message,
		description: [
			details,
			serviceError.code ? `Code: ${serviceError.code}.` : '',
			serviceError.serviceTraceId ? `Trace id: ${serviceError.serviceTraceId}.` : '',
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
export function networkReason(error: unknown): { reason: string; timedOut: boolean } {
	if (!isPlainObject(error)) return { reason: 'unknown network error', timedOut: false };
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
	};
}

/** A call that never got an answer. For a call that may change data, say plainly that it was not repeated. */
export function apiErrorFromNetworkFailure(error: unknown, context: ErrorContext): NodeApiError {
	const { path, changesData } = ENDPOINTS[context.endpoint];
	const { reason: rawReason, timedOut } = networkReason(error);
	const reason = withoutUrlCredentials(rawReason);
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
