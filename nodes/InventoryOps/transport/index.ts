import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestOptions,
} from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { refusalIn, shapeProblem } from './answers';
import {
	apiErrorFromNetworkFailure,
	apiErrorFromRefusal,
	apiErrorFromResponse,
	apiErrorFromUnexpectedAnswer,
} from './errors';
import { RateLimitGate } from './rateLimit';
import { isHttpUrl, joinUrl } from './url';

export type { Endpoint } from './endpoints';
export { RateLimitGate, runRetryPolicy } from './rateLimit';
export {
	describeArrived,
	findHandlerId,
	missingFromKitAnswer,
	NOTHING_REMOVED,
	readBulkAnswer,
	readRemovalAnswer,
	readRestoreAnswer,
	restoredItemsOf,
	saysHandlerUnknown,
	type ShipmentSelectors,
} from './answers';
export { apiErrorFromUnexpectedAnswer } from './errors';
export { addHandlerBody } from './requests';
export { testInventoryOpsApiCredential } from './credentialTest';

export const CREDENTIAL_TYPE = 'inventoryOpsApi';

/** The credential's two addresses, as its form names them. */
const CREDENTIAL_FIELDS = { baseUrl: 'Base URL', appBaseUrl: 'App Base URL' } as const;

/** Who calls the service: the action node's run, and the trigger's publish/unpublish hooks (never its webhook). */
type InventoryOpsContext = IExecuteFunctions | IHookFunctions;

interface RequestOptions {
	/** The input item the call is made for, so that errors name it. */
	itemIndex?: number;
	/** Milliseconds before the call is given up. */
	timeoutMs?: number;
	/** Shared by all calls of a run so that a Retry-After holds them all; by default the call has its own. */
	rateLimitGate?: RateLimitGate;
	onAttempt?: OnAttempt;
}

/**
 * Awaited before each attempt, ahead of the rate-limit gate; what it gives is called as the attempt is sent, and
 * what that gives hears the attempt's status (`undefined`: no answer came).
 */
export type OnAttempt = () => Promise<() => (status: number | undefined) => void>;

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** How long a call may take before it is given up, unless the operation's Timeout option says otherwise. */
export const DEFAULT_TIMEOUT_MS = 30_000;

function retryAfterText(header: unknown): string {
	return typeof header === 'string' || typeof header === 'number' ? ` and the service asked for Retry-After: ${header}` : '';
}

/**
 * The credential for the call's item. n8n resolves its expressions for that item and reads its store: either may
 * fail, and n8n's error then names no item (in Get Many it would stop the run without saying whose batch it was).
 */
async function readCredential(this: InventoryOpsContext, path: string, itemIndex: number | undefined) {
	try {
		return await this.getCredentials(CREDENTIAL_TYPE, itemIndex ?? 0);
	} catch (error) {
		const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
		throw new NodeOperationError(
			this.getNode(),
			`Could not read the Inventory Ops API credential${itemIndex === undefined ? '' : ` for item ${itemIndex}`}: ${reason}. Nothing was sent to ${path}`,
			{
				itemIndex,
				description:
					itemIndex === undefined
						? 'Check that the node has an Inventory Ops API credential selected, that this n8n can open it, and that no expression in its fields reads an input item: the trigger reads it when the workflow is published or unpublished, where there is no item.'
						: 'Check that the node has an Inventory Ops API credential selected, and that any expression in its fields works for this item.',
			},
		);
	}
}

/**
 * The only place that speaks HTTP to the service. Sends a JSON POST with the credential, retries a 429
 * (the service did nothing) within the retry policy, and turns every other failure into a NodeApiError.
 */
export async function inventoryOpsApiRequest<T = unknown>(
	this: InventoryOpsContext,
	endpoint: Endpoint,
	body: IDataObject,
	options: RequestOptions = {},
): Promise<T> {
	const { path, base, changesData } = ENDPOINTS[endpoint];
	if (changesData && this.getNode().retryOnFail === true) {
		// n8n's Retry On Fail re-runs the whole node after any error, including a time-out after the service had
		// already applied the change: the one way to keep such a call from being sent twice is not to start.
		throw new NodeOperationError(
			this.getNode(),
			`'Retry On Fail' is on for this node, and ${path} changes data: n8n would send it again after a time-out even if the service had applied it`,
			{
				itemIndex: options.itemIndex,
				description:
					"Turn off Retry On Fail in the node's Settings. The node already retries what is safe to retry: a 429, where the service did nothing.",
			},
		);
	}
	const credentials = await readCredential.call(this, path, options.itemIndex);
	// Without the spaces a pasted address may carry, as the credential test reads it: else the test would pass and
	// every call go to "/api%20%20/...".
	const baseUrl = typeof credentials[base] === 'string' ? credentials[base].trim() : '';
	if (!isHttpUrl(baseUrl)) {
		// Else n8n's client fails before sending, and the node would report a lost connection that may have applied a write.
		const field = CREDENTIAL_FIELDS[base];
		throw new NodeOperationError(
			this.getNode(),
			`The credential's ${field} is ${baseUrl !== '' ? `"${baseUrl}", not an http(s) address` : 'empty'}${options.itemIndex === undefined ? '' : ` for item ${options.itemIndex}`}: nothing was sent to ${path}`,
			{
				itemIndex: options.itemIndex,
				// n8n resolves an expression in a credential field for the item, and one it cannot resolve leaves it empty.
				description: `Open the Inventory Ops API credential and set ${field} to the service's address, starting with https:// (or http://).${options.itemIndex === undefined ? '' : ' If it is an expression, it must give that address for every item.'}`,
			},
		);
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

	// The one retry loop of the nodes' calls. The credential test keeps a loop of its own around the same
	// RateLimitGate (credentialTest.ts): its context offers only n8n's legacy `helpers.request`, without credential
	// authentication, and it needs the last answer itself (401, 403, a page...) to word its verdict, not an error.
	for (let attempt = 0; ; attempt++) {
		let response: FullResponse;
		const sending = await options.onAttempt?.();
		await gate.pass();
		const settled = sending?.();
		try {
			// The credential as read for this call's item: without it n8n reads it again without the item, so a token
			// set by an expression would be item 0's while the address is this item's.
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
			const problem = shapeProblem(endpoint, response.body);
			if (problem !== undefined) throw apiErrorFromUnexpectedAnswer(problem, errorContext);
			return response.body as T;
		}
		if (response.statusCode === 429 && gate.close(attempt, response.headers['retry-after'])) continue;
		const error = apiErrorFromResponse(response.statusCode, response.body, {
			...errorContext,
			accessToken: credentials.accessToken,
		});
		if (response.statusCode === 429) {
			error.description = `${error.description ?? ''} Waited ${Math.round(gate.waitedMs / 1000)} s for the rate limit before this answer; the wait allowed is ${Math.round(gate.policy.maxTotalWaitMs / 1000)} s${retryAfterText(response.headers['retry-after'])}.`.trim();
		}
		throw error;
	}
}
