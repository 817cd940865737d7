import type { OnAttempt } from '../../transport';

// Auto starts at 4 and rises after two rounds: the fastest call needs samples, and a service that
// takes a burst and then answers 429 meets no more than a fixed 4. A call within 1.5 times the
// fastest (plus jitter) is flat; beyond twice, it queues.
const AUTO_START = 4;
const MEASURED_ROUNDS = 2;
const FLAT_FACTOR = 1.5;
const FLAT_SLACK_MS = 5;
const SLOW_FACTOR = 2;
// A doubled batch is kept at 0.8 of the time per reference before or less (latency-bound: 0.5; per
// reference: 1.0); a doubling whose call could come near the Timeout is not tried.
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

export type PacingReport = ReturnType<Pacing['report']>;

/**
 * Calls in Flight: Auto (reads only), as TCP's window: one more call per round while calls answer
 * 2xx and flat (never doubled: a burst-then-429 service would get a round of 429s); halved once per
 * round on a 429, a 5xx or no answer, never raised after a 429 (the service has a rate, not a
 * width); one fewer per queueing call, down to the start. Attempts are timed from sending (not the
 * 429 gate), against the fastest of their size.
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

	get limit(): number {
		return Math.max(1, Math.min(this.ceiling, Math.floor(this.window)));
	}

	/** At Max Calls in Flight, or held where a 429 put it. */
	get atCeiling(): boolean {
		return this.limit >= this.ceiling;
	}

	/**
	 * Each attempt takes a place before the 429 gate, so that calls waiting out a 429 do not all go
	 * at once.
	 */
	onAttempt(size: number, answered: (ms: number) => void): OnAttempt {
		return async () => {
			if (this.open < this.limit) this.take();
			else await new Promise<void>((resolve) => this.waiting.push(resolve));
			return () => {
				const ticket = ++this.sent;
				const startedAt = Date.now();
				return (status) => {
					const full = this.open >= this.limit;
					const ms = Date.now() - startedAt;
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

	report() {
		const { cap, limit: settledOn, peakOpen: peak, rateLimited, failures } = this;
		return {
			moved: settledOn !== this.start || peak > this.start,
			cap,
			settledOn,
			peak,
			rateLimited,
			failures,
		};
	}

	private settled(
		ticket: number,
		status: number | undefined,
		ms: number,
		full: boolean,
		size: number,
	): void {
		if (status === 429 || status === undefined || status >= 500) {
			if (status === 429) this.rateLimited = true;
			else this.failures++;
			if (ticket > this.lastCut) {
				this.lastCut = this.sent;
				this.window = Math.max(1, Math.floor(this.limit / 2));
			}
			// Also when a 5xx cut this round: a 429 means the service has a rate.
			if (status === 429) this.ceiling = Math.min(this.ceiling, this.limit);
			return;
		}
		if (status >= 300) return;
		this.answeredWell++;
		const fastestMs = Math.min(this.fastestBySize.get(size) ?? Number.POSITIVE_INFINITY, ms);
		this.fastestBySize.set(size, fastestMs);
		if (ms <= fastestMs * FLAT_FACTOR + FLAT_SLACK_MS) {
			// Raising a number not in use would let a later burst through unmeasured.
			if (!full || this.window >= this.ceiling || this.answeredWell <= this.start * MEASURED_ROUNDS)
				return;
			this.window = Math.min(this.ceiling, this.window + 1 / this.window);
		} else if (ms > fastestMs * SLOW_FACTOR + FLAT_SLACK_MS && this.window > AUTO_START) {
			this.window = Math.max(AUTO_START, this.window - 1);
		}
	}
}

/**
 * How many references per call and how many calls at a time. When Auto cannot put more calls in
 * flight, batches double up to Max Batch Size while enough references remain, each doubling kept
 * only when clearly faster per reference; otherwise the run goes back and grows no more, as after a
 * refusal. A refused batch goes again as two halves (a lookup changes nothing); when both go
 * through, the whole was refused for its length, and no batch of the run is sent longer than that
 * half.
 */
export class Pacing {
	private readonly auto?: AutoCallsInFlight;
	private size: number;
	private accepted = Number.POSITIVE_INFINITY;
	/** The size before the doubling being measured. */
	private trialFrom: number | undefined;
	private stopped: 'refused' | 'notFaster' | undefined;
	private triedSize: number | undefined;
	private readonly timings = new Map<
		number,
		{ answers: number; fastestMs: number; slowestMs: number }
	>();

	constructor(private readonly settings: PacingSettings) {
		this.size = settings.batchSize;
		if (settings.callsInFlight === 'auto')
			this.auto = new AutoCallsInFlight(settings.maxCallsInFlight);
	}

	onAttempt(length: number): OnAttempt | undefined {
		const grown = length > this.settings.batchSize ? length : 0;
		return this.auto?.onAttempt(grown, (ms) => this.answered(length, ms));
	}

	refused(length: number): void {
		if (this.stopped === 'refused') return;
		this.stopped = 'refused';
		this.triedSize = length;
		this.trialFrom = undefined;
	}

	nextSize(remaining: number): number {
		if (!this.auto) return this.settings.batchSize;
		const places = this.auto.limit;
		const needed = Math.max(MEASURED_ANSWERS, places);
		const trial = this.timings.get(this.size);
		if (this.trialFrom !== undefined && trial !== undefined && trial.answers >= needed) {
			const before = this.trialFrom;
			this.trialFrom = undefined;
			const beforeMs = this.timings.get(before)?.fastestMs as number;
			if (trial.fastestMs / this.size >= (beforeMs / before) * FASTER_PER_REFERENCE) {
				this.stopped = 'notFaster';
				this.triedSize = this.size;
				this.size = before;
			}
		}
		if (this.mayDouble(places, needed, remaining)) {
			this.trialFrom = this.size;
			this.size = Math.min(this.settings.maxBatchSize, this.size * 2);
		}
		return Math.min(this.size, this.accepted);
	}

	/** A batch cut before a refusal taught the run a smaller size goes in parts of that size. */
	partsOf<T>(batch: T[]): T[][] {
		const size = this.accepted;
		if (batch.length <= size) return [batch];
		return Array.from({ length: Math.ceil(batch.length / size) }, (_, part) =>
			batch.slice(part * size, (part + 1) * size),
		);
	}

	/** `send` resolves to true when every part of what it was given went through. */
	async sendHalves<T>(batch: T[], send: (half: T[]) => Promise<boolean>): Promise<void> {
		const half = Math.ceil(batch.length / 2);
		const first = await send(batch.slice(0, half));
		const second = await send(batch.slice(half));
		if (first && second) this.accepted = Math.min(this.accepted, half);
	}

	private mayDouble(places: number, needed: number, remaining: number): boolean {
		const max = this.settings.maxBatchSize;
		if (this.stopped !== undefined || !this.auto?.atCeiling || this.size >= max) return false;
		const timing = this.timings.get(this.size);
		// Also holds a doubling still being measured.
		if (timing === undefined || timing.answers < needed) return false;
		// Larger batches that leave places empty at the end of the run would lose what they gain.
		if (remaining < places * Math.min(max, this.size * 2)) return false;
		return timing.slowestMs * 2 * TIMEOUT_SHARE <= this.settings.timeoutMs;
	}

	private answered(length: number, ms: number): void {
		const timing = this.timings.get(length) ?? {
			answers: 0,
			fastestMs: Number.POSITIVE_INFINITY,
			slowestMs: 0,
		};
		timing.answers++;
		timing.fastestMs = Math.min(timing.fastestMs, ms);
		timing.slowestMs = Math.max(timing.slowestMs, ms);
		this.timings.set(length, timing);
	}

	/**
	 * Sends `entries` in batches, each cut when a call may start (its size follows what the run
	 * learnt); rejects with the first `send` that throws.
	 */
	async run<T>(entries: T[], send: (batch: T[]) => Promise<unknown>) {
		let cut = 0;
		let running = 0;
		await new Promise<void>((resolve, reject) => {
			const fill = () => {
				while (
					running < Math.max(1, this.auto?.limit ?? Number(this.settings.callsInFlight)) &&
					cut < entries.length
				) {
					const batch = entries.slice(cut, (cut += this.nextSize(entries.length - cut)));
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

	report() {
		const { batchSize, maxBatchSize } = this.settings;
		const callsInFlight = this.auto?.report();
		const grewTo = Math.min(this.size, this.accepted);
		const stoppedBy = this.stopped ?? (grewTo >= maxBatchSize ? 'max' : 'other');
		return {
			batchSizeUsed: this.accepted < batchSize ? this.accepted : undefined,
			callsInFlight: callsInFlight?.moved ? callsInFlight : undefined,
			// `triedSize`: the size refused first, or found not faster.
			batchGrowth:
				this.auto && grewTo > batchSize
					? { from: batchSize, grewTo, stoppedBy, triedSize: this.triedSize }
					: undefined,
		};
	}
}
