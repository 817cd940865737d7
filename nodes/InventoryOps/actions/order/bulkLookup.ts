import { NodeApiError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { inventoryOpsApiRequest } from '../../transport';
import { isPlainObject } from '../../shared/objects';
import { chunk, runWithConcurrency } from '../helpers/concurrency';
import type { OrderReference } from './references';

export interface ResultEntry extends IDataObject {
	order?: IDataObject;
	metrics?: IDataObject;
	barcode_generation_failed?: IDataObject;
}

/** (store_id, order_number) as one map key; the service's result order says nothing about which is which. */
export function referenceKey(storeId: unknown, orderNumber: unknown): string {
	return JSON.stringify([String(storeId), String(orderNumber)]);
}

/** Each distinct reference of the run, with the input items that asked for it (in item order). */
export type AskedReferences = Map<string, { reference: OrderReference; itemIndexes: number[] }>;

export interface LookUpSettings {
	batchSize: number;
	callsInFlight: number;
	timeoutMs: number;
}

export interface LookUpResults {
	found: Map<string, ResultEntry>;
	/** The error of the call that should have answered a reference, by reference key. */
	failed: Map<string, unknown>;
}

function unexpectedAnswer(this: IExecuteFunctions, itemIndex: number): NodeApiError {
	return new NodeApiError(this.getNode(), { endpoint: '/order/get_single_bulk' } as JsonObject, {
		message: 'The service answered the bulk order lookup with something other than a list',
		itemIndex,
	});
}

/**
 * Sends each distinct reference once, in batches with a bounded number of calls in flight, and keeps every returned
 * order under its (store_id, order_number). Without continue-on-fail the first failure stops the run.
 */
export async function lookUpOrders(
	this: IExecuteFunctions,
	asked: AskedReferences,
	settings: LookUpSettings,
): Promise<LookUpResults> {
	const found = new Map<string, ResultEntry>();
	const failed = new Map<string, unknown>();
	let stoppingError: unknown;
	await runWithConcurrency(
		chunk([...asked.entries()], settings.batchSize),
		settings.callsInFlight,
		async (batch) => {
			const firstAsker = batch[0][1].itemIndexes[0];
			const wanted = new Set(batch.map(([key]) => key));
			try {
				const answer = await inventoryOpsApiRequest.call(
					this,
					'orderGetSingleBulk',
					{ order: batch.map(([, entry]) => entry.reference) },
					{ itemIndex: firstAsker, timeoutMs: settings.timeoutMs },
				);
				if (!Array.isArray(answer)) throw unexpectedAnswer.call(this, firstAsker);
				for (const entry of answer as unknown[]) {
					if (!isPlainObject(entry) || !isPlainObject(entry.order)) continue;
					const key = referenceKey(entry.order.store_id, entry.order.order_number);
					if (wanted.has(key) && !found.has(key)) found.set(key, entry as ResultEntry);
				}
			} catch (error) {
				if (!this.continueOnFail()) stoppingError ??= error;
				for (const key of wanted) failed.set(key, error);
			}
		},
		() => stoppingError !== undefined,
	);
	if (stoppingError !== undefined) throw stoppingError;
	return { found, failed };
}

/**
 * A new top-level object per output item, so items that asked for the same order never share one object that a
 * later node could change for both (nested parts are shared, as n8n shares them between branches).
 */
export function outputFor(entry: ResultEntry, mode: string): IDataObject {
	if (mode === 'entry') return { ...entry };
	const order = { ...(entry.order ?? {}) };
	// The order record has no such field, so adding it cannot collide, and a failure is never hidden.
	if (entry.barcode_generation_failed !== undefined) {
		order.barcode_generation_failed = entry.barcode_generation_failed;
	}
	return order;
}
