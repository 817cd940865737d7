import { NodeApiError, type IDataObject, type IHookFunctions, type JsonObject } from 'n8n-workflow';

import { inventoryOpsApiRequest } from '../transport';
import type { HandlerRecord } from './state';
import { isPlainObject } from '../shared/objects';

export interface RemovalFailure {
	record: HandlerRecord;
	error: Error;
}


const NOT_FOUND = /not[\s_-]?found|unknown|no such|does not exist/i;

/**
 * The service does not say what remove_handler answers for an `_id` it does not know (docs/service-interface.md,
 * Removing a handler the service does not know). A 404 that is about the handler, or a `{ success: false }` that
 * gives no other reason, means the handler is gone: that is what we wanted. A 404 for the route itself (a wrong
 * Base URL) is a real failure, or we would forget handlers that still exist.
 */
function isUnknownHandlerError(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return false;
	const code = isPlainObject(error.errorResponse) ? String(error.errorResponse.code ?? '') : '';
	return !/route/i.test(code) && !/route|path/i.test(error.message);
}

function answerSaysFailed(answer: unknown): string | undefined {
	if (!isPlainObject(answer) || answer.success !== false) return undefined;
	const detail = isPlainObject(answer.error) ? answer.error : answer;
	const reason = [detail.code, detail.message].filter((part) => typeof part === 'string').join(': ');
	if (reason === '' || NOT_FOUND.test(reason)) return undefined;
	return reason;
}

/** Removes one handler; undefined when it is gone from the service (or was never known there), else the error. */
async function removeOne(this: IHookFunctions, record: HandlerRecord): Promise<Error | undefined> {
	let answer: unknown;
	try {
		answer = await inventoryOpsApiRequest.call(this, 'webhookRemoveHandler', { _id: record.id } as IDataObject);
	} catch (error) {
		if (isUnknownHandlerError(error)) return undefined;
		return error instanceof Error ? error : new Error(String(error));
	}
	const failure = answerSaysFailed(answer);
	if (failure === undefined) return undefined;
	return new NodeApiError(this.getNode(), answer as JsonObject, {
		message: `The service refused to remove handler ${record.id}: ${failure}`,
	});
}

/**
 * Removes the handlers all at once (a handful per trigger): a republish removes and adds while n8n does not take
 * deliveries, so every round trip saved shortens the time in which events find no handler. Returns those that
 * could not be removed, in the order given.
 */
export async function removeHandlerRecords(
	this: IHookFunctions,
	records: HandlerRecord[],
): Promise<RemovalFailure[]> {
	const removable = records.filter((record) => record.id !== undefined);
	const errors = await Promise.all(removable.map(async (record) => await removeOne.call(this, record)));
	return removable.flatMap((record, index) => {
		const error = errors[index];
		return error === undefined ? [] : [{ record, error }];
	});
}

export function describeHandler(record: HandlerRecord): string {
	return `"${record.name}" (type ${record.type}${record.id ? `, id ${record.id}` : ', no id'})`;
}

/** The failed removals as records to keep; the reason is told when it fails (error or log), not stored. */
export function asLeftovers(failures: RemovalFailure[]): HandlerRecord[] {
	return failures.map(({ record }) => record);
}
