import { NodeApiError, type IExecuteFunctions } from 'n8n-workflow';

import { inventoryOpsApiRequest, RateLimitGate, runRetryPolicy } from '../../transport';
import { Pacing, type PacingSettings } from './pacing';
import { recordAnswer, unexpectedAnswer, type Batch, type LookUpResults } from './results';
import type { AskedReferences } from './references';

export interface LookUpSettings extends PacingSettings {
	/** The most the run waits for the service's rate limit in all, in milliseconds. */
	rateLimitWaitMs: number;
}

/**
 * Calls a run may make beyond one per batch, to find the service's batch limit or the one reference it refuses
 * (README: "Batches the service refuses"): at 100 per batch, one malformed reference costs about 14 extra calls.
 */
const MAX_EXTRA_CALLS_PER_RUN = 200;

/** A batch refused as a whole: too long, or one of its references is malformed. Halves of it may go through. */
function refusedAsBatch(error: unknown): boolean {
	return error instanceof NodeApiError && (error.httpCode === '400' || error.httpCode === '413');
}

/**
 * Sends each distinct reference once, in batches paced by pacing.ts, and keeps every returned order under its
 * reference. A batch refused with 400 or 413 is sent again as two halves (a lookup changes nothing), down to single
 * references, within MAX_EXTRA_CALLS_PER_RUN; when both halves go through, their size is used for the rest of the
 * run. All calls share one rate-limit gate. Without continue-on-fail the first failure stops the run.
 */
export async function lookUpOrders(
	this: IExecuteFunctions,
	asked: AskedReferences,
	settings: LookUpSettings,
	keep: LookUpResults['keep'],
): Promise<LookUpResults> {
	const results: LookUpResults = { found: new Map(), failed: new Map(), keep };
	const gate = new RateLimitGate(runRetryPolicy(settings.rateLimitWaitMs));
	const pacing = new Pacing(settings);
	// The largest size known to go through: none until a refused batch's halves both go through.
	let sendSize = Number.POSITIVE_INFINITY;
	let extraCalls = 0;
	let answersLackStoreId = false;
	let stoppingError: unknown;

	/** Sends a batch; true when every part of it was accepted (each reference answered or known missing). */
	const send = async (batch: Batch): Promise<boolean> => {
		if (stoppingError !== undefined) return false;
		const parts = batch.length > sendSize ? inParts(batch, sendSize) : answersLackStoreId ? withUniqueNumbers(batch) : [];
		if (parts.length > 1) {
			let accepted = true;
			for (const part of parts) accepted = (await send(part)) && accepted;
			return accepted;
		}
		const itemIndex = batch[0][1].itemIndex;
		try {
			// A list: the transport checked the answer's shape.
			const answer = (await inventoryOpsApiRequest.call(
				this,
				'orderGetSingleBulk',
				{ order: batch.map(([, entry]) => entry.reference) },
				{ itemIndex, timeoutMs: settings.timeoutMs, rateLimitGate: gate, onAttempt: pacing.onAttempt(batch.length) },
			)) as unknown[];
			const recorded = recordAnswer.call(this, batch, answer, results, itemIndex);
			if (recorded.withoutStoreId) answersLackStoreId = true;
			if (recorded.ambiguous.length > 0) await askApart(recorded.ambiguous, batch, itemIndex);
			return true;
		} catch (error) {
			if (refusedAsBatch(error)) pacing.refused(batch.length);
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
				`The service returned orders without a store_id for an order_number asked in more than one store, so the node cannot tell whose order it is. It has used its ${MAX_EXTRA_CALLS_PER_RUN} extra calls for this run to ask them apart`,
			);
			for (const [key] of retry) results.failed.set(key, error);
			return;
		}
		extraCalls += parts.length;
		for (const part of parts) await send(part);
	};

	await pacing.run([...asked.entries()], () => sendSize, send, () => stoppingError !== undefined);
	if (stoppingError !== undefined) throw stoppingError;
	if (sendSize < settings.batchSize) results.batchSizeUsed = sendSize;
	return Object.assign(results, pacing.report(sendSize));
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

function inParts(batch: Batch, size: number): Batch[] {
	return Array.from({ length: Math.ceil(batch.length / size) }, (_, part) => batch.slice(part * size, (part + 1) * size));
}
