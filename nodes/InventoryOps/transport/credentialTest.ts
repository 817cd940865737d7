import type {
	IDataObject,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { readServiceError } from './answers';
import { ENDPOINTS } from './endpoints';
import { jwtExpiry, networkReason, SSRF_ADVICE } from './errors';
import { RateLimitGate, type RetryPolicy } from './rateLimit';
import { isHttpUrl, joinUrl } from './url';
import { withoutUrlCredentials } from '../shared/redact';

/**
 * The credential dialog's Test button waits for this: a transient 429 is retried (the service did nothing), but
 * only for a few seconds, so the dialog never hangs; a longer Retry-After is reported instead of waited for.
 */
const CREDENTIAL_TEST_RETRY_POLICY: RetryPolicy = { maxRetries: 3, maxTotalWaitMs: 5_000, baseDelayMs: 500 };

const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

/** The last segment of a path beside each operation's, one that no service serves. */
const NOWHERE = 'no-such-operation-n8n-credential-test';

type LegacyFullResponse = { statusCode: number; headers?: Record<string, unknown>; body?: unknown };

type Answer = { response: LegacyFullResponse } | { error: unknown };

/** What the calls of one test share: n8n's request helper, the token, the 429 gate and the 429s it met. */
type Session = { helpers: ICredentialTestFunctions['helpers']; token: unknown; gate: RateLimitGate; tries: number };

/** One check: the address it tests (the App Base URL or the Base URL), its operation's URL and read-only body. */
type Check = { app: boolean; url: string; shown: string; body: IDataObject };

const ok = (message: string): INodeCredentialTestResult => ({ status: 'OK', message });
const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** What the service said, quoted after the sentence it explains; nothing for a web page (a gateway's, not its words). */
function serviceSays(body: unknown): string {
	const { message, code, page } = readServiceError(body);
	const text = [code, message].filter(Boolean).join(': ');
	return text === '' || page === true ? '' : ` The service said: ${withoutUrlCredentials(text).replace(/\.+$/, '')}.`;
}

/** An answer's status, with a web page's title (never its markup). */
function described({ statusCode, body }: LegacyFullResponse): string {
	const { message, page } = readServiceError(body);
	return page === true ? `${statusCode} with a web page titled "${message}"` : String(statusCode);
}

/** `said`: what the service said (serviceSays), after the sentence it explains. */
function wrong({ app, shown }: Check, what: string, said = ''): INodeCredentialTestResult {
	return failed(
		app
			? `Wrong App Base URL: ${shown} ${what}.${said} The App Base URL is the address your Inventory Ops account uses for shipping (it usually ends in /s), without the operation path. The Base URL and the access token work.`
			: `Wrong Base URL: ${shown} ${what}.${said} The Base URL is the API address your Inventory Ops account uses (it usually ends in /api), without the operation path.`,
	);
}

function unanswered(check: Check, error: unknown): INodeCredentialTestResult {
	const { reason, timedOut, refusedByN8n } = networkReason(error);
	if (refusedByN8n) return failed(`${withoutUrlCredentials(reason)} (${check.shown}). ${SSRF_ADVICE}`);
	return timedOut
		? failed(`No answer from ${check.shown} within ${seconds(CREDENTIAL_TEST_TIMEOUT_MS)}: check the ${check.app ? 'App ' : ''}Base URL, and that the service can be reached from n8n.`)
		: wrong(check, `could not be reached (${withoutUrlCredentials(reason)}): no service answers there, or it is down`);
}

/** What the lookup's answer proves alone, or undefined: then only a comparison can tell. */
function lookUpVerdict(check: Check, session: Session, response: LegacyFullResponse): INodeCredentialTestResult | undefined {
	const { statusCode: status, body } = response;
	const { tries, gate } = session;
	// The status first: a gateway may answer 401, 403 or 429 with its own page, and they mean the same.
	if (status === 401) {
		const expiry = jwtExpiry(session.token);
		const expired = expiry !== undefined && expiry.getTime() <= Date.now();
		return failed(
			expired
				? `The access token expired at ${expiry.toISOString()} (401). Create a new token and paste it into Access Token.`
				: `The service refused the access token (401): it is missing, mistyped, revoked or not issued for this service. Check Access Token.${serviceSays(body)}`,
		);
	}
	if (status === 403) {
		return failed(
			`The access token is valid, but the service refused it the permission (scope) the order lookup needs (403). Ask for a token with the scopes for orders, kits, shipments and webhook handlers (API keys usually hold platformGeneric and platformApi).${serviceSays(body)}`,
		);
	}
	if (status === 429) {
		return failed(
			`The service is rate limiting (429) and still was after ${tries} answer(s) 429 and ${seconds(gate.waitedMs)} of waiting${typeof response.headers?.['retry-after'] === 'string' ? `; it asked for Retry-After: ${response.headers['retry-after']}` : ''}. This says nothing about the token: test again in a moment.`,
		);
	}
	if (status >= 500) {
		return readServiceError(body).page === true
			? failed(
					`${check.shown} answered ${described(response)}, from a gateway or proxy in front of the service, not from the service itself. The credential could not be checked: test again later, and check the Base URL if it persists.`,
				)
			: failed(`The service failed (${status}) before it checked the token: test again later.${serviceSays(body)}`);
	}
	if (status < 200 || status >= 300) return undefined;
	if (typeof body === 'string') return wrong(check, `answered ${status} with text, not the service's JSON`);
	const afterRetries = tries > 0 ? ` (after ${tries} answer(s) 429, rate limited, waited ${seconds(gate.waitedMs)})` : '';
	return ok(`The access token works: the service accepted an empty order lookup at ${check.shown}${afterRetries}.`);
}

/** What the restore probe's answer proves alone (the token refused, rate limited, failed), or undefined. */
function probeVerdict(url: string, { statusCode: status, body }: LegacyFullResponse): INodeCredentialTestResult | undefined {
	if (status === 401 || status === 403) {
		return failed(
			`The Base URL accepted the access token, but the App Base URL ${url} refused it (${status}). Check that both addresses belong to the same Inventory Ops account, and that the token may restore inventory.${serviceSays(body)}`,
		);
	}
	if (status === 429) {
		return failed(`The service is rate limiting (429) the App Base URL ${url}. This says nothing about the credential: test again in a moment.`);
	}
	if (status >= 500) {
		return failed(`${url} failed (${status}): the App Base URL could not be checked. Test again later, and check the App Base URL if it persists.${serviceSays(body)}`);
	}
	return undefined;
}

/** One call of the test; a 429 is waited out through the gate shared by all calls of the test. */
async function send(session: Session, url: string, body: IDataObject): Promise<Answer> {
	const request = {
		method: 'POST',
		uri: url,
		body,
		json: true,
		headers: { Authorization: `Bearer ${String(session.token ?? '')}`, Accept: 'application/json' },
		timeout: CREDENTIAL_TEST_TIMEOUT_MS,
		simple: false,
		resolveWithFullResponse: true,
	};
	for (let attempt = 0; ; attempt++) {
		await session.gate.pass();
		let response: LegacyFullResponse;
		try {
			response = (await session.helpers.request(request)) as LegacyFullResponse;
		} catch (error) {
			return { error };
		}
		if (response.statusCode === 429) {
			session.tries++;
			if (session.gate.close(attempt, response.headers?.['retry-after'])) continue;
		}
		return { response };
	}
}

/**
 * What an answer that proves nothing alone proves next to the answer, sent the same way, of the path beside it that
 * nothing serves: a different answer (status, page, code or message) proves something serves the operation; the
 * same answer proves nothing serves it only when it names the path it was sent (the service's own "no such path"),
 * since a service may answer a missing order just like a missing path. Otherwise the test passes, saying so.
 */
async function compared(session: Session, check: Check, answer: LegacyFullResponse): Promise<INodeCredentialTestResult> {
	const at = check.url.lastIndexOf('/') + 1;
	const besideUrl = check.url.slice(0, at) + NOWHERE;
	const other = await send(session, besideUrl, check.body);
	const seen = ({ statusCode, body }: LegacyFullResponse, { page, code, message } = readServiceError(body)) =>
		JSON.stringify([statusCode, page, code, message]);
	const comparable = 'response' in other && other.response.statusCode !== 429 && other.response.statusCode < 500;
	const theirs = comparable ? seen(other.response) : '';
	const same = comparable && theirs.split(NOWHERE).join(check.url.slice(at)) === seen(answer);
	const beside = `${withoutUrlCredentials(besideUrl)}, a path nothing serves`;
	const answered = 'response' in other ? described(other.response) : 'nothing';
	let words = `answered ${described(answer)}`;
	if (!comparable) words += `; ${beside}, answered ${answered} (nothing to compare with)`;
	else words += same ? ` just as ${beside}, does` : `, unlike ${beside} (${answered})`;
	const [field, operation] = check.app ? ['App Base URL', 'restore operation'] : ['Base URL', 'order lookup'];
	const said = serviceSays(answer.body);
	if (same && theirs.includes(NOWHERE)) return wrong(check, `${words}, naming the path: the service has no ${operation} there`, said);
	if (comparable && !same) {
		return ok(
			check.app
				? `The App Base URL takes restore requests: ${check.shown} ${words}; the restore named no order and no shipment, so nothing was restored.${said}`
				: `Something at the Base URL serves the order lookup: ${check.shown} ${words}. It refused an empty lookup, so the access token is not confirmed.${said}`,
		);
	}
	return ok(
		`Could not confirm the ${field}: ${check.shown} ${words}, so the answers do not show whether the service serves the ${operation} there${check.app ? '' : ', nor whether the access token works'}. If the node's calls fail, check the ${field}.${said}`,
	);
}

/**
 * The credential test (n8n's `methods.credentialTest`), calls that only read (docs/service-interface.md,
 * Authentication, says what each answer proves): an empty order lookup at the Base URL, then a restore naming no
 * order and no shipment at the App Base URL (nothing can be restored from it); each, where its answer alone proves
 * nothing, compared with the path beside it that nothing serves. A 429 is retried within CREDENTIAL_TEST_RETRY_POLICY,
 * for all calls together. Where the answers cannot tell, the test passes and says what it could not confirm.
 */
export async function testInventoryOpsApiCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted<ICredentialDataDecryptedObject>,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = typeof data.baseUrl === 'string' ? data.baseUrl.trim() : '';
	const appBaseUrl = typeof data.appBaseUrl === 'string' ? data.appBaseUrl.trim() : '';
	if (!isHttpUrl(baseUrl)) {
		return failed(`Base URL must start with http:// or https://, for example https://inventory.example.com/api (got "${withoutUrlCredentials(baseUrl)}").`);
	}
	if (!isHttpUrl(appBaseUrl)) {
		return failed(`App Base URL must start with http:// or https://, for example https://inventory.example.com/s (got "${withoutUrlCredentials(appBaseUrl)}").`);
	}
	// The credential-test context offers only n8n's request helper (no httpRequest and no credential
	// authentication), so send() sets the bearer header from the credential being tested.
	const session: Session = { helpers: this.helpers, token: data.accessToken, gate: new RateLimitGate(CREDENTIAL_TEST_RETRY_POLICY), tries: 0 };
	const check = (app: boolean, url: string, body: IDataObject): Check => ({ app, url, shown: withoutUrlCredentials(url), body });
	const lookUpCheck = check(false, joinUrl(baseUrl, ENDPOINTS.orderGetSingleBulk.path), { order: [] });
	const answer = await send(session, lookUpCheck.url, lookUpCheck.body);
	if ('error' in answer) return unanswered(lookUpCheck, answer.error);
	const lookUp = lookUpVerdict(lookUpCheck, session, answer.response) ?? (await compared(session, lookUpCheck, answer.response));
	if (lookUp.status !== 'OK') return lookUp;

	const probeCheck = check(true, joinUrl(appBaseUrl, ENDPOINTS.shipmentRestoreInventory.path), {});
	const probe = await send(session, probeCheck.url, probeCheck.body);
	if ('error' in probe) return unanswered(probeCheck, probe.error);
	const app = probeVerdict(probeCheck.shown, probe.response) ?? (await compared(session, probeCheck, probe.response));
	return app.status === 'OK' ? ok(`${lookUp.message} ${app.message}`) : app;
}
