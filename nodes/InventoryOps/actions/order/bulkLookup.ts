import { NodeApiError, type IExecuteFunctions } from 'n8n-workflow';

import { inventoryOpsApiRequest, RateLimitGate, runRetryPolicy, type CallObserver } from '../../transport';
import { BatchGrowth } from '../helpers/batchGrowth';
import { AutoCallsInFlight } from '../helpers/callsInFlight';
import { chunk, runWithConcurrency } from '../helpers/concurrency';
import { mapAnswer, unexpectedAnswer, type Batch, type LookUpResults } from './answerMapping';
import type { AskedReferences } from './references';

export interface LookUpSettings {
	batchSize: number;
	/** A fixed number, or 'auto' (helpers/callsInFlight.ts) up to maxCallsInFlight. */
	callsInFlight: number | 'auto';
	maxCallsInFlight: number;
	/** With Calls in Flight 'auto': the largest batch the run may grow to (helpers/batchGrowth.ts). */
	maxBatchSize: number;
	timeoutMs: number;
	/** The most the run waits for the service's rate limit in all, in milliseconds. */
	rateLimitWaitMs: number;
}

/**
 * Calls a run may make beyond one per batch, to find the service's batch limit or the one reference in a batch
 * that the service refuses (README: "Batches the service refuses"). With 100 references per batch, one malformed
 * reference costs about 14 extra calls, and a limit of 50 costs one extra call per batch in flight.
 */
const MAX_EXTRA_CALLS_PER_RUN = 200;

/** A batch refused as a whole: too long, or one of its references is malformed. Halves of it may go through. */
function refusedAsBatch(error: unknown): boolean {
	return error instanceof NodeApiError && (error.httpCode === '400' || error.httpCode === '413');
}

/**
 * Sends each distinct reference once, in batches with a bounded number of calls in flight, and keeps every returned
 * order under its reference. A batch the service refuses with 400 or 413 is sent again as two halves (a lookup
 * changes nothing), down to single references, within MAX_EXTRA_CALLS_PER_RUN; when both halves of a refused batch
 * go through, their size is used for the rest of the run. All calls share one rate-limit gate. Without
 * continue-on-fail the first failure stops the run.
 * Batches are cut as places in flight free up, so that with Calls in Flight Auto their size can follow what the run
 * learnt: grown while calls are slow and few (helpers/batchGrowth.ts), or the size that went through after a
 * refusal. A fixed Calls in Flight cuts every batch at Batch Size, as it always did.
 */
export async function lookUpOrders(
	this: IExecuteFunctions,
	asked: AskedReferences,
	settings: LookUpSettings,
	keep: LookUpResults['keep'],
): Promise<LookUpResults> {
	const results: LookUpResults = { found: new Map(), failed: new Map(), keep };
	const gate = new RateLimitGate(runRetryPolicy(settings.rateLimitWaitMs));
	// The largest size known to go through: none known until a refused batch's halves both go through.
	let sendSize = Number.POSITIVE_INFINITY;
	let extraCalls = 0;
	let answersLackStoreId = false;
	let stoppingError: unknown;
	const auto = settings.callsInFlight === 'auto' ? new AutoCallsInFlight(settings.maxCallsInFlight) : undefined;
	const growth = auto ? new BatchGrowth(settings.batchSize, settings.maxBatchSize, settings.timeoutMs) : undefined;

	/** Auto's observer of one call of `length` references; batch growth hears how long it took when it answered well. */
	const observe = (length: number): CallObserver | undefined => {
		const grown = length > settings.batchSize ? length : 0;
		return auto?.observer(grown, (ms) => growth?.answered(length, ms));
	};

	/** Sends a batch; true when every part of it was accepted (each reference answered or known missing). */
	const send = async (batch: Batch): Promise<boolean> => {
		if (stoppingError !== undefined) return false;
		const parts = batch.length > sendSize ? chunk(batch, sendSize) : answersLackStoreId ? withUniqueNumbers(batch) : [];
		if (parts.length > 1) {
			let accepted = true;
			for (const part of parts) accepted = (await send(part)) && accepted;
			return accepted;
		}
		const itemIndex = batch[0][1].itemIndex;
		try {
			// A list: the transport checked the answer's shape (ENDPOINTS' `answer`).
			const answer = (await inventoryOpsApiRequest.call(
				this,
				'orderGetSingleBulk',
				{ order: batch.map(([, entry]) => entry.reference) },
				{ itemIndex, timeoutMs: settings.timeoutMs, rateLimitGate: gate, observer: observe(batch.length) },
			)) as unknown[];
			const mapped = mapAnswer.call(this, batch, answer, results, itemIndex);
			if (mapped.withoutStoreId) answersLackStoreId = true;
			if (mapped.ambiguous.length > 0) await askApart(mapped.ambiguous, batch, itemIndex);
			return true;
		} catch (error) {
			if (refusedAsBatch(error)) growth?.refused(batch.length);
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

	const entries = [...asked.entries()];
	let cut = 0;
	const nextBatch = (): Batch | undefined => {
		if (cut >= entries.length) return undefined;
		const size = auto && growth ? Math.min(growth.next(auto.limit, auto.atCeiling, entries.length - cut), sendSize) : settings.batchSize;
		const batch = entries.slice(cut, cut + size);
		cut += batch.length;
		return batch;
	};

	await runWithConcurrency(
		nextBatch,
		auto ? () => auto.limit : Number(settings.callsInFlight),
		async (batch) => {
			await send(batch);
		},
		() => stoppingError !== undefined,
	);
	if (stoppingError !== undefined) throw stoppingError;
	if (sendSize < settings.batchSize) results.batchSizeUsed = sendSize;
	if (auto) results.callsInFlight = auto.report();
	const grew = growth?.report(sendSize);
	if (grew && grew.grewTo > settings.batchSize) results.batchGrowth = grew;
	return results;
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
