import type {
	IDataObject,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { readServiceError } from './answers';
import { ENDPOINTS } from './endpoints';
import { jwtExpiry, networkReason } from './errors';
import { RateLimitGate, type RetryPolicy } from './rateLimit';
import { isHttpUrl, joinUrl } from './url';
import { withoutUrlCredentials } from '../shared/redact';

/**
 * The credential dialog's Test button waits for this: a transient 429 is retried (the service did nothing), but
 * only for a few seconds, so the dialog never hangs; a longer Retry-After is reported instead of waited for.
 */
const CREDENTIAL_TEST_RETRY_POLICY: RetryPolicy = { maxRetries: 3, maxTotalWaitMs: 5_000, baseDelayMs: 500 };

const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

interface LegacyFullResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}

const ok = (message: string): INodeCredentialTestResult => ({ status: 'OK', message });
const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

function serviceSays(body: unknown): string {
	const { message, code } = readServiceError(body);
	const text = [code, message].filter(Boolean).join(': ');
	return text === '' ? '' : ` The service said: ${withoutUrlCredentials(text).replace(/\.+$/, '')}.`;
}

/** `said`: what the service said (serviceSays), after the sentence it explains. */
function wrongBaseUrl(url: string, what: string, said = ''): INodeCredentialTestResult {
	return failed(
		`Wrong Base URL: ${url} ${what}.${said} The Base URL is the API address your Inventory Ops account uses (it usually ends in /api), without the operation path.`,
	);
}

function wrongAppBaseUrl(url: string, what: string, said = ''): INodeCredentialTestResult {
	return failed(
		`Wrong App Base URL: ${url} ${what}.${said} The App Base URL is the address your Inventory Ops account uses for shipping (it usually ends in /s), without the operation path. The Base URL and the access token work.`,
	);
}

/** What a finished answer says about the credential. */
function verdict(
	url: string,
	token: unknown,
	response: LegacyFullResponse,
	rateLimited: { tries: number; waitedMs: number },
): INodeCredentialTestResult {
	const { statusCode: status, body } = response;
	const page = readServiceError(body);
	const afterRetries =
		rateLimited.tries > 0 ? ` (after ${rateLimited.tries} answer(s) 429, rate limited, waited ${seconds(rateLimited.waitedMs)})` : '';
	// The status first: a gateway may answer 401, 403 or 429 with its own page, and they mean the same.
	if (status === 401) {
		const expiry = jwtExpiry(token);
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
			`The service is rate limiting (429) and still was after ${rateLimited.tries} answer(s) 429 and ${seconds(rateLimited.waitedMs)} of waiting${typeof response.headers?.['retry-after'] === 'string' ? `; it asked for Retry-After: ${response.headers['retry-after']}` : ''}. This says nothing about the token: test again in a moment.`,
		);
	}
	if (page.page === true) {
		return status >= 500
			? failed(
					`${url} answered ${status} with a web page titled "${page.message}", from a gateway or proxy in front of the service, not from the service itself. The credential could not be checked: test again later, and check the Base URL if it persists.`,
				)
			: wrongBaseUrl(url, `answered ${status} with a web page titled "${page.message}", not the service's JSON`);
	}
	if (status >= 200 && status < 300) {
		if (typeof body === 'string') return wrongBaseUrl(url, `answered ${status} with text, not the service's JSON`);
		return ok(`The access token works: the service accepted an empty order lookup at ${url}${afterRetries}.`);
	}
	if (status === 404) return wrongBaseUrl(url, 'answered 404: the service has no order lookup there', serviceSays(body));
	if (status >= 500) {
		return failed(`The service failed (${status}) before it checked the token: test again later.${serviceSays(body)}`);
	}
	return failed(`The service answered ${status} to an empty order lookup at ${url}.${serviceSays(body)}`);
}

type Answer = { response: LegacyFullResponse } | { error: unknown };

/** One call of the test; a 429 is waited out through the gate shared by both calls of the test. */
async function send(
	this: ICredentialTestFunctions,
	gate: RateLimitGate,
	url: string,
	token: unknown,
	body: IDataObject,
	limited: { tries: number },
): Promise<Answer> {
	const request = {
		method: 'POST',
		uri: url,
		body,
		json: true,
		headers: { Authorization: `Bearer ${String(token ?? '')}`, Accept: 'application/json' },
		timeout: CREDENTIAL_TEST_TIMEOUT_MS,
		simple: false,
		resolveWithFullResponse: true,
	};
	// The credential-test context offers only n8n's request helper (no httpRequest and no credential
	// authentication), so the bearer header is set above from the credential being tested.
	const { helpers } = this;
	for (let attempt = 0; ; attempt++) {
		await gate.pass();
		let response: LegacyFullResponse;
		try {
			response = (await helpers.request(request)) as LegacyFullResponse;
		} catch (error) {
			return { error };
		}
		if (response.statusCode === 429) {
			limited.tries++;
			if (gate.close(attempt, response.headers?.['retry-after'])) continue;
		}
		return { response };
	}
}

/**
 * What the App Base URL probe says. The probe is a restore that names no order and no shipment: the service cannot
 * restore anything from it, so a 400 (or 422) proves that something at this address takes restore requests and read
 * this one; a 404, a 405 or a web page proves that nothing does.
 */
function appVerdict(url: string, answer: Answer): INodeCredentialTestResult | undefined {
	if ('error' in answer) {
		const { reason, timedOut } = networkReason(answer.error);
		return timedOut
			? failed(`No answer from ${url} within ${seconds(CREDENTIAL_TEST_TIMEOUT_MS)}: check the App Base URL, and that the service can be reached from n8n.`)
			: wrongAppBaseUrl(url, `could not be reached (${withoutUrlCredentials(reason)}): no service answers there, or it is down`);
	}
	const { statusCode: status, body } = answer.response;
	if (status === 400 || status === 422) return undefined;
	if (status === 401 || status === 403) {
		return failed(
			`The Base URL accepted the access token, but the App Base URL ${url} refused it (${status}). Check that both addresses belong to the same Inventory Ops account, and that the token may restore inventory.${serviceSays(body)}`,
		);
	}
	if (status === 429) {
		return failed(`The service is rate limiting (429) the App Base URL ${url}. This says nothing about the credential: test again in a moment.`);
	}
	const page = readServiceError(body);
	if (status >= 500) {
		return failed(`${url} failed (${status}): the App Base URL could not be checked. Test again later, and check the App Base URL if it persists.${page.page === true ? '' : serviceSays(body)}`);
	}
	if (status >= 200 && status < 300) {
		return wrongAppBaseUrl(url, `answered ${status} to a restore that names no shipment, which the service refuses as incomplete; something else answers there`);
	}
	if (page.page === true) return wrongAppBaseUrl(url, `answered ${status} with a web page titled "${page.message}", not the service's JSON`);
	return wrongAppBaseUrl(url, `answered ${status}: the service has no restore operation there`, serviceSays(body));
}

/**
 * The credential test (n8n's `methods.credentialTest`), two calls that only read:
 * 1. an empty order lookup at the Base URL, which needs both a valid token and a correct Base URL;
 * 2. a restore naming no order and no shipment at the App Base URL (nothing can be restored from it), which tells a
 *    correct App Base URL (the service refuses the request as incomplete) from a wrong one (404, a page, no answer).
 * A 429 is retried within CREDENTIAL_TEST_RETRY_POLICY, for both calls together; every other answer is put in
 * words a user can act on.
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
	const gate = new RateLimitGate(CREDENTIAL_TEST_RETRY_POLICY);
	const limited = { tries: 0 };
	const url = joinUrl(baseUrl, ENDPOINTS.orderGetSingleBulk.path);
	const shownUrl = withoutUrlCredentials(url);
	const answer = await send.call(this, gate, url, data.accessToken, { order: [] }, limited);
	if ('error' in answer) {
		const { reason, timedOut } = networkReason(answer.error);
		return timedOut
			? failed(`No answer from ${shownUrl} within ${seconds(CREDENTIAL_TEST_TIMEOUT_MS)}: check the Base URL, and that the service can be reached from n8n.`)
			: wrongBaseUrl(shownUrl, `could not be reached (${withoutUrlCredentials(reason)}): no service answers there, or it is down`);
	}
	const lookUp = verdict(shownUrl, data.accessToken, answer.response, { tries: limited.tries, waitedMs: gate.waitedMs });
	if (lookUp.status !== 'OK') return lookUp;

	const appUrl = joinUrl(appBaseUrl, ENDPOINTS.shipmentRestoreInventory.path);
	const shownAppUrl = withoutUrlCredentials(appUrl);
	const probe = await send.call(this, gate, appUrl, data.accessToken, {}, limited);
	const app = appVerdict(shownAppUrl, probe);
	if (app !== undefined) return app;
	const status = 'response' in probe ? probe.response.statusCode : 0;
	return ok(
		`${lookUp.message} The App Base URL takes restore requests: ${shownAppUrl} refused one that names no shipment as incomplete (${status}), so nothing was restored.`,
	);
}
