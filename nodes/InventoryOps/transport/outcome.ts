import type { JsonObject } from 'n8n-workflow';

import { readServiceError, type ServiceError } from './answers';
import { ENDPOINTS, type Endpoint } from './endpoints';
import { appliedVerdict, jwtExpiry, networkVerdict, tokenVerdict, type Applied, type HandlerVerdict, type TokenVerdict } from './verdicts';
import { withoutUrlCredentialsDeep } from '../shared/redact';

/** Refused (a 4xx, a `success: false`) or failed (a 5xx) by the service or a gateway before it; not sent; sent and no answer; answered unreadably. */
export type FailureKind = 'refused' | 'failed' | 'notSent' | 'noAnswer' | 'unreadable';

/** How a call without a usable answer ended: built once, where the answer is read; render.ts words it. */
export interface Failure {
	readonly kind: FailureKind;
	/** What happened, as the user reads it first: one sentence. */
	readonly conclusion: string;
	/** The service's words, or a gateway page's title, as a sentence. */
	readonly said?: string;
	/** Only for a call that changes data. */
	readonly applied?: Applied;
	/** Only for remove_handler. */
	readonly handler?: HandlerVerdict;
	readonly advice: string;
	/** The rest of the answer: words beyond its message, the service's code and trace id, the rate-limit wait. */
	readonly notes?: readonly string[];
	/** The error's details; none when the node itself refused to send. */
	readonly details?: JsonObject;
	readonly status?: number;
	readonly itemIndex?: number;
}

export type Outcome<T = unknown> = { kind: 'answered'; body: T } | Failure;

export type CallContext = { endpoint: Endpoint; itemIndex?: number };

type Reading = [conclusion: string, advice: string];

// The service's `code` values are not known: a code is only quoted, the status read.
const STATUS_READINGS: Record<number, Reading> = {
	200: ['The service refused {path} with success: false', 'Its success: false says the change was not made.'],
	400: ['The service refused {path} as invalid (400)', 'Check the fields the service names.'],
	404: ['The service answered {path} with 404 (not found)', 'Check the identifiers sent and the Base URL.'],
	409: ['The service refused {path} as a conflict (409)', 'Check the request against the data on the service.'],
	429: ['The service is rate limiting (429), still after the retries allowed', 'Try again later, or lower Batch Size or Calls in Flight.'],
	500: ['The service failed ({status}) during {path}', 'This call only reads data: run it again later.'],
};

const TOKEN_READINGS: Record<TokenVerdict, Reading> = {
	expired: ['The access token expired at {expiry}', 'Create a new token and put it in the credential.'],
	refused: ['The service refused the access token ({status})', 'Check the Access Token in the credential.'],
	lacksScope: ['The access token lacks the permission (scope) {path} needs (403)', 'Use a token with that scope in the credential.'],
	notShown: [
		'{path} was refused ({status}), but not in the service\'s words',
		'A gateway or proxy may answer at that address: check the {field}, then the Access Token in the credential.',
	],
};

const OPERATION_READINGS: Partial<Record<Endpoint, Record<number, Reading>>> = {
	shipmentRestoreInventory: {
		404: [STATUS_READINGS[404][0], 'Check Store ID, Order Number, the shipment identifiers and the App Base URL.'],
		// A 409 is a refusal: the restore did not happen, whatever the body says.
		409: [
			'The service refused the restore as a conflict (409), so nothing was restored',
			'It may be already restored, or never have deducted stock: check the shipment in Inventory Ops.',
		],
	},
	kitCreate: { 409: [STATUS_READINGS[409][0], 'Its SKU may be used by another item or kit already.'] },
};

/** A status's name, which some services put in `overview`, says nothing more. */
const STATUS_NAMES = new Set([
	'bad request', 'unauthorized', 'forbidden', 'not found', 'method not allowed', 'conflict', 'payload too large',
	'unprocessable entity', 'too many requests', 'internal server error', 'bad gateway', 'service unavailable',
	'gateway timeout', 'request error', 'server error', 'error',
]);

const fieldOf = (endpoint: Endpoint) => (ENDPOINTS[endpoint].base === 'baseUrl' ? 'Base URL' : 'App Base URL');

function filled([conclusion, advice]: Reading, status: number, endpoint: Endpoint, accessToken: unknown): Reading {
	const values: Record<string, string> = {
		path: ENDPOINTS[endpoint].path, status: String(status), field: fieldOf(endpoint), expiry: jwtExpiry(accessToken)?.toISOString() ?? '',
	};
	const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name]);
	return [fill(conclusion), fill(advice)];
}

/** What a 401 or 403 shows about the token, for the node's calls and the credential test alike. */
export function tokenReading(verdict: TokenVerdict, status: number, endpoint: Endpoint, accessToken: unknown): Reading {
	return filled(TOKEN_READINGS[verdict], status, endpoint, accessToken);
}

function readingOf(status: number, endpoint: Endpoint, serviceError: ServiceError, accessToken: unknown): Reading {
	const token = tokenVerdict(status, serviceError, accessToken);
	if (token) return tokenReading(token, status, endpoint, accessToken);
	const reading = OPERATION_READINGS[endpoint]?.[status] ?? STATUS_READINGS[status] ?? (status >= 500 ? STATUS_READINGS[500] : ['The service answered {status} to {path}', '']);
	return filled(reading, status, endpoint, accessToken);
}

function saidSentence(words: string | undefined, page: boolean | undefined): string | undefined {
	const said = words?.trim() ?? '';
	if (page === true) return `The answer was a web page titled "${said}", from a gateway or proxy.`;
	return said === '' ? undefined : `The service said: ${said}${/[.!?…]$/.test(said) ? '' : '.'}`;
}

type AnswerContext = CallContext & { accessToken?: unknown; handler?: HandlerVerdict; notes?: string[] };

/** An answer with a failure status, or a 200 `success: false` (`status` 200). */
export function failureFromAnswer(status: number, body: unknown, context: AnswerContext): Failure {
	const { endpoint, itemIndex, handler } = context;
	const { path, changesData } = ENDPOINTS[endpoint];
	// The service may repeat a URL it was sent, password included.
	const serviceError = withoutUrlCredentialsDeep(readServiceError(body));
	const { message: said, overview, code, serviceTraceId, page } = serviceError;
	const [conclusion, advice] = readingOf(status, endpoint, serviceError, context.accessToken);
	const applied = appliedVerdict(changesData, true, status);
	const moreThanSaid = said !== undefined && overview !== undefined && overview !== said && !STATUS_NAMES.has(overview.trim().replace(/\.$/, '').toLowerCase());
	const notes = [code ? `The service's code: ${code}.` : '', serviceTraceId ? `Trace id: ${serviceTraceId}.` : ''];
	const fields = { ...serviceError, page: undefined, statusCode: status, endpoint: path };
	return {
		kind: status >= 500 ? 'failed' : 'refused',
		conclusion,
		said: saidSentence(said ?? overview, page),
		applied,
		handler,
		// A doubt or a verdict on the handler says what to check instead.
		advice: [moreThanSaid ? overview.trim() : '', applied === 'maybe' || handler?.evidence !== undefined ? '' : advice].filter(Boolean).join(' '),
		notes: [...notes, ...(context.notes ?? [])].filter(Boolean),
		details: Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as JsonObject,
		status,
		itemIndex,
	};
}

export const SSRF_ADVICE =
	"n8n's SSRF protection refused it: nothing was sent. Add the host to N8N_SSRF_ALLOWED_HOSTNAMES (an IP address: to N8N_SSRF_ALLOWED_IP_RANGES) and restart n8n.";

/** A failure before any answer: nothing sent, or sent and no answer. */
export function failureFromNetwork(error: unknown, { endpoint, itemIndex }: CallContext): Failure {
	const { path, changesData } = ENDPOINTS[endpoint];
	const { reason, sent, timedOut, refusedByN8n } = networkVerdict(error);
	const details = { networkError: reason, endpoint: path, changesData, sent, timedOut } as JsonObject;
	const applied = appliedVerdict(changesData, sent);
	if (!sent) {
		// A low-level code (ECONNREFUSED...) in the message would make n8n show a generic text instead.
		const conclusion = refusedByN8n ? `${reason}: ${path} was not sent` : `Could not connect to the service: ${path} was not sent`;
		const advice = refusedByN8n
			? SSRF_ADVICE
			: `Nothing was sent (${reason}), so nothing changed: check the ${fieldOf(endpoint)} in the credential, and that n8n can reach the service.`;
		return { kind: 'notSent', conclusion, applied, advice, details, itemIndex };
	}
	const conclusion = timedOut
		? `The service did not answer ${path} in time`
		: `The connection to the service was lost during ${path} before an answer arrived`;
	return { kind: 'noAnswer', conclusion, applied, advice: changesData ? '' : 'No answer came. This call only reads data: run it again.', details, itemIndex };
}

/** `problem`: what arrived, after a success status, instead of an answer the node can read. */
export function failureFromUnreadable(problem: string, { endpoint, itemIndex }: CallContext): Failure {
	const { path, changesData } = ENDPOINTS[endpoint];
	return {
		kind: 'unreadable',
		conclusion: `The service answered ${path} with ${problem}`,
		applied: appliedVerdict(changesData, true, 200, false),
		advice: changesData ? '' : 'This call only reads data; nothing was changed.',
		details: { endpoint: path, unexpectedAnswer: problem },
		itemIndex,
	};
}

/** The node's own refusal to send, with what to change. */
export function notSent(conclusion: string, advice: string, { endpoint, itemIndex }: CallContext): Failure {
	return { kind: 'notSent', conclusion, applied: appliedVerdict(ENDPOINTS[endpoint].changesData, false), advice, itemIndex };
}
