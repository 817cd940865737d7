import { NodeApiError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { readBulkAnswer } from '../../transport';
import { ENDPOINTS } from '../../transport/endpoints';
import { referenceKey, type AskedReference } from './references';
import type { BatchGrowthReport } from '../helpers/batchGrowth';
import type { CallsInFlightReport } from '../helpers/callsInFlight';

export interface ResultEntry extends IDataObject {
	order?: IDataObject;
	metrics?: IDataObject;
	barcode_generation_failed?: IDataObject;
}

/** The references one call asks for, by reference key. */
export type Batch = Array<[string, AskedReference]>;

/**
 * What the run found: by reference key, what each found order becomes in the output (kept as each answer arrives,
 * so that with Simplify on the whole order records are not all held until the run ends), and why a reference has
 * no answer (the error of its call).
 */
export interface LookUpResults {
	found: Map<string, IDataObject>;
	/** What of a returned entry the run keeps for the output (output.ts). */
	keep: (entry: ResultEntry) => IDataObject;
	failed: Map<string, unknown>;
	/** Set when the service refused the batch size asked for and a smaller one went through for the rest. */
	batchSizeUsed?: number;
	/** Set when Calls in Flight was Auto: what the run settled on. */
	callsInFlight?: CallsInFlightReport;
	/** Set when Calls in Flight was Auto and the run grew its batches beyond Batch Size. */
	batchGrowth?: BatchGrowthReport;
}

/** An answer of the bulk lookup the node cannot read, as the error of the item that asked. */
export function unexpectedAnswer(this: IExecuteFunctions, itemIndex: number, message: string): NodeApiError {
	return new NodeApiError(this.getNode(), { endpoint: ENDPOINTS.orderGetSingleBulk.path } as JsonObject, {
		message,
		itemIndex,
	});
}

/** What one answer told: which references it could not place, and whether its orders carried no store_id. */
interface MappedAnswer {
	ambiguous: string[];
	withoutStoreId: boolean;
}

/**
 * Gives each returned order to the reference of this batch it answers: by (store_id, order_number) when the
 * order carries both; by order_number alone when the order carries no store_id and only one reference of the
 * batch has that number. Where more have it, the order could be another store's: those references are returned
 * as ambiguous (to be asked again apart), never given a guess. When the batch had orders that could not be placed
 * at all, its references left without an order fail rather than being called not found.
 */
export function mapAnswer(
	this: IExecuteFunctions,
	batch: Batch,
	answer: unknown[],
	results: LookUpResults,
	itemIndex: number,
): MappedAnswer {
	const wanted = new Set(batch.map(([key]) => key));
	const byNumber = numbersOf(batch);
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
		// One of the unreadable entries may be the order of a reference left without one: it is not "not found".
		const error = unexpectedAnswer.call(
			this,
			itemIndex,
			`The service answered ${ENDPOINTS.orderGetSingleBulk.path} for this batch with ${unreadable.length} entr${unreadable.length === 1 ? 'y' : 'ies'} the node cannot read (${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? '; …' : ''}), so it cannot tell which references were not found`,
		);
		for (const key of wanted) if (!answered.has(key)) results.failed.set(key, error);
	}
	return { ambiguous: [...ambiguous], withoutStoreId };
}

function numbersOf(batch: Batch): Map<string, string[]> {
	const byNumber = new Map<string, string[]>();
	for (const [key, { reference }] of batch) {
		const keys = byNumber.get(reference.order_number) ?? [];
		keys.push(key);
		byNumber.set(reference.order_number, keys);
	}
	return byNumber;
}
