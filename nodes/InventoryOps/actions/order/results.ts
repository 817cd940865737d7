import { NodeApiError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { readBulkAnswer } from '../../transport';
import { ENDPOINTS } from '../../transport/endpoints';
import type { BatchGrowthReport, CallsInFlightReport } from './pacing';
import { referenceKey, type AskedReference } from './references';

export interface ResultEntry extends IDataObject {
	order?: IDataObject;
	metrics?: IDataObject;
	barcode_generation_failed?: IDataObject;
}

/** The references one call asks for, by reference key. */
export type Batch = Array<[string, AskedReference]>;

/**
 * What the run found, by reference key: what each found order becomes in the output (kept as each answer arrives,
 * so that with Simplify on the whole records are not all held until the run ends), and the error of each reference
 * without an answer.
 */
export interface LookUpResults {
	found: Map<string, IDataObject>;
	keep: (entry: ResultEntry) => IDataObject;
	failed: Map<string, unknown>;
	/** Set when the service refused the batch size asked for and a smaller one went through. */
	batchSizeUsed?: number;
	callsInFlight?: CallsInFlightReport;
	batchGrowth?: BatchGrowthReport;
}

export function unexpectedAnswer(this: IExecuteFunctions, itemIndex: number, message: string): NodeApiError {
	const endpoint = { endpoint: ENDPOINTS.orderGetSingleBulk.path } as JsonObject;
	return new NodeApiError(this.getNode(), endpoint, { message, itemIndex });
}

/**
 * Records each returned order under the reference of this batch it answers: by (store_id, order_number) when the
 * order carries both; by order_number alone when it carries no store_id and only one reference of the batch has that
 * number. Where more have it, the order could be another store's: those references are returned as ambiguous (to be
 * asked apart), never given a guess. When the answer had entries the node cannot read, the references left without
 * an order fail rather than being called not found.
 */
export function recordAnswer(
	this: IExecuteFunctions,
	batch: Batch,
	answer: unknown[],
	results: LookUpResults,
	itemIndex: number,
): { ambiguous: string[]; withoutStoreId: boolean } {
	const wanted = new Set(batch.map(([key]) => key));
	const byNumber = new Map<string, string[]>();
	for (const [key, { reference }] of batch) byNumber.set(reference.order_number, [...(byNumber.get(reference.order_number) ?? []), key]);
	const answered = new Set<string>();
	const ambiguous = new Set<string>();
	let withoutStoreId = false;
	const { entries, unreadable } = readBulkAnswer(answer);
	for (const { entry, storeId, orderNumber } of entries) {
		if (storeId !== undefined) {
			const key = referenceKey(storeId, orderNumber);
			if (wanted.has(key) && !answered.has(key)) {
				answered.add(key);
				results.found.set(key, results.keep(entry as ResultEntry));
			}
			continue;
		}
		withoutStoreId = true;
		const candidates = byNumber.get(String(orderNumber)) ?? [];
		if (candidates.length === 1 && !answered.has(candidates[0])) {
			answered.add(candidates[0]);
			results.found.set(candidates[0], results.keep(entry as ResultEntry));
		} else if (candidates.length > 1) {
			for (const key of candidates) ambiguous.add(key);
		}
	}
	for (const key of ambiguous) {
		answered.add(key);
		results.found.delete(key);
	}
	if (unreadable.length > 0) {
		const listed = `${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? '; …' : ''}`;
		const error = unexpectedAnswer.call(
			this,
			itemIndex,
			`The service answered ${ENDPOINTS.orderGetSingleBulk.path} for this batch with ${unreadable.length} entr${unreadable.length === 1 ? 'y' : 'ies'} the node cannot read (${listed}), so it cannot tell which references were not found`,
		);
		for (const key of wanted) if (!answered.has(key)) results.failed.set(key, error);
	}
	return { ambiguous: [...ambiguous], withoutStoreId };
}
