import { readServiceError, type ServiceError } from './answers';
import { NOWHERE, pathBeside } from './urls';
import { isPlainObject } from '../shared/objects';
import { withoutUrlCredentials } from '../shared/redact';

// One table per question the package answers about a call, evidence -> verdict; test/transport/verdicts.test.js
// runs every row.

/** Was anything sent? Read from a failure before any answer. */
export type NetworkVerdict = { reason: string; sent: boolean; timedOut: boolean; refusedByN8n: boolean };

// Codes of failures before a request leaves: a name that does not resolve, nothing listening, no route, a certificate
// refused during the handshake.
const NOTHING_SENT = new Set([
	'ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL', 'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const TIMED_OUT = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED']);
// n8n may keep only the client's message. Not a host name such as "timeout.example".
const TIMEOUT_WORDS = /\btimeout of \d+ ?ms exceeded\b|\btimed out\b/i;

/** n8n wraps the client's error under a generic message, so the cause is read first. */
export function networkVerdict(error: unknown): NetworkVerdict {
	const failure = isPlainObject(error) ? error : {};
	const cause = isPlainObject(failure.cause) ? failure.cause : {};
	const messages = Array.isArray(failure.messages) ? failure.messages : [];
	const texts = [cause.code, failure.code, failure.httpCode, ...messages, cause.message, failure.message].filter(
		(text): text is string => typeof text === 'string' && text !== '' && !/^\d+$/.test(text),
	);
	const words = texts.flatMap((text) => text.split(/[^A-Z0-9_]+/));
	// n8n 2.x's SSRF protection (SsrfBlockedIpError, SsrfBlockedHostnameError).
	const refusedByN8n = [failure.name, cause.name].some((name) => typeof name === 'string' && name.startsWith('SsrfBlocked'));
	return {
		reason: withoutUrlCredentials(texts[0] ?? 'unknown network error'),
		sent: !refusedByN8n && !words.some((word) => NOTHING_SENT.has(word)),
		timedOut: words.some((word) => TIMED_OUT.has(word)) || texts.some((text) => TIMEOUT_WORDS.test(text)),
		refusedByN8n,
	};
}

/** May the change have been applied? Only for a call that changes data. */
export type Applied = 'no' | 'maybe' | 'probably';

/** `status`: the answer's, when one came; a 5xx may come after the change was made. */
export function appliedVerdict(changesData: boolean, sent: boolean, status?: number, readable = true): Applied | undefined {
	if (!changesData) return undefined;
	if (!sent) return 'no';
	if (status === undefined || status >= 500) return 'maybe';
	return readable ? 'no' : 'probably';
}

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

/** `notShown`: a 401 or 403 that does not show the service refusing the token (a gateway's page, a path nothing serves). */
export type TokenVerdict = 'expired' | 'refused' | 'lacksScope' | 'notShown';

export function tokenVerdict(status: number, said: ServiceError, token: unknown, atUnservedPath = false): TokenVerdict | undefined {
	if (status !== 401 && status !== 403) return undefined;
	const expiry = jwtExpiry(token);
	// The token's own expiry proves it, whoever answered.
	if (status === 401 && expiry !== undefined && expiry.getTime() <= Date.now()) return 'expired';
	if (said.page === true || atUnservedPath) return 'notShown';
	return status === 401 ? 'refused' : 'lacksScope';
}

export type Answered = { statusCode: number; headers: Record<string, unknown>; body?: unknown };

/**
 * The answer of the path beside `url`, which nothing serves, so the request changes nothing.
 * `compared` unless it is none, a 429 or a 5xx, which say nothing about the path; `same` as `answer`: the same status,
 * web page or not, code and message, once its last segment is read as `url`'s; `namesPath`: the same, naming the path.
 */
export type Beside = { url: string; status?: number; compared: boolean; same: boolean; namesPath: boolean };

export async function compareBeside(url: string, answer: Answered, send: (url: string) => Promise<Answered | undefined>): Promise<Beside> {
	const besideUrl = pathBeside(url);
	const beside = await send(besideUrl).catch(() => undefined);
	const seen = { url: besideUrl, status: beside?.statusCode };
	if (beside === undefined || beside.statusCode === 429 || beside.statusCode >= 500) return { ...seen, compared: false, same: false, namesPath: false };
	const fingerprint = ({ statusCode, body }: Answered) => {
		const { page, code, message } = readServiceError(body);
		return JSON.stringify([statusCode, page, code, message]);
	};
	const theirs = fingerprint(beside);
	const same = theirs.split(NOWHERE).join(url.slice(url.lastIndexOf('/') + 1)) === fingerprint(answer);
	return { ...seen, compared: true, same, namesPath: same && theirs.includes(NOWHERE) };
}

export function besideAnswered({ url, status, compared, same }: Beside): string {
	const answered = !compared ? `${status ?? 'nothing'} (nothing to compare with)` : same ? 'the same' : `differently (${status})`;
	return `${withoutUrlCredentials(url)}, a path nothing serves, answered ${answered}`;
}

/** Is the handler gone? `evidence`: the proof, or why nothing shows it (then `check`: what the user should). */
export type HandlerVerdict = { gone: boolean; evidence?: string; check?: string };

// Words of a refusal that name the handler as unknown: the service's codes are not known.
const UNKNOWN_HANDLER = /not[\s_-]?found|unknown|no such|does not exist/i;

/** A remove_handler 200 `success: false`. */
export function refusalHandlerVerdict({ code, message }: ServiceError): HandlerVerdict {
	const words = [code, message].filter(Boolean).join(': ');
	if (words === '') return { gone: false, evidence: 'the service refused without a reason', check: 'check the handler in Inventory Ops.' };
	return UNKNOWN_HANDLER.test(words) ? { gone: true, evidence: 'its refusal says so' } : { gone: false };
}

/**
 * A remove_handler 404: proof only in words that differ from the answer of the path beside it, which nothing serves (a
 * wrong Base URL's or a gateway's "no such path" is the same at both).
 */
export async function notFoundHandlerVerdict(url: string, answer: Answered, send: (url: string) => Promise<Answered>): Promise<HandlerVerdict> {
	const { page, message, code } = readServiceError(answer.body);
	const doubt = (why: string): HandlerVerdict => ({ gone: false, evidence: why, check: 'check the Base URL.' });
	if (page === true) return doubt('the answer was a web page, as a gateway gives for any path it does not know');
	if (message === undefined && code === undefined) return doubt('the answer gave no reason');
	const beside = await compareBeside(url, answer, send);
	return beside.compared && !beside.same ? { gone: true, evidence: besideAnswered(beside) } : doubt(besideAnswered(beside));
}
