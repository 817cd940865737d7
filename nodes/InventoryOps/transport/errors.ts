import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { readServiceError } from './answers';
import { isPlainObject } from '../shared/objects';
import { withoutUrlCredentials, withoutUrlCredentialsDeep } from '../shared/redact';

/** Unverified; undefined when the token is not a readable JWT. */
export function jwtExpiry(token: unknown): Date | undefined {
	if (typeof token !== 'string') return undefined;
	const parts = token.split('.');
	try {
		const payload: unknown = parts.length === 3 && JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
		if (isPlainObject(payload) && typeof payload.exp === 'number') return new Date(payload.exp * 1000);
	} catch {
		// Not a JWT.
	}
	return undefined;
}

type Reading = [conclusion: string, advice: string];

// The service's `code` values are not known: a code is only quoted, the status read.
const STATUS_READINGS: Record<number, Reading> = {
	400: ['The service refused {path} as invalid (400)', 'Check the fields the service names.'],
	401: ['The service refused the access token (401)', 'Check the Access Token in the credential.'],
	403: ['The access token lacks the permission (scope) {path} needs (403)', 'Use a token with that scope in the credential.'],
	404: ['The service answered {path} with 404 (not found)', 'Check the identifiers sent and the Base URL.'],
	409: ['The service refused {path} as a conflict (409)', 'Check the request against the data on the service.'],
	429: ['The service is rate limiting (429), still after the retries allowed', 'Try again later, or lower Batch Size or Calls in Flight.'],
	500: ['The service failed ({status}) during {path}', 'This call only reads data: run it again later.'],
};

const NOT_FOUND = STATUS_READINGS[404][0];
// Replaced by what the answer beside it shows (readRemovalNotFound).
const NOT_FOUND_ADVICE = 'The handler may be gone already: check the ID and the Base URL.';
const OPERATION_READINGS: Partial<Record<Endpoint, Record<number, Reading>>> = {
	shipmentRestoreInventory: {
		404: [NOT_FOUND, 'Check Store ID, Order Number, the shipment identifiers and the App Base URL.'],
		// A 409 is a refusal: the restore did not happen, whatever the body says.
		409: [
			'The service refused the restore as a conflict (409), so nothing was restored',
			'It may be already restored, or never have deducted stock: check the shipment in Inventory Ops.',
		],
	},
	kitCreate: { 409: [STATUS_READINGS[409][0], 'Its SKU may be used by another item or kit already.'] },
	webhookRemoveHandler: { 404: [NOT_FOUND, NOT_FOUND_ADVICE] },
};

const CHECK_BEFORE_RERUN = 'so it was not sent again: check the service before trying again.';

/**
 * `message` followed by each sentence of `advice` it does not hold yet. n8n 1.x shows a NodeApiError's description,
 * 2.x its message, and a trigger's error or log line has only a message: so a doubt (the change may or may not have
 * been applied, what to check) goes into the message. Builds the messages of the action node's doubts here, and of
 * activation and deactivation (`userMessage`).
 */
export function withAdvice(message: string, advice: string | null | undefined): string {
	const text = message.trim().replace(/[^.!?…]$/, '$&.');
	const missing = (advice ?? '').split(/(?<=[.!?])\s+/).map((part) => part.trim()).filter((part) => part !== '' && !text.includes(part));
	return [text, ...missing].join(' ');
}

/** An error's message with its advice (its description), as the user should read it wherever it is shown. */
export function userMessage(error: unknown): string {
	if (!(error instanceof Error)) return withAdvice(String(error), undefined);
	const { description } = error as { description?: unknown };
	return withAdvice(error.message, typeof description === 'string' ? description : undefined);
}

// Errors of a call that may have changed data on the service without the package knowing (no answer, a 5xx, an
// answer it cannot read after a success status).
const MAY_HAVE_APPLIED = new WeakSet<object>();

/** Whether the call that failed with `error` may have applied its change. */
export function mayHaveApplied(error: unknown): boolean {
	return typeof error === 'object' && error !== null && MAY_HAVE_APPLIED.has(error);
}

// remove_handler errors that prove the service does not know the handler (transport/index.ts reads them).
const HANDLER_UNKNOWN = new WeakSet<object>();

/** Whether a remove_handler error proves the handler gone: the service said it does not know it. */
export function saysHandlerUnknown(error: unknown): boolean {
	return typeof error === 'object' && error !== null && HANDLER_UNKNOWN.has(error);
}

/**
 * A remove_handler 404 read beside the answer of the path next to it that nothing serves: `proof` says why the service
 * does not know the handler, or `doubt` why nothing shows it (then the handler may still exist, said in the message).
 */
export function readRemovalNotFound(error: NodeApiError, reading: { proof: string } | { doubt: string }): NodeApiError {
	if ('proof' in reading) {
		HANDLER_UNKNOWN.add(error);
		error.description = withAdvice(`The service does not know this handler: ${reading.proof}. It is gone already, or the ID is wrong.`, error.description?.replace(NOT_FOUND_ADVICE, ''));
		return error;
	}
	const doubt = `Nothing shows that the service does not know the handler: ${reading.doubt}. The handler may still exist: check the Base URL.`;
	error.description = withAdvice(doubt, error.description?.replace(NOT_FOUND_ADVICE, ''));
	error.message = withAdvice(error.message, doubt);
	return error;
}

/** A remove_handler refusal whose reason says the handler is unknown. */
export function refusalOfUnknownHandler(error: NodeApiError): NodeApiError {
	HANDLER_UNKNOWN.add(error);
	return error;
}

function doubtful(error: NodeApiError): NodeApiError {
	MAY_HAVE_APPLIED.add(error);
	error.message = withAdvice(error.message, error.description);
	return error;
}

function withServiceWords(conclusion: string, said: string | undefined): string {
	const words = said?.trim() ?? '';
	return words === '' ? `${conclusion}.` : `${conclusion}. The service said: ${words}${/[.!?…]$/.test(words) ? '' : '.'}`;
}

/** A status's name, which some services put in `overview`, says nothing more. */
const STATUS_NAMES = new Set([
	'bad request', 'unauthorized', 'forbidden', 'not found', 'method not allowed', 'conflict', 'payload too large',
	'unprocessable entity', 'too many requests', 'internal server error', 'bad gateway', 'service unavailable',
	'gateway timeout', 'request error', 'server error', 'error',
]);

function saysMoreThanStatus(overview: string | undefined): overview is string {
	return overview !== undefined && !STATUS_NAMES.has(overview.trim().replace(/\.$/, '').toLowerCase());
}

type ErrorContext = { node: INode; endpoint: Endpoint; itemIndex?: number; accessToken?: unknown; now?: number };

/** `problem`: what arrived instead of an answer the node can read. */
export function apiErrorFromUnexpectedAnswer(problem: string, context: ErrorContext): NodeApiError {
	const { path, changesData } = ENDPOINTS[context.endpoint];
	const description = changesData
		? `The success status says the change was probably applied, ${CHECK_BEFORE_RERUN}`
		: 'This call only reads data; nothing was changed.';
	const message = `The service answered ${path} with ${problem}`;
	const error = new NodeApiError(context.node, { endpoint: path, unexpectedAnswer: problem }, { message, description, itemIndex: context.itemIndex });
	return changesData ? doubtful(error) : error;
}

function readingOf(status: number, endpoint: Endpoint): Reading {
	const { path, changesData } = ENDPOINTS[endpoint];
	if (status === 200) return [`The service refused ${path} with success: false`, 'Its success: false says the change was not made.'];
	const [conclusion, advice] = OPERATION_READINGS[endpoint]?.[status] ??
		STATUS_READINGS[status] ?? (status >= 500 ? STATUS_READINGS[500] : [`The service answered {status} to {path}`, '']);
	const fill = (text: string) => text.replace('{path}', path).replace('{status}', String(status));
	return [fill(conclusion), status >= 500 && changesData ? `It may have applied the change, ${CHECK_BEFORE_RERUN}` : fill(advice)];
}

export function apiErrorFromResponse(status: number, body: unknown, context: ErrorContext): NodeApiError {
	// The service may repeat a URL it was sent, password included.
	const serviceError = withoutUrlCredentialsDeep(readServiceError(body));
	const { message: said, overview, code, serviceTraceId, page } = serviceError;
	const expiry = status === 401 ? jwtExpiry(context.accessToken) : undefined;
	const expired = expiry !== undefined && expiry.getTime() <= (context.now ?? Date.now());
	const [conclusion, advice] = expired
		? [`The access token expired at ${expiry.toISOString()}`, 'Create a new token and put it in the credential.']
		: readingOf(status, context.endpoint);
	const message =
		page === true
			? `${conclusion}. The answer was a web page titled "${said}", from a gateway or proxy.`
			: withServiceWords(conclusion, said ?? overview);
	const fields = { ...serviceError, page: undefined, statusCode: status, endpoint: ENDPOINTS[context.endpoint].path };
	const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as JsonObject;
	const moreThanSaid = said !== undefined && saysMoreThanStatus(overview) && overview !== said ? overview.trim() : '';
	const codeText = code ? `The service's code: ${code}.` : '';
	const description = [moreThanSaid, advice, codeText, serviceTraceId ? `Trace id: ${serviceTraceId}.` : ''].filter(Boolean).join(' ');
	const error = new NodeApiError(context.node, defined, { message, description, httpCode: String(status), itemIndex: context.itemIndex });
	return status >= 500 && ENDPOINTS[context.endpoint].changesData ? doubtful(error) : error;
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT']);
// Not a host name such as "timeout.example".
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
		reason: withoutUrlCredentials(texts[0] ?? 'unknown network error'),
		timedOut: texts.some((text) => TIMEOUT_CODES.has(text) || TIMEOUT_WORDS.test(text)),
		// n8n 2.x's SSRF protection (SsrfBlockedIpError, SsrfBlockedHostnameError).
		refusedByN8n: [error.name, cause.name].some((name) => typeof name === 'string' && name.startsWith('SsrfBlocked')),
	};
}

export const SSRF_ADVICE =
	"n8n's SSRF protection refused it: nothing was sent. Add the host to N8N_SSRF_ALLOWED_HOSTNAMES (an IP address: to N8N_SSRF_ALLOWED_IP_RANGES) and restart n8n.";

export function apiErrorFromNetworkFailure(error: unknown, context: ErrorContext): NodeApiError {
	const { path, changesData } = ENDPOINTS[context.endpoint];
	const { reason, timedOut, refusedByN8n } = networkReason(error);
	const fields = { networkError: reason, endpoint: path, changesData, timedOut } as JsonObject;
	const { node, itemIndex } = context;
	if (refusedByN8n) return new NodeApiError(node, fields, { message: `${reason}: ${path} was not sent`, description: SSRF_ADVICE, itemIndex });
	// A low-level code (ECONNRESET...) in the message or `code` would make n8n show a generic text instead.
	const message = timedOut
		? `The service did not answer ${path} in time`
		: `The connection to the service was lost during ${path} before an answer arrived`;
	const description = changesData
		? `The service may or may not have applied this change, ${CHECK_BEFORE_RERUN}`
		: 'No answer came. This call only reads data: run it again.';
	const failure = new NodeApiError(node, fields, { message, description, itemIndex });
	return changesData ? doubtful(failure) : failure;
}
