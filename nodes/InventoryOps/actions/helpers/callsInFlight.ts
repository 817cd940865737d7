import type { CallObserver } from '../../transport';

/** Auto starts where the fixed default used to be, so that a fast service is treated as before. */
const AUTO_START = 4;
/**
 * Rounds answered at the start before the first rise: the fastest call needs a few samples, and a service that takes
 * a burst and then answers 429 for the rest of its window meets no more calls in flight than the fixed 4 sent.
 */
const MEASURED_ROUNDS = 2;
/** A call counts as "as fast as ever" within this factor of the fastest call of the run, plus a little jitter. */
const FLAT_FACTOR = 1.5;
const FLAT_SLACK_MS = 5;
/** Beyond this factor the calls queue somewhere (the service, the network, this process): one fewer in flight. */
const SLOW_FACTOR = 2;

/** What a run of Auto did, for the output notice. */
export interface CallsInFlightReport {
	/** Auto raised or lowered the number (a run of a few batches leaves it where it started: nothing to say). */
	moved: boolean;
	cap: number;
	/** Where the run ended. */
	settledOn: number;
	/** The most it kept in flight. */
	peak: number;
	/** The service answered 429 at least once, so the run kept at or below what it was cut to. */
	rateLimited: boolean;
	/** Answers that lowered it: 5xx, time-outs, dropped connections. */
	failures: number;
}

/**
 * Calls in Flight: Auto, for reads only (a lookup changes nothing, so more of them at once risks nothing but the
 * service's patience). Additive increase, multiplicative decrease, as TCP does with its window:
 * - after two rounds at the start width, while every call answers 2xx about as fast as the fastest call of the run,
 *   one more call per round (never doubled per round as TCP's slow start does: a service that takes a burst and
 *   then answers 429 for the rest of its window would get the whole doubled round as 429s);
 * - a 429, a 5xx or no answer (time-out, dropped connection) halves it at once, once per round: calls sent before
 *   the cut were sent under the old number and say nothing about the new one. After a 429 the number never rises
 *   again in this run (the service has a rate, not a width; more calls in flight would only draw more 429s);
 * - calls much slower than the fastest (queueing) take one off, but not below the start, so that a service that
 *   is slow for every caller is asked as the fixed default asked it.
 * The time of a call is measured per attempt from sending to answer; the wait at the 429 gate is not in it. A call
 * is compared with the fastest call of its own size: a batch grown larger (helpers/batchGrowth.ts) takes longer
 * without anything queueing.
 */
export class AutoCallsInFlight {
	private window: number;
	private ceiling: number;
	private readonly fastestBySize = new Map<number, number>();
	private sent = 0;
	private lastCut = 0;
	private open = 0;
	private peakOpen = 0;
	private waiting: Array<() => void> = [];
	private rateLimited = false;
	private failures = 0;
	private answeredWell = 0;

	private readonly start: number;

	constructor(readonly cap: number) {
		this.start = Math.min(AUTO_START, cap);
		this.window = this.start;
		this.ceiling = cap;
	}

	/** How many calls may be in flight now. */
	get limit(): number {
		return Math.max(1, Math.min(this.ceiling, Math.floor(this.window)));
	}

	/** Auto cannot raise the number: it is at Max Calls in Flight, or held where a 429 put it. */
	get atCeiling(): boolean {
		return this.limit >= this.ceiling;
	}

	/**
	 * One observer per call: each attempt of that call (429 retries included) takes one of the places in flight
	 * before it is sent, so that calls waiting out a 429 do not all go again at once when the gate opens.
	 * `size`: calls of one size are timed against each other (0 for the sizes the user chose); `answered` hears the
	 * time of the attempt that answered 2xx.
	 */
	observer(size: number, answered: (ms: number) => void): CallObserver {
		let ticket = 0;
		let startedAt = 0;
		return {
			admit: async () => {
				if (this.open < this.limit) this.take();
				else await new Promise<void>((resolve) => this.waiting.push(resolve));
			},
			sending: () => {
				ticket = ++this.sent;
				startedAt = Date.now();
			},
			settled: (status) => {
				const full = this.open >= this.limit;
				const ms = Date.now() - startedAt;
				this.open--;
				this.settled(ticket, status, ms, full, size);
				this.wake();
				if (status !== undefined && status >= 200 && status < 300) answered(ms);
			},
		};
	}

	private take(): void {
		this.peakOpen = Math.max(this.peakOpen, ++this.open);
	}

	/** Lets waiting attempts go, first come first served, while there is room; their places are taken here. */
	private wake(): void {
		while (this.open < this.limit && this.waiting.length > 0) {
			this.take();
			this.waiting.shift()?.();
		}
	}

	report(): CallsInFlightReport {
		return { moved: this.limit !== this.start || this.peakOpen > this.start, cap: this.cap, settledOn: this.limit, peak: this.peakOpen, rateLimited: this.rateLimited, failures: this.failures };
	}

	private settled(ticket: number, status: number | undefined, ms: number, full: boolean, size: number): void {
		if (status === 429 || status === undefined || status >= 500) {
			if (status === 429) this.rateLimited = true;
			else this.failures++;
			if (ticket > this.lastCut) {
				this.lastCut = this.sent;
				this.window = Math.max(1, Math.floor(this.limit / 2));
			}
			// Also when this round was cut already (by a 5xx): a 429 means the service has a rate, whatever came first.
			if (status === 429) this.ceiling = Math.min(this.ceiling, this.limit);
			return;
		}
		if (status >= 300) return;
		this.answeredWell++;
		const fastestMs = Math.min(this.fastestBySize.get(size) ?? Number.POSITIVE_INFINITY, ms);
		this.fastestBySize.set(size, fastestMs);
		if (ms <= fastestMs * FLAT_FACTOR + FLAT_SLACK_MS) {
			// Raising a number the run does not use would only let a later burst through unmeasured.
			if (!full || this.window >= this.ceiling || this.answeredWell <= this.start * MEASURED_ROUNDS) return;
			this.window = Math.min(this.ceiling, this.window + 1 / this.window);
		} else if (ms > fastestMs * SLOW_FACTOR + FLAT_SLACK_MS && this.window > AUTO_START) {
			this.window = Math.max(AUTO_START, this.window - 1);
		}
	}
}
