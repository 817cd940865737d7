import { NodeApiError, type IDataObject, type IHookFunctions } from 'n8n-workflow';

import {
	apiErrorFromUnexpectedAnswer,
	inventoryOpsApiRequest,
	NOTHING_REMOVED,
	readRemovalAnswer,
	saysHandlerUnknown,
} from '../transport';
import { logContext } from './notices';
import type { HandlerRecord } from './state';
import { isPlainObject } from '../shared/objects';

export interface RemovalFailure {
	record: HandlerRecord;
	error: Error;
}

/**
 * Removes one handler; undefined when it is gone from the service (or was never known there), else the error.
 * The answers are read in transport/answers.ts, the same reading as Webhook Handler -> Remove's: an unknown handler
 * (a 404 about it, a refusal saying not found, a bare `success: false`) is what we wanted; a bare `success: false`
 * is logged with the words the Remove operation outputs.
 */
async function removeOne(this: IHookFunctions, record: HandlerRecord): Promise<Error | undefined> {
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
