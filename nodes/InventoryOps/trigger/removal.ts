import { NodeApiError, sleep, type IDataObject, type IHookFunctions } from 'n8n-workflow';

import {
	apiErrorFromUnexpectedAnswer,
	inventoryOpsApiRequest,
	NOTHING_REMOVED,
	readRemovalAnswer,
	saysHandlerUnknown,
} from '../transport';
import type { HandlerRecord } from './state';
import { isPlainObject } from '../shared/objects';

export interface RemovalFailure {
	record: HandlerRecord;
	error: Error;
}

/** The waits before each further round of removals at unpublish: rounds at about 0, 1, 3 and 7 s. */
const RETRY_WAITS_MS = [1000, 2000, 4000];
/** No round starts later than this after the first, however long the calls took. */
const RETRY_BUDGET_MS = 10_000;

/** What n8n's log needs to place a warning of the trigger: the workflow and the node. */
export function logContext(this: IHookFunctions): { workflowId: string | undefined; node: string } {
	return { workflowId: this.getWorkflow().id, node: this.getNode().name };
}

/** What the user is told about a handler the service gave no id for, in the log and in every emitted event. */
export function unremovableNotice(record: HandlerRecord): string {
	return `The Inventory Ops service did not return an id for the webhook handler "${record.name}" (event type ${record.type}, URL ${record.url}), so this trigger cannot remove it when the workflow is deactivated. Remove it in Inventory Ops yourself once it is no longer needed. Its deliveries are refused after a deactivation, because every activation uses a new secret.`;
}

/**
 * Removes one handler; undefined when it is gone from the service (or was never known there), else the error.
 * The answers are read in transport/answers.ts, the same reading as Webhook Handler -> Remove's: an unknown handler
 * (a 404 about it, a refusal saying not found, a bare `success: false`) is what we wanted; a bare `success: false`
 * is logged with the words the Remove operation outputs.
 */
async function removeOnce(this: IHookFunctions, record: HandlerRecord): Promise<Error | undefined> {
	let answer: IDataObject;
	try {
		// The transport checked that the answer is an object (ENDPOINTS' `answer`).
		answer = (await inventoryOpsApiRequest.call(this, 'webhookRemoveHandler', { _id: record.id } as IDataObject)) as IDataObject;
	} catch (error) {
		if (error instanceof NodeApiError) {
			const code = isPlainObject(error.errorResponse) ? error.errorResponse.code : undefined;
			if (saysHandlerUnknown(error.httpCode, code, error.message)) return undefined;
		}
		return error instanceof Error ? error : new Error(String(error));
	}
	const reading = readRemovalAnswer(answer);
	if ('problem' in reading) {
		return apiErrorFromUnexpectedAnswer(reading.problem, { node: this.getNode(), endpoint: 'webhookRemoveHandler' });
	}
	if (!reading.removed) {
		this.logger.warn(`Inventory Ops Trigger: handler ${describeHandler(record)}: ${NOTHING_REMOVED}`, logContext.call(this));
	}
	return undefined;
}

/**
 * A removal worth trying again: the service failed (5xx) or no answer came. Repeating one is safe even when the
 * failed try did remove the handler: the service then no longer knows it, and whatever it answers for an unknown
 * handler reads as nothing removed (docs/service-interface.md, Removing a handler the service does not know), so a
 * repeat changes nothing a first success would not have. A refusal (4xx) or an answer the node cannot read would be
 * the same the next time.
 */
function worthRetrying(error: Error): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const noAnswer = isPlainObject(error.errorResponse) && error.errorResponse.networkError !== undefined;
	return noAnswer || Number(error.httpCode) >= 500;
}

async function removeAll(this: IHookFunctions, records: HandlerRecord[]): Promise<RemovalFailure[]> {
	const errors = await Promise.all(records.map(async (record) => await removeOnce.call(this, record)));
	return records.flatMap((record, index) => {
		const error = errors[index];
		return error === undefined ? [] : [{ record, error }];
	});
}

/**
 * Removes the handlers all at once (a handful per trigger): a republish removes and adds while n8n does not take
 * deliveries, so every round trip saved shortens the time in which events find no handler. With `retry` (at
 * unpublish, the last chance before the handlers are only a record) the failures worth it are tried again together,
 * for a few seconds; at publish n8n 2.x repeats the whole activation itself. Returns those that could not be removed.
 */
export async function removeHandlerRecords(
	this: IHookFunctions,
	records: HandlerRecord[],
	retry = false,
): Promise<RemovalFailure[]> {
	const started = Date.now();
	let failures = await removeAll.call(this, records.filter((record) => record.id !== undefined));
	for (const wait of retry ? RETRY_WAITS_MS : []) {
		const retried = failures.filter(({ error }) => worthRetrying(error));
		if (retried.length === 0 || Date.now() - started + wait > RETRY_BUDGET_MS) break;
		await sleep(wait);
		const again = await removeAll.call(this, retried.map(({ record }) => record));
		failures = [...failures.filter((failure) => !retried.includes(failure)), ...again];
	}
	return failures;
}

export function describeHandler(record: HandlerRecord): string {
	return `"${record.name}" (type ${record.type}${record.id ? `, id ${record.id}` : ', no id'})`;
}

/**
 * The handlers left on the service (id and type: short enough for n8n's toast), how to remove them by hand, and what
 * the service answered (the first answer: usually one cause for all). Both n8n lines show nothing of an unpublish to the
 * user, so the next publish's error says it again while they still cannot be removed.
 */
export function unremovedReport(failures: RemovalFailure[], whose = ''): string {
	const reason = failures[0].error.message.replace(/[^.!?]$/, '$&.');
	const list = failures.map(({ record }) => `${record.id} (${record.type})`).join(', ');
	return `${failures.length} webhook handler(s)${whose} could not be removed: ${list}. To remove them by hand, run the Inventory Ops node's Webhook Handler → Remove with each ID. ${reason}`;
}
