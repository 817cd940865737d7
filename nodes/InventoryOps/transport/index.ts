import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestOptions,
} from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { refusalIn, unexpectedShape } from './answers';
import { apiErrorFromNetworkFailure, apiErrorFromRefusal, apiErrorFromResponse, apiErrorFromUnexpectedAnswer } from './errors';
import { RateLimitGate } from './rateLimit';
import { isHttpUrl, joinUrl } from './credentialTest';

export type { Endpoint } from './endpoints';
export { RateLimitGate, runRetryPolicy } from './rateLimit';
export { findHandlerId, missingFromKitAnswer, NOTHING_REMOVED, readBulkAnswer, readRemovalAnswer } from './answers';
export { readRestoreAnswer, restoredItemsOf, saysHandlerUnknown, summaryOf, type ShipmentSelectors } from './answers';
export { apiErrorFromUnexpectedAnswer } from './errors';
export { testInventoryOpsApiCredential } from './credentialTest';

export const CREDENTIAL_TYPE = 'inventoryOpsApi';

/** How long a call may take unless the operation's Timeout option says otherwise. */
export const DEFAULT_TIMEOUT_MS = 30_000;

const CREDENTIAL_FIELDS = { baseUrl: 'Base URL', appBaseUrl: 'App Base URL' } as const;

/** The action node's run, or the trigger's publish/unpublish hooks (its webhook never calls the service). */
type InventoryOpsContext = IExecuteFunctions | IHookFunctions;

interface RequestOptions {
	/** The input item the call is made for, so that errors name it. */
	itemIndex?: number;
	timeoutMs?: number;
	/** Shared by all calls of a run so that a Retry-After holds them all. */
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

/** The add_handler body; both nodes register handlers. */
export function addHandlerBody({ type, name, url, method, headers }: HandlerRegistration): IDataObject {
	return { type, name, handler: { url, method, headers } };
}

function retryAfterText(header: unknown): string {
	return typeof header === 'string' || typeof header === 'number' ? ` and the service asked for Retry-After: ${header}` : '';
}

/** n8n's own error when it cannot resolve or open the credential names no item; this one does. */
async function readCredential(this: InventoryOpsContext, path: string, itemIndex: number | undefined) {
	try {
		return await this.getCredentials(CREDENTIAL_TYPE, itemIndex ?? 0);
	} catch (error) {
		const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
		const forItem = itemIndex === undefined ? '' : ` for item ${itemIndex}`;
		const description =
			itemIndex === undefined
				? 'Check that the node has an Inventory Ops API credential this n8n can open, with no expression reading an input item: the trigger has none when it is published or unpublished.'
				: 'Check that the node has an Inventory Ops API credential, and that any expression in its fields works for this item.';
		const message = `Could not read the Inventory Ops API credential${forItem}: ${reason}. Nothing was sent to ${path}`;
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	}
}

/**
 * The only place that speaks HTTP to the service. Retries a 429 (the service did nothing) within the retry policy
 * and turns every other failure into a NodeApiError.
 */
export async function inventoryOpsApiRequest<T = unknown>(
	this: InventoryOpsContext,
	endpoint: Endpoint,
	body: IDataObject,
	options: RequestOptions = {},
): Promise<T> {
	const { path, base, changesData } = ENDPOINTS[endpoint];
	if (changesData && this.getNode().retryOnFail === true) {
		// n8n's Retry On Fail would resend a write after a time-out even when the service had applied it.
		const message = `'Retry On Fail' is on for this node, and ${path} changes data: n8n would send it again after a time-out even if the service had applied it`;
		const description = "Turn off Retry On Fail in the node's Settings. The node retries a 429 itself, where the service did nothing.";
		throw new NodeOperationError(this.getNode(), message, { itemIndex: options.itemIndex, description });
	}
	const credentials = await readCredential.call(this, path, options.itemIndex);
	// Trimmed as the credential test reads it, else a pasted address that passed the test would fail here.
	const baseUrl = typeof credentials[base] === 'string' ? credentials[base].trim() : '';
	if (!isHttpUrl(baseUrl)) {
		// Else n8n's client fails before sending, and the node would report a lost connection that may have applied a write.
		const field = CREDENTIAL_FIELDS[base];
		const forItem = options.itemIndex === undefined ? '' : ` for item ${options.itemIndex}`;
		const message = `The credential's ${field} is ${baseUrl !== '' ? `"${baseUrl}", not an http(s) address` : 'empty'}${forItem}: nothing was sent to ${path}`;
		// An expression n8n cannot resolve for the item leaves the field empty.
		const perItem = forItem === '' ? '' : ' If it is an expression, it must give that address for every item.';
		const description = `Open the Inventory Ops API credential and set ${field} to the service's address, starting with https:// (or http://).${perItem}`;
		throw new NodeOperationError(this.getNode(), message, { itemIndex: options.itemIndex, description });
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
	const errorContext = { node: this.getNode(), endpoint, itemIndex: options.itemIndex };
	const gate = options.rateLimitGate ?? new RateLimitGate();
	let readRetries = 0;

	// The credential test has a loop of its own: its context has only n8n's legacy request helper, and it words its
	// verdict from the last answer itself.
	for (let attempt = 0; ; attempt++) {
		let response: FullResponse;
		const sending = await options.onAttempt?.();
		await gate.pass();
		const settled = sending?.();
		try {
			// The credential as read for this item: else n8n reads it again for item 0, mixing items' token and address.
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
			const refusal = refusalIn(endpoint, response.body);
			if (refusal !== undefined) throw apiErrorFromRefusal(refusal, errorContext);
			const unexpected = unexpectedShape(endpoint, response.body);
			if (unexpected !== undefined) throw apiErrorFromUnexpectedAnswer(unexpected, errorContext);
			return response.body as T;
		}
		if (response.statusCode === 429 && gate.close(attempt, response.headers['retry-after'])) continue;
		const { statusCode, body: answer } = response;
		const error = apiErrorFromResponse(statusCode, answer, { ...errorContext, accessToken: credentials.accessToken });
		if (response.statusCode === 429) {
			const [waited, allowed] = [gate.waitedMs, gate.policy.maxTotalWaitMs].map((ms) => Math.round(ms / 1000));
			const wait = `Waited ${waited} s for the rate limit before this answer; the wait allowed is ${allowed} s`;
			error.description = `${error.description ?? ''} ${wait}${retryAfterText(response.headers['retry-after'])}.`.trim();
		}
		throw error;
	}
}
