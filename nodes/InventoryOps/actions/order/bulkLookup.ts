import { NodeApiError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { inventoryOpsApiRequest, RateLimitGate, runRetryPolicy } from '../../transport';
import { readBulkAnswer } from '../../transport/answers';
import { ENDPOINTS } from '../../transport/endpoints';
import { Pacing, type BatchGrowthReport, type CallsInFlightReport, type PacingSettings } from './pacing';
import { referenceKey, type AskedReference, type AskedReferences } from './references';

export interface ResultEntry extends IDataObject {
	order?: IDataObject;
	metrics?: IDataObject;
	barcode_generation_failed?: IDataObject;
}

type Batch = Array<[string, AskedReference]>;

/** By reference key: each found order as the output keeps it, or the error of its call. */
export interface LookUpResults {
	found: Map<string, IDataObject>;
	keep: (entry: ResultEntry) => IDataObject;
	failed: Map<string, unknown>;
	batchSizeUsed?: number;
	callsInFlight?: CallsInFlightReport;
	batchGrowth?: BatchGrowthReport;
}

export interface LookUpSettings extends PacingSettings {
	rateLimitWaitMs: number;
}

// Calls beyond one per batch, to find the batch limit or the one reference refused (README: "Batches the service
// refuses"): at 100 per batch, one malformed reference costs about 14.
const MAX_EXTRA_CALLS_PER_RUN = 200;

/** Refused as a whole: too long, or one reference is malformed. Its halves may go through. */
function refusedAsBatch(error: unknown): boolean {
	return error instanceof NodeApiError && (error.httpCode === '400' || error.httpCode === '413');
}

/**
 * Sends each distinct reference once, in paced batches sharing one rate-limit gate. A refused batch is sent again as
 * two halves (a lookup changes nothing); when both go through, their size is kept for the run.
 */
export async function lookUpOrders(
	this: IExecuteFunctions, asked: AskedReferences, settings: LookUpSettings, keep: LookUpResults['keep'],
): Promise<LookUpResults> {
	const results: LookUpResults = { found: new Map(), failed: new Map(), keep };
	const gate = new RateLimitGate(runRetryPolicy(settings.rateLimitWaitMs));
	const pacing = new Pacing(settings);
	const path = ENDPOINTS.orderGetSingleBulk.path;
	// The largest size known to go through.
	let sendSize = Number.POSITIVE_INFINITY;
	let extraCalls = 0;
	let answersLackStoreId = false;
	let stoppingError: unknown;

	const fail = (keys: Iterable<string>, itemIndex: number, message: string) => {
		const error = new NodeApiError(this.getNode(), { endpoint: path } as JsonObject, { message, itemIndex });
		for (const key of keys) results.failed.set(key, error);
	};

	/**
	 * Records each order under its reference, by order_number alone when it has no store_id and one reference has that
	 * number; where more have it, they are returned to be asked apart, never guessed. Unreadable entries make the
	 * references left fail rather than be called not found.
	 */
	const record = (batch: Batch, answer: unknown[], itemIndex: number): string[] => {
		const wanted = new Set(batch.map(([key]) => key));
		const answered = new Set<string>();
		const ambiguous = new Set<string>();
		const { entries, unreadable } = readBulkAnswer(answer);
		let byNumber: Map<string, string[]> | undefined;
		for (const { entry, storeId, orderNumber } of entries) {
			let key = storeId === undefined ? undefined : referenceKey(storeId, orderNumber);
			if (key === undefined) {
				answersLackStoreId = true;
				byNumber ??= keysByNumber(batch);
				const candidates = byNumber.get(String(orderNumber)) ?? [];
				if (candidates.length > 1) for (const candidate of candidates) ambiguous.add(candidate);
				else key = candidates[0];
			}
			if (key !== undefined && wanted.has(key) && !answered.has(key)) {
				answered.add(key);
				results.found.set(key, results.keep(entry as ResultEntry));
			}
		}
		for (const key of ambiguous) {
			answered.add(key);
			results.found.delete(key);
		}
		if (unreadable.length > 0) {
			const listed = `${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? '; …' : ''}`;
			const count = `${unreadable.length} entr${unreadable.length === 1 ? 'y' : 'ies'}`;
			const message = `The service answered ${path} for this batch with ${count} the node cannot read (${listed}), so it cannot tell which references were not found`;
			fail([...wanted].filter((key) => !answered.has(key)), itemIndex, message);
		}
		return [...ambiguous];
	};

	/** True when every part of the batch went through. */
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
			const answer = (await inventoryOpsApiRequest.call(
				this,
				'orderGetSingleBulk',
				{ order: batch.map(([, entry]) => entry.reference) },
				{ itemIndex, timeoutMs: settings.timeoutMs, rateLimitGate: gate, onAttempt: pacing.onAttempt(batch.length) },
			)) as unknown[]; // the transport checked that it is a list
			const ambiguous = record(batch, answer, itemIndex);
			if (ambiguous.length > 0) await askApart(batch.filter(([key]) => ambiguous.includes(key)), itemIndex);
			return true;
		} catch (error) {
			if (refusedAsBatch(error)) pacing.refused(batch.length);
			if (batch.length > 1 && refusedAsBatch(error) && extraCalls + 2 <= MAX_EXTRA_CALLS_PER_RUN) {
				extraCalls += 2;
				const half = Math.ceil(batch.length / 2);
				const first = await send(batch.slice(0, half));
				const second = await send(batch.slice(half));
				// Both halves went through: the whole was refused for its length.
				if (first && second && half < sendSize) sendSize = half;
				return false;
			}
			if (!this.continueOnFail()) stoppingError ??= error;
			for (const [key] of batch) results.failed.set(key, error);
			return false;
		}
	};

	const askApart = async (retry: Batch, itemIndex: number): Promise<void> => {
		const parts = withUniqueNumbers(retry);
		if (extraCalls + parts.length > MAX_EXTRA_CALLS_PER_RUN) {
			const message = `Cannot tell whose order it is: the service returned orders without a store_id for an order_number asked in several stores, and this run's ${MAX_EXTRA_CALLS_PER_RUN} extra calls are used up`;
			return fail(retry.map(([key]) => key), itemIndex, message);
		}
		extraCalls += parts.length;
		for (const part of parts) await send(part);
	};

	await pacing.run([...asked.entries()], () => sendSize, send);
	if (stoppingError !== undefined) throw stoppingError;
	if (sendSize < settings.batchSize) results.batchSizeUsed = sendSize;
	return Object.assign(results, pacing.report(sendSize));
}

function keysByNumber(batch: Batch): Map<string, string[]> {
	const byNumber = new Map<string, string[]>();
	for (const [key, { reference }] of batch) {
		const keys = byNumber.get(reference.order_number);
		if (keys === undefined) byNumber.set(reference.order_number, [key]);
		else keys.push(key);
	}
	return byNumber;
}

/** Parts of a batch in which no order_number appears twice. */
function withUniqueNumbers(batch: Batch): Batch[] {
	const parts: Batch[] = [];
	const seen = new Map<string, number>();
	for (const entry of batch) {
		const number = entry[1].reference.order_number;
		const layer = seen.get(number) ?? 0;
		seen.set(number, layer + 1);
		(parts[layer] ??= []).push(entry);
	}
	return parts;
}

function inParts(batch: Batch, size: number): Batch[] {
	return Array.from({ length: Math.ceil(batch.length / size) }, (_, part) => batch.slice(part * size, (part + 1) * size));
}
