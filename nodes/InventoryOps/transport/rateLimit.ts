import { sleep } from 'n8n-workflow';

export interface RetryPolicy {
	/** How many times one call retries a 429 answer before it is reported. */
	maxRetries: number;
	/** The most the gate stays closed in all, in milliseconds (for one call, or for a whole run when shared). */
	maxTotalWaitMs: number;
	/** The first backoff when the service gives no Retry-After, doubled on each retry. */
	baseDelayMs: number;
}

/** For a call made on its own: a few retries, half a minute at most. */
const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, maxTotalWaitMs: 30_000, baseDelayMs: 500 };

/**
 * For calls of a run sharing one gate: the wait budget bounds the run; the retry count only stops a call that a
 * service answering `Retry-After: 0` would otherwise keep busy.
 */
export function runRetryPolicy(maxTotalWaitMs: number): RetryPolicy {
	return { maxRetries: 10, maxTotalWaitMs, baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs };
}

/** Reads Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, now: number = Date.now()): number | undefined {
	const header = Array.isArray(value) ? value[0] : value;
	if (typeof header !== 'string' && typeof header !== 'number') return undefined;
	const text = String(header).trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** The wait before retry number `attempt` (0-based), or undefined when the policy says stop. */
export function nextRetryDelay(
	policy: RetryPolicy,
	attempt: number,
	waitedMs: number,
	retryAfterHeader: unknown,
): number | undefined {
	if (attempt >= policy.maxRetries) return undefined;
	const delay = parseRetryAfter(retryAfterHeader) ?? policy.baseDelayMs * 2 ** attempt;
	if (waitedMs + delay > policy.maxTotalWaitMs) return undefined;
	return delay;
}

/**
 * The 429 waits of the calls that share it (all calls in flight of one run, or a single call). When the service
 * tells one call to wait, the gate closes until then, and no call sharing it is sent meanwhile: a rate limit is
 * the service's, not the call's. The time the gate stays closed counts against the policy's budget.
 */
export class RateLimitGate {
	private openAt = 0;
	private closedMs = 0;

	constructor(readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY) {}

	/** Resolves when the gate is open. */
	async pass(): Promise<void> {
		for (let wait = this.openAt - Date.now(); wait > 0; wait = this.openAt - Date.now()) await sleep(wait);
	}

	/** How long the gate has stayed closed so far, in milliseconds. */
	get waitedMs(): number {
		return this.closedMs;
	}

	/**
	 * After a 429 on retry `attempt` of one call: closes the gate for the wait the service asked for (or a backoff)
	 * and returns true, or returns false when the retries or the budget are used up.
	 */
	close(attempt: number, retryAfterHeader: unknown): boolean {
		const now = Date.now();
		const from = Math.max(now, this.openAt);
		const delay = nextRetryDelay(this.policy, attempt, 0, retryAfterHeader);
		if (delay === undefined) return false;
		const extension = Math.max(0, now + delay - from);
		if (this.closedMs + extension > this.policy.maxTotalWaitMs) return false;
		this.closedMs += extension;
		this.openAt = from + extension;
		return true;
	}
}
