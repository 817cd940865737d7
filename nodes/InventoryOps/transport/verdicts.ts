import { readServiceError, type ServiceError } from './answers';
import { NOWHERE, pathBeside } from './urls';
import { isPlainObject } from '../shared/objects';
import { withoutUrlCredentials } from '../shared/redact';

// One table per question the package answers about a call, evidence -> verdict;
// test/transport/verdicts.test.js runs every row.

// Codes of failures before a request leaves: a name that does not resolve, nothing listening, no
// route, a certificate refused during the handshake.
const NOTHING_SENT = new Set([
	'ENOTFOUND',
	'EAI_AGAIN',
	'ECONNREFUSED',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_INVALID_URL',
	'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const TIMED_OUT = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED']);
// n8n may keep only the client's message. Not a host name such as "timeout.example".
const TIMEOUT_WORDS = /\btimeout of \d+ ?ms exceeded\b|\btimed out\b/i;

/**
 * Was anything sent? Read from a failure before any answer; n8n wraps the client's error, so its
 * cause first.
 */
export function networkVerdict(error: unknown) {
	const failure = isPlainObject(error) ? error : {};
	const cause = isPlainObject(failure.cause) ? failure.cause : {};
	const messages = Array.isArray(failure.messages) ? failure.messages : [];
	const texts = [
		cause.code,
		failure.code,
		failure.httpCode,
		...messages,
		cause.message,
		failure.message,
	].filter(
		(text): text is string => typeof text === 'string' && text !== '' && !/^\d+$/.test(text),
	);
	const words = texts.flatMap((text) => text.split(/[^A-Z0-9_]+/));
	// n8n 2.x's SSRF protection (SsrfBlockedIpError, SsrfBlockedHostnameError).
	const refusedByN8n = [failure.name, cause.name].some(
		(name) => typeof name === 'string' && name.startsWith('SsrfBlocked'),
	);
	return {
		reason: withoutUrlCredentials(texts[0] ?? 'unknown network error'),
		sent: !refusedByN8n && !words.some((word) => NOTHING_SENT.has(word)),
		timedOut:
			words.some((word) => TIMED_OUT.has(word)) || texts.some((text) => TIMEOUT_WORDS.test(text)),
		refusedByN8n,
	};
}

/** May the change have been applied? Only for a call that changes data. */
export type Applied = 'no' | 'maybe' | 'probably';

/**
 * `status`: the answer's, when one came; a 5xx may come after the change was made, and a 1xx ends
 * nothing.
 */
export function appliedVerdict(
	changesData: boolean,
	sent: boolean,
	status?: number,
	readable = true,
): Applied | undefined {
	if (!changesData) return undefined;
	if (!sent) return 'no';
	if (status === undefined || status < 200 || status >= 500) return 'maybe';
	return readable ? 'no' : 'probably';
}

/** Unverified; undefined when the token is not a readable JWT. */
export function jwtExpiry(token: unknown): Date | undefined {
	if (typeof token !== 'string') return undefined;
	const parts = token.split('.');
	try {
		const payload: unknown =
			parts.length === 3 && JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
		if (isPlainObject(payload) && typeof payload.exp === 'number')
			return new Date(payload.exp * 1000);
	} catch {
		// Not a JWT.
	}
	return undefined;
}

/**
 * `notShown`: a 401 or 403 that does not show the service refusing the token (a gateway's page, a
 * path nothing serves).
 */
export type TokenVerdict = 'expired' | 'refused' | 'lacksScope' | 'notShown';

export function tokenVerdict(
	status: number,
	said: ServiceError,
	token: unknown,
	atUnservedPath = false,
): TokenVerdict | undefined {
	if (status !== 401 && status !== 403) return undefined;
	const expiry = jwtExpiry(token);
	// The token's own expiry proves it, whoever answered.
	if (status === 401 && expiry !== undefined && expiry.getTime() <= Date.now()) return 'expired';
	if (said.page === true || atUnservedPath) return 'notShown';
	return status === 401 ? 'refused' : 'lacksScope';
}

export type Answered = { statusCode: number; headers: Record<string, unknown>; body?: unknown };

// A token holding a digit (an id, a trace id, a time) tells nothing about what kind of answer it
// is.
const DIGIT_TOKENS = /[\w-]*\d[\w-]*/g;

/**
 * The answer of the path beside `url`, which nothing serves, so the request changes nothing.
 * `compared` unless it is none, a 429 or a 5xx, which say nothing about the path; `same` as
 * `answer`: the same status, web page or not, code and message, once its last segment is read as
 * `url`'s; `namesPath`: the same, naming the path.
 */
export type Beside = {
	url: string;
	status?: number;
	compared: boolean;
	same: boolean;
	namesPath: boolean;
};

export async function compareBeside(
	url: string,
	answer: Answered,
	send: (url: string) => Promise<Answered | undefined>,
): Promise<Beside> {
	const besideUrl = pathBeside(url);
	const beside = await send(besideUrl).catch(() => undefined);
	const seen = { url: besideUrl, status: beside?.statusCode };
	if (beside === undefined || beside.statusCode === 429 || beside.statusCode >= 500)
		return { ...seen, compared: false, same: false, namesPath: false };
	const segment = url.slice(url.lastIndexOf('/') + 1);
	// Its words naming its own path read as naming `url`'s; the digit tokens masked in both.
	const words = ({ body }: Answered) =>
		JSON.stringify(readServiceError(body), ['page', 'code', 'message']);
	const fingerprint = (of: Answered) =>
		`${of.statusCode} ${words(of).split(NOWHERE).join(segment).replace(DIGIT_TOKENS, '#')}`;
	const same = fingerprint(beside) === fingerprint(answer);
	return { ...seen, compared: true, same, namesPath: same && words(beside).includes(NOWHERE) };
}

export function besideAnswered({ url, status, compared, same }: Beside): string {
	const answered = !compared
		? `${status ?? 'nothing'} (nothing to compare with)`
		: same
			? 'the same'
			: `differently (${status})`;
	return `${withoutUrlCredentials(url)}, a path nothing serves, answered ${answered}`;
}

/** Is the handler gone? `evidence`: the proof, or why nothing shows it; `learnt`: a probe's. */
export type HandlerVerdict = { gone: boolean; evidence?: string; learnt?: UnknownIdAnswer };

/** The service's answer to an id it does not know, learnt at the remove_handler URL `at`. */
export type UnknownIdAnswer = { at: string; fingerprint: string };

// Never proof, whatever the body says: a refusal of access, a rate limit, a redirect, a failure.
const PROOFLESS = /^[135]\d\d$|^40[13]$|^429$/;

/** Status, shape, code and message, with the id sent and the digit tokens masked. */
export function fingerprintOf({ statusCode, body }: Answered, id: string): string {
	const { code, message } = readServiceError(body);
	const object = isPlainObject(body) ? body : {};
	const fields = [object, isPlainObject(object.error) ? object.error : {}].map((of) =>
		Object.keys(of).sort().join(),
	);
	const masked = [code, message].map((text) =>
		text?.replaceAll(id, '{id}').replace(DIGIT_TOKENS, '#'),
	);
	return JSON.stringify([statusCode, typeof body, ...fields, ...masked]);
}

/**
 * remove_handler's: the id sent, the answer that proves a handler gone, or `learn` it (a probe).
 */
export type RemovalContext = {
	id: string;
	known?: UnknownIdAnswer;
	learn?: boolean;
	send: (url: string) => Promise<Answered>;
};

/**
 * Gone only on proof: the answer is the service's to an id it cannot know, learnt at the same URL,
 * and a path nothing serves answers otherwise (else a catch-all, a deploy's or a gateway's, may
 * give both). Words may tell two answers apart, never make one proof. `learn`: a probe's answer,
 * kept unless a never-proof row holds. A proofless status's own reading says what happened.
 */
export async function handlerVerdict(
	url: string,
	answer: Answered,
	{ id, known, learn, send }: RemovalContext,
): Promise<HandlerVerdict> {
	const { page, code, message } = readServiceError(answer.body);
	const doubt = (evidence: string): HandlerVerdict => ({ gone: false, evidence });
	if (PROOFLESS.test(String(answer.statusCode))) return { gone: false };
	if (page === true)
		return doubt('the answer was a web page, as a gateway gives for any path it does not know');
	if (code === undefined && message === undefined)
		return doubt('the answer held nothing to tell it apart');
	const [at, fingerprint] = [withoutUrlCredentials(url), fingerprintOf(answer, id)];
	if (!learn && known?.at !== at)
		return doubt('no answer to an unknown id is learnt at this Base URL yet');
	if (!learn && known?.fingerprint !== fingerprint)
		return doubt('it is not the answer to an unknown id');
	const beside = await compareBeside(url, answer, send);
	if (!beside.compared || beside.same) return doubt(besideAnswered(beside));
	if (learn) return { gone: false, learnt: { at, fingerprint } };
	return {
		gone: true,
		evidence: `it is the answer to an unknown id, and ${besideAnswered(beside)}`,
	};
}
