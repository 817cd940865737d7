/**
 * A doubled batch is kept when its time per reference is at most this share of the smaller batch's. A service that
 * takes a fixed time per call (latency-bound) gives about 0.5; one that takes a fixed time per reference gives about
 * 1.0, and the margin keeps the jitter of a few calls from passing for a gain.
 */
const FASTER_PER_REFERENCE = 0.8;
/** Answers at a size before its fastest call is trusted as its time; at least one per call in flight. */
const MEASURED_ANSWERS = 2;
/** A doubled call takes up to about twice as long: it is not tried when that could come near the Timeout. */
const TIMEOUT_SHARE = 4;

/** Why the batch size stopped where it did, for the output notice. */
export type GrowthStop = 'refused' | 'notFaster' | 'max' | 'other';

/** What a run's batch size growth did, for the output notice. */
export interface BatchGrowthReport {
	from: number;
	/** The size the run kept: the largest that went through and paid off. */
	grewTo: number;
	max: number;
	stoppedBy: GrowthStop;
	/** The first size the service refused (with stoppedBy 'refused'), or the size that was not faster ('notFaster'). */
	triedSize?: number;
}

interface Timing {
	answers: number;
	fastestMs: number;
	slowestMs: number;
}

/**
 * Batch size growth, for Calls in Flight: Auto (reads only). When Auto cannot put more calls in flight (it is at Max
 * Calls in Flight, or held after a 429), the only way left to ask for more references at a time is to ask for more
 * in each call. So, while enough references remain to fill every place in flight at the larger size, the next
 * batches are doubled, up to Max Batch Size, and each doubling is measured before the next one:
 * - a doubled size is kept only when its fastest call took clearly less time per reference than the fastest call at
 *   the size before (a latency-bound service); otherwise the run goes back to the size before and grows no more;
 * - a batch the service refuses (400/413) ends growth for the run: the caller halves it, which finds the size the
 *   service accepts, and keeps that (never above the size it grew to).
 * The time of a call is Auto's: per attempt, from sending to answer, without the wait at the 429 gate.
 */
export class BatchGrowth {
	private size: number;
	/** The size before the doubling now being measured. */
	private trialFrom: number | undefined;
	private stopped: GrowthStop | undefined;
	private triedSize: number | undefined;
	private readonly timings = new Map<number, Timing>();

	constructor(
		private readonly batchSize: number,
		private readonly max: number,
		private readonly timeoutMs: number,
	) {
		this.size = batchSize;
	}

	/**
	 * The size of the next batch. `places`: how many calls Auto keeps in flight; `atCeiling`: Auto cannot raise that;
	 * `remaining`: references not yet in a batch.
	 */
	next(places: number, atCeiling: boolean, remaining: number): number {
		if (this.trialFrom !== undefined) this.judgeTrial(places);
		if (this.mayDouble(places, atCeiling, remaining)) {
			this.trialFrom = this.size;
			this.size = Math.min(this.max, this.size * 2);
		}
		return this.size;
	}

	/** A call of `length` references answered 2xx in `ms`. */
	answered(length: number, ms: number): void {
		const timing = this.timings.get(length) ?? { answers: 0, fastestMs: Number.POSITIVE_INFINITY, slowestMs: 0 };
		timing.answers++;
		timing.fastestMs = Math.min(timing.fastestMs, ms);
		timing.slowestMs = Math.max(timing.slowestMs, ms);
		this.timings.set(length, timing);
	}

	/**
	 * The service refused a batch of `length` as a whole. Any refusal ends growth: either the service has a limit,
	 * which halving finds and which larger batches would only meet again, or a reference is malformed.
	 */
	refused(length: number): void {
		if (this.stopped === 'refused') return;
		this.stopped = 'refused';
		this.triedSize = length;
		this.trialFrom = undefined;
	}

	/** `accepted`: the largest size the run found the service to take (halving), when it found one. */
	report(accepted: number): BatchGrowthReport {
		const grewTo = Math.min(this.size, accepted);
		const stoppedBy = this.stopped ?? (grewTo >= this.max ? 'max' : 'other');
		return { from: this.batchSize, grewTo, max: this.max, stoppedBy, triedSize: this.triedSize };
	}

	private needed(places: number): number {
		return Math.max(MEASURED_ANSWERS, places);
	}

	private judgeTrial(places: number): void {
		const before = this.trialFrom as number;
		const now = this.timings.get(this.size);
		if (now === undefined || now.answers < this.needed(places)) return;
		const previous = this.timings.get(before) as Timing;
		this.trialFrom = undefined;
		if (now.fastestMs / this.size >= (previous.fastestMs / before) * FASTER_PER_REFERENCE) {
			this.stopped = 'notFaster';
			this.triedSize = this.size;
			this.size = before;
		}
	}

	private mayDouble(places: number, atCeiling: boolean, remaining: number): boolean {
		if (this.stopped !== undefined || !atCeiling || this.size >= this.max) return false;
		const timing = this.timings.get(this.size);
		// Also holds a doubling still being measured: judgeTrial leaves one open only while its size has too few answers.
		if (timing === undefined || timing.answers < this.needed(places)) return false;
		// Larger batches that leave places in flight empty at the end of the run would lose what they gain.
		if (remaining < places * Math.min(this.max, this.size * 2)) return false;
		return timing.slowestMs * 2 * TIMEOUT_SHARE <= this.timeoutMs;
	}
}
