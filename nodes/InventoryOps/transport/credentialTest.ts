import type { IDataObject, ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { isServiceErrorShape, readServiceError } from './answers';
import { ENDPOINTS } from './endpoints';
import { SSRF_ADVICE, tokenReading } from './outcome';
import { RateLimitGate, retryRateLimited, type Sent } from './rateLimit';
import { isHttpUrl, joinUrl, pathBeside } from './urls';
import { comparable, networkVerdict, sameAsBeside, tokenVerdict } from './verdicts';
import { withoutUrlCredentials } from '../shared/redact';

// The Test button waits: 5 s at most for 429s.
const RETRY_POLICY = { maxRetries: 3, maxTotalWaitMs: 5_000, baseDelayMs: 500 };
const TIMEOUT_MS = 15_000;

type Response = { statusCode: number; headers?: Record<string, unknown>; body?: unknown };
type Verdict = INodeCredentialTestResult;
type Session = { helpers: ICredentialTestFunctions['helpers']; token: unknown; gate: RateLimitGate; rateLimited: number };
/** `shown`: the URL without a password. */
type Check = { app: boolean; field: string; url: string; shown: string; body: IDataObject };

const ok = (message: string): Verdict => ({ status: 'OK', message });
const failed = (message: string): Verdict => ({ status: 'Error', message });
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** Nothing for a web page: a gateway's words. */
function serviceSaid(body: unknown): string {
	const { message, code, page } = readServiceError(body);
	const text = [code, message].filter(Boolean).join(': ');
	return text === '' || page === true ? '' : ` The service said: ${withoutUrlCredentials(text).replace(/\.+$/, '')}.`;
}

function statusText({ statusCode, body }: Response): string {
	const { message, page } = readServiceError(body);
	return page === true ? `${statusCode} with a web page titled "${message}"` : String(statusCode);
}

function wrongAddress({ app, field, shown }: Check, what: string, said = ''): Verdict {
	const [kind, works] = app
		? ['shipping address (usually ending in /s)', ' The Base URL and the access token work.']
		: ['API address (usually ending in /api)', ''];
	return failed(`Wrong ${field}: ${shown} ${what}.${said} Use your account's ${kind}, without the operation path.${works}`);
}

function unanswered(check: Check, error: unknown): Verdict {
	const { reason, timedOut, refusedByN8n } = networkVerdict(error);
	if (refusedByN8n) return failed(`${reason} (${check.shown}). ${SSRF_ADVICE}`);
	return timedOut
		? failed(`No answer from ${check.shown} within ${seconds(TIMEOUT_MS)}: check the ${check.field}, and that n8n can reach the service.`)
		: wrongAddress(check, `could not be reached (${reason})`);
}

function failureVerdict(check: Check, response: Response, { rateLimited, gate }: Session): Verdict | undefined {
	const { statusCode: status, headers } = response;
	if (status === 429) {
		const retryAfter = headers?.['retry-after'];
		const asked = typeof retryAfter === 'string' ? `; it asked for Retry-After: ${retryAfter}` : '';
		const tries = `${rateLimited} answer(s) 429 and ${seconds(gate.waitedMs)} of waiting${asked}`;
		return failed(`The service is rate limiting (429) ${check.shown}, still after ${tries}. Test again soon: this says nothing about the credential.`);
	}
	if (status < 500) return undefined;
	const what = check.app ? 'the App Base URL' : 'the Base URL and the access token';
	const gateway = readServiceError(response.body).page === true ? ', from a gateway or proxy' : '';
	const later = `Test again later, or check the ${check.field}.${serviceSaid(response.body)}`;
	return failed(`${check.shown} failed (${statusText(response)})${gateway}: ${what} could not be checked. ${later}`);
}

async function send(session: Session, url: string, body: IDataObject): Promise<Sent<Response>> {
	const headers = { Authorization: `Bearer ${String(session.token ?? '')}`, Accept: 'application/json' };
	const request = { method: 'POST', uri: url, body, json: true, headers, timeout: TIMEOUT_MS, simple: false, resolveWithFullResponse: true };
	// This context has only n8n's legacy request helper, which does not authenticate.
	return await retryRateLimited(session.gate, async () => {
		await session.gate.pass();
		const sent = await session.helpers.request(request).then((response: Response) => ({ response }), (error: unknown) => ({ error }));
		if ('response' in sent && sent.response.statusCode === 429) session.rateLimited++;
		return sent;
	});
}

/** A 401 or 403 shows the service refusing the token only where a path nothing serves answers otherwise. */
async function tokenCheck(session: Session, check: Check, response: Response): Promise<Verdict | undefined> {
	const { statusCode: status, body } = response;
	const said = readServiceError(body);
	const first = tokenVerdict(status, said, session.token, check.app);
	if (first === undefined) return undefined;
	const beside = first === 'refused' || first === 'lacksScope' ? await send(session, pathBeside(check.url), check.body) : undefined;
	const unserved = beside !== undefined && 'response' in beside && comparable(beside.response) && sameAsBeside(check.url, response, beside.response).same;
	const verdict = unserved ? 'notShown' : first;
	if (verdict !== 'notShown') {
		const [conclusion, advice] = tokenReading(verdict, status, 'orderGetSingleBulk', session.token);
		return failed(`${conclusion}. ${advice}${serviceSaid(body)}`);
	}
	if (check.app) {
		const where = `${check.shown}, a path beside the restore path that no operation serves`;
		const open = 'that does not show whether restores there refuse it. Check that both are of one account; a first real restore shows it.';
		return failed(`The Base URL accepted the access token, but the App Base URL answered ${statusText(response)} at ${where}: ${open}${serviceSaid(body)}`);
	}
	const how = said.page === true ? ", a gateway's or proxy's page" : ` just as ${withoutUrlCredentials(pathBeside(check.url))}, a path nothing serves, does`;
	return failed(`The access token is not confirmed: ${check.shown} answered ${statusText(response)}${how}, not the service refusing it. Check the Base URL, then Access Token.${serviceSaid(body)}`);
}

function lookUpVerdict(check: Check, response: Response, session: Session): Verdict | undefined {
	const { statusCode: status, body } = response;
	if (status < 200 || status >= 300) return failureVerdict(check, response, session);
	if (typeof body === 'string') return wrongAddress(check, `answered ${status} with text, not the service's JSON`);
	const { rateLimited, gate } = session;
	const afterRetries = rateLimited > 0 ? ` (after ${rateLimited} answer(s) 429, rate limited, waited ${seconds(gate.waitedMs)})` : '';
	return ok(`The access token works: the service accepted an empty order lookup at ${check.shown}${afterRetries}.`);
}

/**
 * An answer that proves nothing alone, beside that of a path nothing serves: a different one proves something serves
 * the operation; the same one proves nothing does only when it names the path (a service may answer a missing order
 * like a missing path). Otherwise the test passes, saying so.
 */
async function comparedVerdict(session: Session, check: Check, answer: Response): Promise<Verdict> {
	const besideUrl = pathBeside(check.url);
	const other = await send(session, besideUrl, check.body);
	const theirs = 'response' in other ? other.response : undefined;
	const compared = theirs !== undefined && comparable(theirs);
	const { same, namesPath } = compared ? sameAsBeside(check.url, answer, theirs) : { same: false, namesPath: false };
	const beside = `${withoutUrlCredentials(besideUrl)}, a path nothing serves`;
	const answered = theirs ? statusText(theirs) : 'nothing';
	let words = `answered ${statusText(answer)}`;
	if (!compared) words += `; ${beside}, answered ${answered} (nothing to compare with)`;
	else words += same ? ` just as ${beside}, does` : `, unlike ${beside} (${answered})`;
	const said = serviceSaid(answer.body);
	if (namesPath) return wrongAddress(check, `${words}, naming the path: the service has no order lookup there`, said);
	if (compared && !same) {
		return ok(`Something at the Base URL serves the order lookup: ${check.shown} ${words}. It refused an empty lookup, so the access token is not confirmed.${said}`);
	}
	return ok(`Could not confirm the Base URL or the access token: ${check.shown} ${words}. If the node's calls fail, check the ${check.field}.${said}`);
}

/**
 * The App Base URL serves only restores, which change data: the test sends none, only a request to the path beside
 * the restore path, which no operation serves. Its answer shows whether the address answers and in what shape;
 * whether restores are served there, and with this token, only a first real restore shows.
 */
function appVerdict(check: Check, response: Response, session: Session, sameAsBaseUrl: boolean): Verdict {
	const failure = failureVerdict(check, response, session);
	if (failure) return failure;
	const where = `${check.shown}, a path beside the restore path that no operation serves`;
	const shape = isServiceErrorShape(response.body) ? " in the service's error shape" : '';
	const same = sameAsBaseUrl ? ' It is the same address as the Base URL: an account\'s App Base URL usually differs, ending in /s.' : '';
	return ok(
		`The App Base URL answers and did not refuse the access token: ${where}, answered ${statusText(response)}${shape}. Only a first real restore proves that restores work there: the test sends none, since a restore changes data.${same}`,
	);
}

/** docs/service-interface.md (Authentication) says what each answer proves. */
export async function testInventoryOpsApiCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<Verdict> {
	const data = credential.data ?? {};
	const baseUrl = typeof data.baseUrl === 'string' ? data.baseUrl.trim() : '';
	const appBaseUrl = typeof data.appBaseUrl === 'string' ? data.appBaseUrl.trim() : '';
	for (const [field, url, end] of [['Base URL', baseUrl, 'api'], ['App Base URL', appBaseUrl, 's']]) {
		const example = `for example https://inventory.example.com/${end} (got "${withoutUrlCredentials(url)}")`;
		if (!isHttpUrl(url)) return failed(`${field} must start with http:// or https://, ${example}.`);
	}
	const session: Session = { helpers: this.helpers, token: data.accessToken, gate: new RateLimitGate(RETRY_POLICY), rateLimited: 0 };
	const check = (app: boolean, url: string, body: IDataObject): Check =>
		({ app, field: app ? 'App Base URL' : 'Base URL', url, shown: withoutUrlCredentials(url), body });
	const lookUpCheck = check(false, joinUrl(baseUrl, ENDPOINTS.orderGetSingleBulk.path), { order: [] });
	const lookUpAnswer = await send(session, lookUpCheck.url, lookUpCheck.body);
	if ('error' in lookUpAnswer) return unanswered(lookUpCheck, lookUpAnswer.error);
	const lookUp = (await tokenCheck(session, lookUpCheck, lookUpAnswer.response)) ??
		lookUpVerdict(lookUpCheck, lookUpAnswer.response, session) ?? (await comparedVerdict(session, lookUpCheck, lookUpAnswer.response));
	if (lookUp.status !== 'OK') return lookUp;
	const appCheck = check(true, pathBeside(joinUrl(appBaseUrl, ENDPOINTS.shipmentRestoreInventory.path)), {});
	const appAnswer = await send(session, appCheck.url, appCheck.body);
	if ('error' in appAnswer) return unanswered(appCheck, appAnswer.error);
	const sameAsBaseUrl = appBaseUrl.replace(/\/+$/, '') === baseUrl.replace(/\/+$/, '');
	const app = (await tokenCheck(session, appCheck, appAnswer.response)) ?? appVerdict(appCheck, appAnswer.response, session, sameAsBaseUrl);
	return app.status === 'OK' ? ok(`${lookUp.message} ${app.message}`) : app;
}
