import { NodeApiError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { inventoryOpsApiRequest, RateLimitGate, runRetryPolicy } from '../../transport';
import { ENDPOINTS } from '../../transport/endpoints';
import { readBulkAnswer, type Batch, type ResultEntry } from './answer';
import { Pacing, type PacingReport, type PacingSettings } from './pacing';
import type { AskedReference } from './references';

/** By reference key: each found order as the output keeps it, or the error of its call. */
export interface LookUpResults extends PacingReport {
	found: Map<string, IDataObject>;
	failed: Map<string, unknown>;
}

export interface LookUpSettings extends PacingSettings {
	rateLimitWaitMs: number;
}

// Calls beyond one per batch, to find the batch limit or the one reference refused (README: "Batches the service
// refuses"): at 100 per batch, one malformed reference costs about 14.
const MAX_EXTRA_CALLS_PER_RUN = 200;
const PATH = ENDPOINTS.orderGetSingleBulk.path;

/** One run: each distinct reference sent once, in batches paced by `Pacing`, sharing one rate-limit gate. */
export class BulkLookup {
	private readonly found = new Map<string, IDataObject>();
	private readonly failed = new Map<string, unknown>();
	private readonly gate: RateLimitGate;
	private readonly pacing: Pacing;
	private extraCalls = 0;
	/** Once an answer lacked store_id, no batch holds an order_number twice. */
	private lacksStoreId = false;
	/** Without Continue On Fail: the first failure, after which nothing more is sent. */
	private stoppingError: unknown;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly settings: LookUpSettings,
		private readonly keep: (entry: ResultEntry) => IDataObject,
	) {
		this.gate = new RateLimitGate(runRetryPolicy(settings.rateLimitWaitMs));
		this.pacing = new Pacing(settings);
	}

	async run(asked: Map<string, AskedReference>): Promise<LookUpResults> {
		await this.pacing.run([...asked.entries()], (batch) => this.send(batch));
		if (this.stoppingError !== undefined) throw this.stoppingError;
		return { found: this.found, failed: this.failed, ...this.pacing.report() };
	}

	/** True when every part of the batch went through. */
	private async send(batch: Batch): Promise<boolean> {
		if (this.stoppingError !== undefined) return false;
		let parts = this.pacing.partsOf(batch);
		if (parts.length === 1 && this.lacksStoreId) parts = withUniqueNumbers(batch);
		if (parts.length === 1) return await this.call(batch);
		let accepted = true;
		for (const part of parts) accepted = (await this.send(part)) && accepted;
		return accepted;
	}

	private async call(batch: Batch): Promise<boolean> {
		const itemIndex = batch[0][1].itemIndex;
		try {
			const answer = (await inventoryOpsApiRequest.call(
				this.context,
				'orderGetSingleBulk',
				{ order: batch.map(([, entry]) => entry.reference) },
				{ itemIndex, timeoutMs: this.settings.timeoutMs, rateLimitGate: this.gate, onAttempt: this.pacing.onAttempt(batch.length) },
			)) as unknown[]; // the transport checked that it is a list
			await this.record(batch, answer, itemIndex);
			return true;
		} catch (error) {
			// Refused as a whole: too long, or one reference is malformed. Its halves may go through.
			const refused = error instanceof NodeApiError && (error.httpCode === '400' || error.httpCode === '413');
			if (refused) this.pacing.refused(batch.length);
			if (refused && batch.length > 1 && this.spend(2)) {
				await this.pacing.sendHalves(batch, (half) => this.send(half));
				return false;
			}
			if (!this.context.continueOnFail()) this.stoppingError ??= error;
			for (const [key] of batch) this.failed.set(key, error);
			return false;
		}
	}

	/** Unreadable entries make the references left fail rather than be called not found. */
	private async record(batch: Batch, answer: unknown[], itemIndex: number): Promise<void> {
		const { found, ambiguous, unreadable, lacksStoreId } = readBulkAnswer(batch, answer);
		if (lacksStoreId) this.lacksStoreId = true;
		for (const [key, entry] of found) this.found.set(key, this.keep(entry));
		if (unreadable.length > 0) {
			const listed = `${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? '; …' : ''}`;
			const count = `${unreadable.length} entr${unreadable.length === 1 ? 'y' : 'ies'}`;
			const message = `The service answered ${PATH} for this batch with ${count} the node cannot read (${listed}), so it cannot tell which references were not found`;
			this.fail(batch.filter(([key]) => !found.has(key) && !ambiguous.has(key)), itemIndex, message);
		}
		if (ambiguous.size > 0) await this.askApart(batch.filter(([key]) => ambiguous.has(key)), itemIndex);
	}

	private async askApart(batch: Batch, itemIndex: number): Promise<void> {
		const parts = withUniqueNumbers(batch);
		if (!this.spend(parts.length)) {
			const message = `Cannot tell whose order it is: the service returned orders without a store_id for an order_number asked in several stores, and this run's ${MAX_EXTRA_CALLS_PER_RUN} extra calls are used up`;
			return this.fail(batch, itemIndex, message);
		}
		for (const part of parts) await this.send(part);
	}

	private spend(calls: number): boolean {
		if (this.extraCalls + calls > MAX_EXTRA_CALLS_PER_RUN) return false;
		this.extraCalls += calls;
		return true;
	}

	private fail(batch: Batch, itemIndex: number, message: string): void {
		const error = new NodeApiError(this.context.getNode(), { endpoint: PATH } as JsonObject, { message, itemIndex });
		for (const [key] of batch) this.failed.set(key, error);
	}
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
