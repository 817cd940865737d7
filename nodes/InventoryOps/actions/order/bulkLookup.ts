import { NodeApiError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { inventoryOpsApiRequest, RateLimitGate, runRetryPolicy } from '../../transport';
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

type Batch = Array<[string, { reference: OrderReference; itemIndexes: number[] }]>;

export interface LookUpSettings {
	batchSize: number;
	callsInFlight: number;
	timeoutMs: number;
	/** The most the run waits for the service's rate limit in all, in milliseconds. */
	rateLimitWaitMs: number;
}

export interface LookUpResults {
	found: Map<string, ResultEntry>;
	/** Why a reference has no answer: the error of the call that should have answered it, by reference key. */
	failed: Map<string, unknown>;
	/** Set when the service refused the batch size asked for and a smaller one went through for the rest. */
	batchSizeUsed?: number;
}

/**
 * Calls a run may make beyond one per batch, to find the service's batch limit or the one reference in a batch
 * that the service refuses (README: "Batches the service refuses"). With 100 references per batch, one malformed
 * reference costs about 14 extra calls, and a limit of 50 costs one extra call per batch in flight.
 */
export const MAX_EXTRA_CALLS_PER_RUN = 200;

/** A batch refused as a whole: too long, or one of its references is malformed. Halves of it may go through. */
function refusedAsBatch(error: unknown): boolean {
	return error instanceof NodeApiError && (error.httpCode === '400' || error.httpCode === '413');
}

function unexpectedAnswer(this: IExecuteFunctions, itemIndex: number, message: string): NodeApiError {
	return new NodeApiError(this.getNode(), { endpoint: '/order/get_single_bulk' } as JsonObject, {
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
function mapAnswer(
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
	let unplaced = 0;
	for (const entry of answer) {
		if (!isPlainObject(entry) || !isPlainObject(entry.order)) continue;
		const { store_id: storeId, order_number: orderNumber } = entry.order;
		if (orderNumber === undefined || orderNumber === null) {
			unplaced++;
			continue;
		}
		if (storeId !== undefined && storeId !== null) {
			const key = referenceKey(storeId, orderNumber);
			if (wanted.has(key) && !answered.has(key)) {
				answered.add(key);
				results.found.set(key, entry as ResultEntry);
			}
			continue;
		}
		withoutStoreId = true;
		const candidates = byNumber.get(String(orderNumber)) ?? [];
		if (candidates.length === 1 && !answered.has(candidates[0])) {
			answered.add(candidates[0]);
			results.found.set(candidates[0], entry as ResultEntry);
		} else if (candidates.length > 1) {
			for (const key of candidates) ambiguous.add(key);
		}
	}
	for (const key of ambiguous) {
		answered.add(key);
		results.found.delete(key);
	}
	if (unplaced > 0) {
		const error = unexpectedAnswer.call(
			this,
			itemIndex,
			`The service returned ${unplaced} order(s) without an order_number in this batch, so the node cannot tell which references were not found`,
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

/** Splits a batch so that no order_number appears twice in one part (for a service whose orders carry no store_id). */
function withUniqueNumbers(batch: Batch): Batch[] {
	const parts: Batch[] = [];
	const seen = new Map<string, number>();
	for (const entry of batch) {
		const layer = seen.get(entry[1].reference.order_number) ?? 0;
		seen.set(entry[1].reference.order_number, layer + 1);
		(parts[layer] ??= []).push(entry);
	}
	return parts;
}

/**
 * Sends each distinct reference once, in batches with a bounded number of calls in flight, and keeps every returned
 * order under its reference. A batch the service refuses with 400 or 413 is sent again as two halves (a lookup
 * changes nothing), down to single references, within MAX_EXTRA_CALLS_PER_RUN; when both halves of a refused batch
 * go through, their size is used for the rest of the run. All calls share one rate-limit gate. Without
 * continue-on-fail the first failure stops the run.
 */
export async function lookUpOrders(
	this: IExecuteFunctions,
	asked: AskedReferences,
	settings: LookUpSettings,
): Promise<LookUpResults> {
	const results: LookUpResults = { found: new Map(), failed: new Map() };
	const gate = new RateLimitGate(runRetryPolicy(settings.rateLimitWaitMs));
	let sendSize = settings.batchSize;
	let extraCalls = 0;
	let answersLackStoreId = false;
	let stoppingError: unknown;

	/** Sends a batch; true when every part of it was accepted (each reference answered or known missing). */
	const send = async (batch: Batch): Promise<boolean> => {
		if (stoppingError !== undefined) return false;
		const parts = batch.length > sendSize ? chunk(batch, sendSize) : answersLackStoreId ? withUniqueNumbers(batch) : [];
		if (parts.length > 1) {
			let accepted = true;
			for (const part of parts) accepted = (await send(part)) && accepted;
			return accepted;
		}
		const itemIndex = batch[0][1].itemIndexes[0];
		try {
			const answer = await inventoryOpsApiRequest.call(
				this,
				'orderGetSingleBulk',
				{ order: batch.map(([, entry]) => entry.reference) },
				{ itemIndex, timeoutMs: settings.timeoutMs, rateLimitGate: gate },
			);
			if (!Array.isArray(answer)) {
				throw unexpectedAnswer.call(this, itemIndex, 'The service answered the bulk order lookup with something other than a list');
			}
			const mapped = mapAnswer.call(this, batch, answer, results, itemIndex);
			if (mapped.withoutStoreId) answersLackStoreId = true;
			if (mapped.ambiguous.length > 0) await askApart(mapped.ambiguous, batch, itemIndex);
			return true;
		} catch (error) {
			if (batch.length > 1 && refusedAsBatch(error) && extraCalls + 2 <= MAX_EXTRA_CALLS_PER_RUN) {
				extraCalls += 2;
				const half = Math.ceil(batch.length / 2);
				const first = await send(batch.slice(0, half));
				const second = await send(batch.slice(half));
				// Both halves went through: the whole was refused for its length, not for one of its references.
				if (first && second && half < sendSize) sendSize = half;
				return false;
			}
			if (!this.continueOnFail()) stoppingError ??= error;
			for (const [key] of batch) results.failed.set(key, error);
			return false;
		}
	};

	/** References whose order came back without a store_id, next to the same number of another store. */
	const askApart = async (keys: string[], batch: Batch, itemIndex: number): Promise<void> => {
		const retry = batch.filter(([key]) => keys.includes(key));
		const parts = withUniqueNumbers(retry);
		if (extraCalls + parts.length > MAX_EXTRA_CALLS_PER_RUN) {
			const error = unexpectedAnswer.call(
				this,
				itemIndex,
				`The service returned orders without a store_id, and this batch asked for the same order_number in more than one store: the node cannot tell whose order it is, and it has used its ${MAX_EXTRA_CALLS_PER_RUN} extra calls for this run`,
			);
			for (const [key] of retry) results.failed.set(key, error);
			return;
		}
		extraCalls += parts.length;
		for (const part of parts) await send(part);
	};

	await runWithConcurrency(
		chunk([...asked.entries()], settings.batchSize),
		settings.callsInFlight,
		async (batch) => {
			await send(batch);
		},
		() => stoppingError !== undefined,
	);
	if (stoppingError !== undefined) throw stoppingError;
	if (sendSize < settings.batchSize) results.batchSizeUsed = sendSize;
	return results;
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
