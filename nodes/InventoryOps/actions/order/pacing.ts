import type { OnAttempt } from '../../transport';

// Auto starts at 4 and waits two rounds before its first rise: the fastest call needs samples, and a service that
// takes a burst and then answers 429 meets no more calls than a fixed 4. A call within 1.5 times the fastest of its
// size (plus 5 ms of jitter) is flat; beyond twice it queues.
const AUTO_START = 4;
const MEASURED_ROUNDS = 2;
const FLAT_FACTOR = 1.5;
const FLAT_SLACK_MS = 5;
const SLOW_FACTOR = 2;
// A doubled batch is kept at 0.8 or less of the time per reference before (latency-bound: 0.5; per reference: 1.0),
// judged on at least 2 answers; a doubling whose call could come near the Timeout is not tried.
const FASTER_PER_REFERENCE = 0.8;
const MEASURED_ANSWERS = 2;
const TIMEOUT_SHARE = 4;

export interface PacingSettings {
	batchSize: number;
	callsInFlight: number | 'auto';
	maxCallsInFlight: number;
	maxBatchSize: number;
	timeoutMs: number;
}

export type CallsInFlightReport = ReturnType<AutoCallsInFlight['report']>;
export type BatchGrowthReport = ReturnType<BatchGrowth['report']>;

/**
 * Calls in Flight: Auto (reads only), additive increase and multiplicative decrease as TCP's window: one more call
 * per round while calls answer 2xx and flat (never doubled: a burst-then-429 service would get a doubled round of
 * 429s); halved once per round on a 429, a 5xx or no answer, and never raised after a 429 (the service has a rate,
 * not a width); one fewer per queueing call, down to the start. Attempts are timed from sending to answer (not the
 * wait at the 429 gate), against the fastest of their own size: a grown batch is slower without queueing.
 */
export class AutoCallsInFlight {
	private window: number;
	private ceiling: number;
	private readonly start: number;
	private readonly fastestBySize = new Map<number, number>();
	private sent = 0;
	private lastCut = 0;
	private open = 0;
	private peakOpen = 0;
	private waiting: Array<() => void> = [];
	private rateLimited = false;
	private failures = 0;
	private answeredWell = 0;

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
	 * The transport's hook for each attempt of a call of `size`: it takes a place in flight before the 429 gate, so
	 * that calls waiting out a 429 do not all go again at once; `answered` hears the time of a 2xx.
	 */
	onAttempt(size: number, answered: (ms: number) => void, now = Date.now): OnAttempt {
		return async () => {
			if (this.open < this.limit) this.take();
			else await new Promise<void>((resolve) => this.waiting.push(resolve));
			return () => {
				const ticket = ++this.sent;
				const startedAt = now();
				return (status) => {
					const full = this.open >= this.limit;
					const ms = now() - startedAt;
					this.open--;
					this.settled(ticket, status, ms, full, size);
					while (this.open < this.limit && this.waiting.length > 0) {
						this.take();
						this.waiting.shift()?.();
					}
					if (status !== undefined && status >= 200 && status < 300) answered(ms);
				};
			};
		};
	}

	private take(): void {
		this.peakOpen = Math.max(this.peakOpen, ++this.open);
	}

	/** `moved` is false when Auto never left its start: nothing to say. `failures`: 5xx, time-outs, no connection. */
	report() {
		const { cap, limit: settledOn, peakOpen: peak, rateLimited, failures } = this;
		return { moved: settledOn !== this.start || peak > this.start, cap, settledOn, peak, rateLimited, failures };
	}

	private settled(ticket: number, status: number | undefined, ms: number, full: boolean, size: number): void {
		if (status === 429 || status === undefined || status >= 500) {
			if (status === 429) this.rateLimited = true;
			else this.failures++;
			if (ticket > this.lastCut) {
				this.lastCut = this.sent;
				this.window = Math.max(1, Math.floor(this.limit / 2));
			}
			// Also when a 5xx cut this round already: a 429 means the service has a rate, whatever came first.
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

/**
 * Batch growth: when Auto cannot put more calls in flight, more references per call. While enough remain to fill
 * every place at the larger size, batches double up to Max Batch Size, each doubling measured before the next and
 * kept only when clearly faster per reference; otherwise the run goes back and grows no more, as after a refusal.
 */
export class BatchGrowth {
	private size: number;
	private trialFrom: number | undefined;
	private stopped: 'refused' | 'notFaster' | undefined;
	private triedSize: number | undefined;
	private readonly timings = new Map<number, { answers: number; fastestMs: number; slowestMs: number }>();

	constructor(
		private readonly batchSize: number,
		private readonly max: number,
		private readonly timeoutMs: number,
	) {
		this.size = batchSize;
	}

	/** The next batch's size, given Auto's `places` in flight, whether it is `atCeiling`, and the references left. */
	next(places: number, atCeiling: boolean, remaining: number): number {
		if (this.trialFrom !== undefined) this.judgeTrial(places);
		if (this.mayDouble(places, atCeiling, remaining)) {
			this.trialFrom = this.size;
			this.size = Math.min(this.max, this.size * 2);
		}
		return this.size;
	}

	answered(length: number, ms: number): void {
		const timing = this.timings.get(length) ?? { answers: 0, fastestMs: Number.POSITIVE_INFINITY, slowestMs: 0 };
		timing.answers++;
		timing.fastestMs = Math.min(timing.fastestMs, ms);
		timing.slowestMs = Math.max(timing.slowestMs, ms);
		this.timings.set(length, timing);
	}

	refused(length: number): void {
		if (this.stopped === 'refused') return;
		this.stopped = 'refused';
		this.triedSize = length;
		this.trialFrom = undefined;
	}

	/** `triedSize`: the size refused first, or found not faster. */
	report(accepted: number) {
		const grewTo = Math.min(this.size, accepted);
		const stoppedBy = this.stopped ?? (grewTo >= this.max ? 'max' : 'other');
		return { from: this.batchSize, grewTo, max: this.max, stoppedBy, triedSize: this.triedSize };
	}

	private judgeTrial(places: number): void {
		const before = this.trialFrom as number;
		const now = this.timings.get(this.size);
		if (now === undefined || now.answers < Math.max(MEASURED_ANSWERS, places)) return;
		this.trialFrom = undefined;
		const beforeMs = this.timings.get(before)?.fastestMs as number;
		if (now.fastestMs / this.size >= (beforeMs / before) * FASTER_PER_REFERENCE) {
			this.stopped = 'notFaster';
			this.triedSize = this.size;
			this.size = before;
		}
	}

	private mayDouble(places: number, atCeiling: boolean, remaining: number): boolean {
		if (this.stopped !== undefined || !atCeiling || this.size >= this.max) return false;
		const timing = this.timings.get(this.size);
		// Also holds a doubling still being measured.
		if (timing === undefined || timing.answers < Math.max(MEASURED_ANSWERS, places)) return false;
		// Larger batches that leave places empty at the end of the run would lose what they gain.
		if (remaining < places * Math.min(this.max, this.size * 2)) return false;
		return timing.slowestMs * 2 * TIMEOUT_SHARE <= this.timeoutMs;
	}
}

/** How many references per call and how many calls at a time, for one run: fixed, or Auto with batch growth. */
export class Pacing {
	private readonly auto?: AutoCallsInFlight;
	private readonly growth?: BatchGrowth;

	constructor(private readonly settings: PacingSettings) {
		if (settings.callsInFlight !== 'auto') return;
		this.auto = new AutoCallsInFlight(settings.maxCallsInFlight);
		this.growth = new BatchGrowth(settings.batchSize, settings.maxBatchSize, settings.timeoutMs);
	}

	/** With Auto, the transport's hook for a call of `length` references (grown sizes are timed apart). */
	onAttempt(length: number): OnAttempt | undefined {
		const grown = length > this.settings.batchSize ? length : 0;
		return this.auto?.onAttempt(grown, (ms) => this.growth?.answered(length, ms));
	}

	refused(length: number): void {
		this.growth?.refused(length);
	}

	/**
	 * Sends `entries` in batches, each cut only when a call may start (so that its size follows what the run learnt,
	 * never above `accepted()`), until all are sent or `stop()`; rejects with the first `send` that throws. Auto's
	 * number is read again as each call ends: a lower one starts none until fewer run.
	 */
	async run<T>(entries: T[], accepted: () => number, send: (batch: T[]) => Promise<unknown>, stop: () => boolean) {
		const { auto, growth, settings } = this;
		let cut = 0;
		let running = 0;
		await new Promise<void>((resolve, reject) => {
			const fill = () => {
				while (running < Math.max(1, auto?.limit ?? Number(settings.callsInFlight)) && !stop() && cut < entries.length) {
					const size = auto && growth
						? Math.min(growth.next(auto.limit, auto.atCeiling, entries.length - cut), accepted())
						: settings.batchSize;
					const batch = entries.slice(cut, (cut += size));
					running++;
					send(batch).then(() => {
						running--;
						fill();
					}, reject);
				}
				if (running === 0) resolve();
			};
			fill();
		});
	}

	/** What Auto did (when it moved) and how batches grew (beyond Batch Size), for the notices. */
	report(accepted: number): { callsInFlight?: CallsInFlightReport; batchGrowth?: BatchGrowthReport } {
		const callsInFlight = this.auto?.report();
		const batchGrowth = this.growth?.report(accepted);
		return {
			callsInFlight: callsInFlight?.moved ? callsInFlight : undefined,
			batchGrowth: batchGrowth && batchGrowth.grewTo > this.settings.batchSize ? batchGrowth : undefined,
		};
	}
}
