import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestOptions,
} from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { refusalIn, unexpectedShape } from './answers';
import { apiErrorFromNetworkFailure, apiErrorFromResponse, apiErrorFromUnexpectedAnswer } from './errors';
import { RateLimitGate } from './rateLimit';
import { isHttpUrl, joinUrl } from './credentialTest';

export type { Endpoint } from './endpoints';
export { RateLimitGate, runRetryPolicy } from './rateLimit';
export { findHandlerId, missingFromKitAnswer, NOTHING_REMOVED, readBulkAnswer, readRemovalAnswer } from './answers';
export { readRestoreAnswer, restoredItemsOf, saysHandlerUnknown, summaryOf, type ShipmentSelectors } from './answers';
export { apiErrorFromUnexpectedAnswer } from './errors';
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
			// Else n8n reads the credential again for item 0, mixing items' token and address.
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request, {
				credentialsDecrypted: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data: credentials },
			})) as FullResponse;
			settled?.(response.statusCode);
		} catch (error) {
			settled?.(undefined);
			// A read may be repeated once after a dropped connection; a write never is.
			if (!changesData && readRetries++ < 1) continue;
			throw apiErrorFromNetworkFailure(error, errorContext);
		}
		if (response.statusCode >= 200 && response.statusCode < 300) {
			if (refusalIn(endpoint, response.body)) throw apiErrorFromResponse(200, response.body, errorContext);
			const unexpected = unexpectedShape(endpoint, response.body);
			if (unexpected !== undefined) throw apiErrorFromUnexpectedAnswer(unexpected, errorContext);
			return response.body as T;
		}
		if (response.statusCode === 429 && gate.close(attempt, response.headers['retry-after'])) continue;
		const { statusCode, body: answer, headers } = response;
		const error = apiErrorFromResponse(statusCode, answer, { ...errorContext, accessToken: credentials.accessToken });
		if (statusCode === 429) {
			const [waited, allowed] = [gate.waitedMs, gate.policy.maxTotalWaitMs].map((ms) => Math.round(ms / 1000));
			const retryAfter = headers['retry-after'];
			const asked = typeof retryAfter === 'string' || typeof retryAfter === 'number' ? ` and the service asked for Retry-After: ${retryAfter}` : '';
			error.description += ` Waited ${waited} s for the rate limit before this answer; the wait allowed is ${allowed} s${asked}.`;
		}
		throw error;
	}
}
