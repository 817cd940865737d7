import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestOptions,
} from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { readServiceError, refusalIn, refusalSaysHandlerUnknown, unexpectedShape } from './answers';
import {
	apiErrorFromNetworkFailure,
	apiErrorFromResponse,
	apiErrorFromUnexpectedAnswer,
	readRemovalNotFound,
	refusalOfUnknownHandler,
} from './errors';
import { comparable, pathBeside, sameAsBeside, type Answered } from './pathBeside';
import { RateLimitGate } from './rateLimit';
import { isHttpUrl, joinUrl } from './credentialTest';
import { withoutUrlCredentials } from '../shared/redact';

export type { Endpoint } from './endpoints';
export { RateLimitGate, runRetryPolicy } from './rateLimit';
export { findHandlerId, missingFromKitAnswer, readBulkAnswer, removalProblem } from './answers';
export { readRestoreAnswer, restoredItemsOf, summaryOf, type ShipmentSelectors } from './answers';
export { apiErrorFromUnexpectedAnswer, mayHaveApplied, saysHandlerUnknown, userMessage } from './errors';
export { testInventoryOpsApiCredential } from './credentialTest';

export const CREDENTIAL_TYPE = 'inventoryOpsApi';

export const DEFAULT_TIMEOUT_MS = 30_000;

type InventoryOpsContext = IExecuteFunctions | IHookFunctions;

interface RequestOptions {
	itemIndex?: number;
	timeoutMs?: number;
	/** Shared by a run's calls, so that a Retry-After holds them all. */
	rateLimitGate?: RateLimitGate;
	onAttempt?: OnAttempt;
}

/**
 * Awaited before each attempt, ahead of the rate-limit gate; what it gives is called as the attempt is sent, and
 * what that gives hears the attempt's status (`undefined`: no answer came).
 */
export type OnAttempt = () => Promise<() => (status: number | undefined) => void>;

type FullResponse = { statusCode: number; headers: Record<string, unknown>; body: unknown };

type HandlerRegistration = Record<'type' | 'name' | 'url' | 'method', string> & { headers: IDataObject };

export function addHandlerBody({ type, name, url, method, headers }: HandlerRegistration): IDataObject {
	return { type, name, handler: { url, method, headers } };
}


/**
 * Whether a remove_handler 404 proves the handler unknown: only an answer in words that differs from the one of the
 * path beside it, which nothing serves (a wrong Base URL's or a gateway's "no such path" is the same at both). The
 * request beside changes nothing: no operation is there.
 */
async function notFoundReading(url: string, answer: Answered, send: (url: string) => Promise<Answered>) {
	const { page, message, code } = readServiceError(answer.body);
	if (page === true) return { doubt: 'the answer was a web page, as a gateway gives for any path it does not know' };
	if (message === undefined && code === undefined) return { doubt: 'the answer gave no reason' };
	const besideUrl = pathBeside(url);
	const beside = await send(besideUrl).catch(() => undefined);
	const shown = `${withoutUrlCredentials(besideUrl)}, a path nothing serves,`;
	if (beside === undefined || !comparable(beside)) return { doubt: `${shown} answered ${beside?.statusCode ?? 'nothing'} (nothing to compare with)` };
	if (sameAsBeside(url, answer, beside).same) return { doubt: `${shown} answered the same (the service's or a gateway's "no such path")` };
	return { proof: `its answer differs from that of ${withoutUrlCredentials(besideUrl)}, a path nothing serves` };
}

/** Retries a 429 (the service did nothing) within the retry policy; every other failure becomes a NodeApiError. */
export async function inventoryOpsApiRequest<T = unknown>(
	this: InventoryOpsContext,
	endpoint: Endpoint,
	body: IDataObject,
	options: RequestOptions = {},
): Promise<T> {
	const { path, base, changesData } = ENDPOINTS[endpoint];
	const { itemIndex } = options;
	const forItem = itemIndex === undefined ? '' : ` for item ${itemIndex}`;
	const refused = (message: string, description: string) => new NodeOperationError(this.getNode(), message, { itemIndex, description });
	if (changesData && this.getNode().retryOnFail === true) {
		const message = `'Retry On Fail' is on, and ${path} changes data: n8n would resend it after a time-out even if it was applied`;
		throw refused(message, "Turn off Retry On Fail in the node's Settings (the node retries a 429 itself).");
	}
	let credentials;
	try {
		credentials = await this.getCredentials(CREDENTIAL_TYPE, itemIndex ?? 0);
	} catch (error) {
		// n8n's own error names no item.
		const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
		const expressions = forItem ? 'its expressions work for this item' : 'no expression reads an input item (publishing has none)';
		const message = `Could not read the Inventory Ops API credential${forItem}: ${reason}. Nothing was sent to ${path}`;
		throw refused(message, `Check that the node has an Inventory Ops API credential, and that ${expressions}.`);
	}
	// Trimmed as the credential test reads it, so that an address that passed the test works.
	const baseUrl = typeof credentials[base] === 'string' ? credentials[base].trim() : '';
	if (!isHttpUrl(baseUrl)) {
		// Else n8n's client fails before sending, and the node would report a lost connection.
		const field = base === 'baseUrl' ? 'Base URL' : 'App Base URL';
		const what = baseUrl !== '' ? `"${baseUrl}", not an http(s) address` : 'empty';
		// An expression n8n cannot resolve for the item leaves the field empty.
		const perItem = forItem && ' If it is an expression, it must give that address for every item.';
		const description = `Set ${field} in the credential to the service's https:// (or http://) address.${perItem}`;
		throw refused(`The credential's ${field} is ${what}${forItem}: nothing was sent to ${path}`, description);
	}
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: joinUrl(baseUrl, path),
		body,
		json: true,
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	// Else n8n reads the credential again for item 0, mixing items' token and address.
	const send = async (url: string) =>
		(await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, { ...request, url }, {
			credentialsDecrypted: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data: credentials },
		})) as FullResponse;
	const errorContext = { node: this.getNode(), endpoint, itemIndex };
	const gate = options.rateLimitGate ?? new RateLimitGate();
	let readRetries = 0;

	// The credential test's context has only n8n's legacy request helper: it has a loop of its own.
	for (let attempt = 0; ; attempt++) {
		let response: FullResponse;
		const sending = await options.onAttempt?.();
		await gate.pass();
		const settled = sending?.();
		try {
			response = await send(request.url);
			settled?.(response.statusCode);
		} catch (error) {
			settled?.(undefined);
			// A read may be repeated once after a dropped connection; a write never is.
			if (!changesData && readRetries++ < 1) continue;
			throw apiErrorFromNetworkFailure(error, errorContext);
		}
		if (response.statusCode >= 200 && response.statusCode < 300) {
			const refusal = refusalIn(response.body);
			if (refusal) {
				const error = apiErrorFromResponse(200, response.body, errorContext);
				throw endpoint === 'webhookRemoveHandler' && refusalSaysHandlerUnknown(refusal) ? refusalOfUnknownHandler(error) : error;
			}
			const unexpected = unexpectedShape(endpoint, response.body);
			if (unexpected !== undefined) throw apiErrorFromUnexpectedAnswer(unexpected, errorContext);
			return response.body as T;
		}
		if (response.statusCode === 429 && gate.close(attempt, response.headers['retry-after'])) continue;
		const { statusCode, body: answer, headers } = response;
		const error = apiErrorFromResponse(statusCode, answer, { ...errorContext, accessToken: credentials.accessToken });
		if (statusCode === 404 && endpoint === 'webhookRemoveHandler') {
			throw readRemovalNotFound(error, await notFoundReading(request.url, response, send));
		}
		if (statusCode === 429) {
			const [waited, allowed] = [gate.waitedMs, gate.policy.maxTotalWaitMs].map((ms) => Math.round(ms / 1000));
			const retryAfter = headers['retry-after'];
			const asked = typeof retryAfter === 'string' || typeof retryAfter === 'number' ? ` and the service asked for Retry-After: ${retryAfter}` : '';
			error.description += ` Waited ${waited} s for the rate limit before this answer; the wait allowed is ${allowed} s${asked}.`;
		}
		throw error;
	}
}
