import type { JsonObject } from 'n8n-workflow';

import { isServiceErrorShape, readServiceError, type ServiceError } from './answers';
import { ENDPOINTS, type Endpoint } from './endpoints';
import type { RateLimitGate } from './rateLimit';
import {
	appliedVerdict,
	besideAnswered,
	jwtExpiry,
	networkVerdict,
	tokenVerdict,
	type Applied,
	type Beside,
	type HandlerVerdict,
	type TokenVerdict,
} from './verdicts';
import { withoutUrlCredentials, withoutUrlCredentialsDeep } from '../shared/redact';

/**
 * How a call without a usable answer ended: built once, where the answer is read; render.ts words
 * it.
 */
export interface Failure {
	/**
	 * Refused (a 4xx, a `success: false`) or failed (a 5xx), by the service or a gateway; not sent;
	 * no answer; unreadable.
	 */
	readonly kind: 'refused' | 'failed' | 'notSent' | 'noAnswer' | 'unreadable';
	/** What happened, as the user reads it first: one sentence. */
	readonly conclusion: string;
	/** The service's words, or a gateway page's title, as a sentence. */
	readonly said?: string;
	/** Only for a call that changes data. */
	readonly applied?: Applied;
	/** Only for remove_handler. */
	readonly handler?: HandlerVerdict;
	readonly advice: string;
	/**
	 * The rest of the answer: words beyond its message, the service's code and trace id, the
	 * rate-limit wait.
	 */
	readonly notes?: readonly string[];
	/** The error's details; none when the node itself refused to send. */
	readonly details?: JsonObject;
	readonly status?: number;
	readonly itemIndex?: number;
}

/**
 * `at`: where a credential test sent its request (which changes nothing), shown without a password.
 */
export type CallContext = { endpoint: Endpoint; itemIndex?: number; at?: string };

type Reading = [conclusion: string, advice: string];

// The service's `code` values are not known: a code is only quoted, the status read.
const STATUS_READINGS: Record<number, Reading> = {
	200: [
		'The service refused {path} with success: false',
		'Its success: false says the change was not made.',
	],
	400: ['The service refused {path} as invalid (400)', 'Check the fields the service names.'],
	404: [
		'The service answered {path} with 404 (not found)',
		'Check the identifiers sent and the Base URL.',
	],
	409: [
		'The service refused {path} as a conflict (409)',
		'Check the request against the data on the service.',
	],
	429: [
		'The service is rate limiting (429), still after the retries allowed',
		'Try again later, or lower Batch Size or Calls in Flight.',
	],
	500: [
		'The service failed ({status}) during {path}',
		'This call only reads data: run it again later.',
	],
};

const TOKEN_READINGS: Record<TokenVerdict, Reading> = {
	expired: [
		'The access token expired at {expiry}',
		'Create a new token and put it in the credential.',
	],
	refused: [
		'The service refused the access token ({status})',
		'Check the Access Token in the credential.',
	],
	lacksScope: [
		'The access token lacks the permission (scope) {path} needs (403)',
		'Use a token with that scope in the credential.',
	],
	// {beside}: a credential test's answer the same as that of a path nothing serves (its App Base
	// URL's check is at one).
	notShown: [
		'The access token is not confirmed: {path} answered {status}{beside}, not the service refusing it',
		'A gateway or proxy may answer at that address: check the {field}, then the Access Token in the credential.',
	],
};

const OPERATION_READINGS: Partial<Record<Endpoint, Record<number, Reading>>> = {
	shipmentRestoreInventory: {
		404: [
			STATUS_READINGS[404][0],
			'Check Store ID, Order Number, the shipment identifiers and the App Base URL.',
		],
		// A 409 is a refusal: the restore did not happen, whatever the body says.
		409: [
			'The service refused the restore as a conflict (409), so nothing was restored',
			'It may be already restored, or never have deducted stock: check the shipment in Inventory Ops.',
		],
	},
	kitCreate: {
		409: [STATUS_READINGS[409][0], 'Its SKU may be used by another item or kit already.'],
	},
};

/** A status's name, which some services put in `overview`, says nothing more. */
const STATUS_NAMES = new Set([
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

const BASE_ADDRESS =
	"Use your account's API address (usually ending in /api), without the operation path.";

// A credential test's: its requests change nothing, and {beside} compares an answer with the path
// beside's.
const CHECK_READINGS = {
	rateLimited: [
		'The service is rate limiting (429) {path}, still after the retries allowed',
		'Test again soon: this says nothing about the credential.',
	],
	wrongAddress: [
		'Wrong Base URL: {path} answered {status}{beside}, naming the path: the service has no order lookup there',
		BASE_ADDRESS,
	],
	notJson: [
		"Wrong Base URL: {path} answered {status} with text, not the service's JSON",
		BASE_ADDRESS,
	],
	works: ['The access token works: the service accepted an empty order lookup at {path}', ''],
	serves: [
		'Something at the Base URL serves the order lookup: {path} answered {status}{beside}',
		'It refused an empty lookup, so the access token is not confirmed.',
	],
	unconfirmed: [
		'Could not confirm the Base URL or the access token: {path} answered {status}{beside}',
		"If the node's calls fail, check the Base URL.",
	],
	appAnswers: [
		'The App Base URL answers and did not refuse the access token: {path}, a path beside the restore path that no operation serves, answered {status}{shape}',
		'Only a first real restore proves that restores work there: the test sends none, since a restore changes data.',
	],
	appUnseen: [
		'The App Base URL could not be checked: {path}, a path beside the restore path that no operation serves, answered {status}, which a gateway gives for a path it does not route, or a rate limit',
		'The first restore proves the App Base URL; if it fails there, its error says what to check.',
	],
} satisfies Record<string, Reading>;

const APP_DOUBT =
	'If the credential test passed, it proved the token at the Base URL only: check the App Base URL too, since a gateway there answers so for an address it does not route.';

export const SAME_ADDRESS_NOTE =
	"It is the same address as the Base URL: an account's App Base URL usually differs, ending in /s.";

/**
 * The wait for 429s before an answer, of the wait allowed, and a last Retry-After (perhaps too long
 * to wait for).
 */
export function waitNotes({ waitedMs, policy }: RateLimitGate, retryAfter?: unknown): string[] {
	const asked =
		typeof retryAfter === 'string' ? `; the service asked for Retry-After: ${retryAfter}` : '';
	const [waited, allowed] = [waitedMs, policy.maxTotalWaitMs].map(
		(ms) => Math.round(ms / 100) / 10,
	);
	return waitedMs > 0 || asked
		? [`Rate limited (429): waited ${waited} s of the ${allowed} s allowed${asked}.`]
		: [];
}

function callOf({ endpoint, at }: CallContext) {
	const { path, base, changesData } = ENDPOINTS[endpoint];
	return {
		path: at === undefined ? path : withoutUrlCredentials(at),
		changesData: changesData && at === undefined,
		field: base === 'baseUrl' ? 'Base URL' : 'App Base URL',
	};
}

/** `unserved`: sent to a path nothing serves, or answered as one (a credential test's). */
type AnswerContext = CallContext & {
	accessToken?: unknown;
	handler?: HandlerVerdict;
	notes?: string[];
	reading?: keyof typeof CHECK_READINGS;
	beside?: Beside;
	unserved?: boolean;
};

function readingOf(status: number, context: AnswerContext, serviceError: ServiceError): Reading {
	if (context.reading) return CHECK_READINGS[context.reading];
	const token = tokenVerdict(status, serviceError, context.accessToken, context.unserved);
	if (token) {
		// The credential test proves the token at the Base URL only, and passes without seeing past a
		// gateway here.
		const [conclusion, advice] = TOKEN_READINGS[token];
		const atApp = !context.at && ENDPOINTS[context.endpoint].base === 'appBaseUrl';
		return [conclusion, atApp && token !== 'expired' ? `${advice} ${APP_DOUBT}` : advice];
	}
	return (
		OPERATION_READINGS[context.endpoint]?.[status] ??
		STATUS_READINGS[status] ??
		(status >= 500 ? STATUS_READINGS[500] : ['The service answered {status} to {path}', ''])
	);
}

function saidSentence(words: string | undefined, page: boolean | undefined): string | undefined {
	const said = words?.trim() ?? '';
	if (page === true) return `The answer was a web page titled "${said}", from a gateway or proxy.`;
	return said === '' ? undefined : `The service said: ${said}${/[.!?…]$/.test(said) ? '' : '.'}`;
}

/** An answer with a failure status, or a 200 `success: false` (`status` 200). */
export function failureFromAnswer(status: number, body: unknown, context: AnswerContext): Failure {
	const { endpoint, itemIndex, handler } = context;
	const { path, changesData, field } = callOf(context);
	// The service may repeat a URL it was sent, password included.
	const { page, ...serviceError } = withoutUrlCredentialsDeep(readServiceError(body));
	const { message: said, overview, code, serviceTraceId } = serviceError;
	const values = {
		path,
		field,
		status: String(status),
		expiry: jwtExpiry(context.accessToken)?.toISOString() ?? '',
		beside: context.beside ? `; ${besideAnswered(context.beside)}` : '',
		shape: isServiceErrorShape(body) ? " in the service's error shape" : '',
	};
	const [conclusion, advice] = readingOf(status, context, { ...serviceError, page }).map((text) =>
		text.replace(/\{(\w+)\}/g, (_, name: keyof typeof values) => values[name]),
	);
	const applied = appliedVerdict(changesData, true, status);
	const moreThanSaid =
		said !== undefined &&
		overview !== undefined &&
		overview !== said &&
		!STATUS_NAMES.has(overview.trim().replace(/\.$/, '').toLowerCase());
	const notes = [
		code ? `The service's code: ${code}.` : '',
		serviceTraceId ? `Trace id: ${serviceTraceId}.` : '',
		...(context.notes ?? []),
	];
	return {
		kind: status >= 500 ? 'failed' : 'refused',
		conclusion,
		said: saidSentence(said ?? overview, page),
		applied,
		handler,
		// A doubt or a verdict on the handler says what to check instead.
		advice: [
			moreThanSaid ? overview.trim() : '',
			applied === 'maybe' || handler?.evidence !== undefined ? '' : advice,
		]
			.filter(Boolean)
			.join(' '),
		notes: notes.filter(Boolean),
		details: {
			...serviceError,
			statusCode: status,
			endpoint: ENDPOINTS[endpoint].path,
		} as JsonObject,
		status,
		itemIndex,
	};
}

/** A credential test's check that passed: what it proves, read and worded as a failure is. */
export type Passed = Omit<Failure, 'kind'> & { kind: 'passed' };

export function passedCheck(
	reading: keyof typeof CHECK_READINGS,
	status: number,
	body: unknown,
	context: AnswerContext,
): Passed {
	return { ...failureFromAnswer(status, body, { ...context, reading }), kind: 'passed' };
}

export function failureFromNetwork(error: unknown, context: CallContext): Failure {
	const { path, changesData, field } = callOf(context);
	const { reason, sent, timedOut, refusedByN8n } = networkVerdict(error);
	const details = {
		networkError: reason,
		endpoint: ENDPOINTS[context.endpoint].path,
		changesData,
		sent,
		timedOut,
	} as JsonObject;
	const failure = {
		applied: appliedVerdict(changesData, sent),
		details,
		itemIndex: context.itemIndex,
	};
	if (!sent) {
		// A low-level code (ECONNREFUSED...) in the message would make n8n show a generic text instead.
		const conclusion = refusedByN8n
			? `${reason}: ${path} was not sent`
			: `Could not connect to the service: ${path} was not sent`;
		const advice = refusedByN8n
			? "n8n's SSRF protection refused it: nothing was sent. Add the host to N8N_SSRF_ALLOWED_HOSTNAMES (an IP address: to N8N_SSRF_ALLOWED_IP_RANGES) and restart n8n."
			: `Nothing was sent (${reason}), so nothing changed: check the ${field} in the credential, and that n8n can reach the service.`;
		return { kind: 'notSent', conclusion, advice, ...failure };
	}
	const conclusion = timedOut
		? `The service did not answer ${path} in time`
		: `The connection to the service was lost during ${path} before an answer arrived`;
	const advice = context.at
		? `No answer came (${reason}): check the ${field}, and that n8n can reach the service.`
		: 'No answer came. This call only reads data: run it again.';
	return { kind: 'noAnswer', conclusion, advice: changesData ? '' : advice, ...failure };
}

/** `problem`: what arrived, after a success status, instead of an answer the node can read. */
export function failureFromUnreadable(
	problem: string,
	{ endpoint, itemIndex }: CallContext,
): Failure {
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

/**
 * An address that is not http(s), so nothing can be sent; `context`: the node's call, none for a
 * credential test.
 */
export function notAnAddress(
	field: 'Base URL' | 'App Base URL',
	got: string,
	context?: CallContext,
): Failure {
	const what = got === '' ? 'empty' : `"${withoutUrlCredentials(got)}", not an http(s) address`;
	const forItem = context?.itemIndex === undefined ? '' : ` for item ${context.itemIndex}`;
	const to = context ? ` to ${ENDPOINTS[context.endpoint].path}` : '';
	// An expression n8n cannot resolve for the item leaves the field empty.
	const perItem = forItem && ' If it is an expression, it must give that address for every item.';
	const example = `https://inventory.example.com/${field === 'Base URL' ? 'api' : 's'}`;
	const advice = `Set ${field} in the credential to the service's https:// (or http://) address, for example ${example}.${perItem}`;
	return notSent(
		`The credential's ${field} is ${what}${forItem}: nothing was sent${to}`,
		advice,
		context,
	);
}

export function notSent(conclusion: string, advice: string, context?: CallContext): Failure {
	const applied = context && appliedVerdict(ENDPOINTS[context.endpoint].changesData, false);
	return { kind: 'notSent', conclusion, applied, advice, itemIndex: context?.itemIndex };
}
