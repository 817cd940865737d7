import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	callService,
	nodeErrorOf,
	RateLimitGate,
	runRetryPolicy,
	type Failure,
} from '../../transport';
import { failureFromUnreadable } from '../../transport/outcome';
import { byOrderNumber, readBulkAnswer, type Batch, type ResultEntry } from './answer';
import { Pacing, type PacingReport, type PacingSettings } from './pacing';
import type { AskedReference } from './references';

/**
 * By reference key: each found order as the output keeps it, or what its batch failed with
 * (rendered per item).
 */
export interface LookUpResults extends PacingReport {
	found: Map<string, IDataObject>;
	failed: Map<string, Failure>;
}

export type LookUpSettings = PacingSettings & { rateLimitWaitMs: number };

// Calls beyond one per batch, to find the batch limit or the one reference refused (README:
// "Batches the service refuses"): at 100 per batch, one malformed reference costs about 14.
const MAX_EXTRA_CALLS_PER_RUN = 200;
const BULK = { endpoint: 'orderGetSingleBulk' } as const;
const AMBIGUOUS = `orders without a store_id for an order_number asked in several stores, and this run's ${MAX_EXTRA_CALLS_PER_RUN} extra calls to ask them apart are used up, so the node cannot tell whose order it is`;

/**
 * One run: each distinct reference sent once, in batches paced by `Pacing`, sharing one rate-limit
 * gate.
 */
export class BulkLookup {
	private readonly found = new Map<string, IDataObject>();
	private readonly failed = new Map<string, Failure>();
	private readonly gate: RateLimitGate;
	private readonly pacing: Pacing;
	private extraCalls = 0;
	/** Once an answer lacked store_id, no batch holds an order_number twice. */
	private lacksStoreId = false;
	/** Without Continue On Fail: the first failed call, after which nothing more is sent. */
	private stopping: Failure | undefined;

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
		if (this.stopping !== undefined) throw nodeErrorOf(this.context.getNode(), this.stopping);
		return { found: this.found, failed: this.failed, ...this.pacing.report() };
	}

	/** True when every part of the batch went through. */
	private async send(batch: Batch): Promise<boolean> {
		if (this.stopping !== undefined) return false;
		let parts = this.pacing.partsOf(batch);
		if (parts.length === 1 && this.lacksStoreId) parts = withUniqueNumbers(batch);
		if (parts.length === 1) return await this.call(batch);
		let accepted = true;
		for (const part of parts) accepted = (await this.send(part)) && accepted;
		return accepted;
	}

	private async call(batch: Batch): Promise<boolean> {
		const outcome = await callService.call(
			this.context,
			BULK.endpoint,
			{ order: batch.map(([, entry]) => entry.reference) },
			{
				itemIndex: batch[0][1].itemIndex,
				timeoutMs: this.settings.timeoutMs,
				rateLimitGate: this.gate,
				onAttempt: this.pacing.onAttempt(batch.length),
			},
		);
		// The transport checked that it is a list
		if (outcome.kind === 'answered') return await this.record(batch, outcome.body as unknown[]);
		// Refused as a whole: too long, or one reference is malformed. Its halves may go through.
		const refused =
			outcome.kind === 'refused' && (outcome.status === 400 || outcome.status === 413);
		if (refused) this.pacing.refused(batch.length);
		if (refused && batch.length > 1 && this.spend(2)) {
			await this.pacing.sendHalves(batch, (half) => this.send(half));
			return false;
		}
		if (!this.context.continueOnFail()) this.stopping ??= outcome;
		this.fail(batch, outcome);
		return false;
	}

	/**
	 * Unreadable entries fail the references left (never "not found"); those an order without
	 * store_id fits are asked apart.
	 */
	private async record(batch: Batch, answer: unknown[]): Promise<true> {
		const { found, ambiguous, unreadable, lacksStoreId } = readBulkAnswer(batch, answer);
		if (lacksStoreId) this.lacksStoreId = true;
		for (const [key, entry] of found) this.found.set(key, this.keep(entry));
		if (unreadable.length > 0) {
			const listed = `${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? '; …' : ''}`;
			const problem = `${unreadable.length} entr${unreadable.length === 1 ? 'y' : 'ies'} the node cannot read (${listed}), so it cannot tell which references were not found`;
			this.fail(
				batch.filter(([key]) => !found.has(key) && !ambiguous.has(key)),
				failureFromUnreadable(problem, BULK),
			);
		}
		if (ambiguous.size === 0) return true;
		const parts = withUniqueNumbers(batch.filter(([key]) => ambiguous.has(key)));
		if (this.spend(parts.length)) for (const part of parts) await this.send(part);
		else this.fail(parts.flat(), failureFromUnreadable(AMBIGUOUS, BULK));
		return true;
	}

	private spend(calls: number): boolean {
		if (this.extraCalls + calls > MAX_EXTRA_CALLS_PER_RUN) return false;
		this.extraCalls += calls;
		return true;
	}

	private fail(batch: Batch, failure: Failure): void {
		for (const [key] of batch) this.failed.set(key, failure);
	}
}

/**
 * Parts of a batch in which no order_number appears twice: the n-th reference of a number goes in
 * part n.
 */
function withUniqueNumbers(batch: Batch): Batch[] {
	const parts: Batch[] = [];
	for (const references of byOrderNumber(batch).values())
		references.forEach((entry, n) => (parts[n] ??= []).push(entry));
	return parts;
}
