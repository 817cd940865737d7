import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { ENDPOINTS, type Endpoint } from './endpoints';
import { refusalIn, unexpectedShape } from './answers';
import {
	failureFromAnswer,
	failureFromNetwork,
	failureFromUnreadable,
	notAnAddress,
	notSent,
	waitNotes,
	type CallContext,
	type Failure,
} from './outcome';
import { RateLimitGate, retryRateLimited, runRetryPolicy, type Sent } from './rateLimit';
import { isHttpUrl, joinUrl } from './urls';
import { withoutUrlCredentials } from '../shared/redact';
import { handlerVerdict, type Answered, type UnknownIdAnswer } from './verdicts';

export type { Endpoint } from './endpoints';
export type { Failure } from './outcome';
export { RateLimitGate, runRetryPolicy } from './rateLimit';
export { findHandlerId, summaryOf } from './answers';
export { fullTextOf, nodeErrorOf, publishErrorOf } from './render';
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
	/** remove_handler's: learn the answer that proves a handler gone from this call (a probe's). */
	learn?: boolean;
}

/**
 * What proves a handler gone (the service's answer to an unknown id), per Base URL, in the node's
 * static data (n8n saves it after a publish, an unpublish and a production run).
 */
const learnt = (context: InventoryOpsContext) =>
	context.getWorkflowStaticData('node') as { unknownIdAnswer?: UnknownIdAnswer };

/**
 * Awaited before each attempt, ahead of the rate-limit gate; what it gives is called as the attempt
 * is sent, and what that gives hears the attempt's status (`undefined`: no answer came).
 */
export type OnAttempt = () => Promise<() => (status: number | undefined) => void>;

export function addHandlerBody({
	type,
	name,
	url,
	method,
	headers,
}: Record<'type' | 'name' | 'url' | 'method', string> & { headers: IDataObject }): IDataObject {
	return { type, name, handler: { url, method, headers } };
}

async function prepare(
	this: InventoryOpsContext,
	context: CallContext,
): Promise<Failure | { credentials: ICredentialDataDecryptedObject; url: string }> {
	const { path, base, changesData } = ENDPOINTS[context.endpoint];
	const forItem = context.itemIndex === undefined ? '' : ` for item ${context.itemIndex}`;
	if (changesData && this.getNode().retryOnFail === true) {
		const conclusion = `'Retry On Fail' is on, and ${path} changes data: n8n would resend it after a time-out even if it was applied`;
		return notSent(
			conclusion,
			"Turn off Retry On Fail in the node's Settings (the node retries a 429 itself).",
			context,
		);
	}
	let credentials;
	try {
		credentials = await this.getCredentials(CREDENTIAL_TYPE, context.itemIndex ?? 0);
	} catch (error) {
		// n8n's own error names no item.
		const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
		const expressions = forItem
			? 'its expressions work for this item'
			: 'no expression reads an input item (publishing has none)';
		const conclusion = `Could not read the Inventory Ops API credential${forItem}: ${reason}. Nothing was sent to ${path}`;
		return notSent(
			conclusion,
			`Check that the node has an Inventory Ops API credential, and that ${expressions}.`,
			context,
		);
	}
	// Trimmed as the credential test reads it, so that an address that passed the test works.
	const baseUrl = typeof credentials[base] === 'string' ? credentials[base].trim() : '';
	if (isHttpUrl(baseUrl)) return { credentials, url: joinUrl(baseUrl, path) };
	// Else n8n's client fails before sending, and the node would report a lost connection.
	return notAnAddress(base === 'baseUrl' ? 'Base URL' : 'App Base URL', baseUrl, context);
}

/**
 * Sends one call and reads its answer into the body or one Failure; never throws for what the
 * service or the network does. A 429 (the service did nothing) is sent again within the retry
 * policy; a read once more after a lost connection.
 */
export async function callService(
	this: InventoryOpsContext,
	endpoint: Endpoint,
	body: IDataObject,
	options: RequestOptions = {},
): Promise<{ kind: 'answered'; body: unknown } | Failure> {
	const context = { endpoint, itemIndex: options.itemIndex };
	const prepared = await prepare.call(this, context);
	if ('kind' in prepared) return prepared;
	const { credentials, url } = prepared;
	const request: IHttpRequestOptions = {
		method: 'POST',
		url,
		body,
		json: true,
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	// Else n8n reads the credential again for item 0, mixing items' token and address.
	const send = async (to: string) =>
		(await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			{ ...request, url: to },
			{
				credentialsDecrypted: {
					id: '',
					name: CREDENTIAL_TYPE,
					type: CREDENTIAL_TYPE,
					data: credentials,
				},
			},
		)) as Answered;
	const gate = options.rateLimitGate ?? new RateLimitGate();
	const attempt = async (): Promise<Sent<Answered>> => {
		const sending = await options.onAttempt?.();
		await gate.pass();
		const settled = sending?.();
		const sent = await send(url).then(
			(response) => ({ response }),
			(error: unknown) => ({ error }),
		);
		settled?.('response' in sent ? sent.response.statusCode : undefined);
		return sent;
	};
	let repeatsLeft = ENDPOINTS[endpoint].changesData ? 0 : 1;
	const sent = await retryRateLimited(gate, async () => {
		const first = await attempt();
		return 'error' in first && repeatsLeft-- > 0 ? await attempt() : first;
	});
	if ('error' in sent) return failureFromNetwork(sent.error, context);
	const { statusCode: status, body: answer, headers } = sent.response;
	const refusal = status >= 200 && status < 300 ? refusalIn(answer) : undefined;
	if (status >= 200 && status < 300 && refusal === undefined) {
		const unexpected = unexpectedShape(endpoint, answer);
		return unexpected === undefined
			? { kind: 'answered', body: answer }
			: failureFromUnreadable(unexpected, context);
	}
	const [id, known] = [String(body._id), learnt(this).unknownIdAnswer];
	const removal = endpoint === 'webhookRemoveHandler' && { ...options, id, known, send };
	const handler = removal ? await handlerVerdict(url, sent.response, removal) : undefined;
	const notes = status === 429 ? waitNotes(gate, headers['retry-after']) : [];
	return failureFromAnswer(refusal ? 200 : status, answer, {
		...context,
		accessToken: credentials.accessToken,
		handler,
		notes,
	});
}

/**
 * Learns the service's answer to `id`, which it cannot know, unless one is learnt at this Base URL:
 * best-effort, in a few seconds, without retries. Only right after the service has shown it works.
 */
export async function learnUnknownIdAnswer(
	this: InventoryOpsContext,
	id: string,
	itemIndex?: number,
): Promise<void> {
	const prepared = await prepare.call(this, { endpoint: 'webhookRemoveHandler', itemIndex });
	const known = learnt(this).unknownIdAnswer;
	if ('kind' in prepared || known?.at === withoutUrlCredentials(prepared.url)) return;
	const rateLimitGate = new RateLimitGate(runRetryPolicy(0));
	const probe = { itemIndex, timeoutMs: 3_000, learn: true, rateLimitGate };
	const outcome = await callService.call(this, 'webhookRemoveHandler', { _id: id }, probe);
	// A new object: n8n saves static data only when a top-level key changes.
	if (outcome.kind !== 'answered' && outcome.handler?.learnt)
		learnt(this).unknownIdAnswer = { ...outcome.handler.learnt };
}
