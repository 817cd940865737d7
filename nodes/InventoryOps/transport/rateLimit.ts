import { sleep } from 'n8n-workflow';

/**
 * `maxRetries` of one call's 429; `maxTotalWaitMs`, the most the gate stays closed in all (for one call, or a run when
 * shared); `baseDelayMs`, the first backoff without a Retry-After, doubled on each retry.
 */
export type RetryPolicy = Record<'maxRetries' | 'maxTotalWaitMs' | 'baseDelayMs', number>;

const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, maxTotalWaitMs: 30_000, baseDelayMs: 500 };

/** For a run's calls sharing a gate: the wait bounds the run; the retry count only stops endless `Retry-After: 0`. */
export function runRetryPolicy(maxTotalWaitMs: number): RetryPolicy {
	return { maxRetries: 10, maxTotalWaitMs, baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs };
}

/** Retry-After (seconds or an HTTP date) in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry `attempt` (0-based), or undefined when the policy says stop. */
export function nextRetryDelay(policy: RetryPolicy, attempt: number, retryAfterHeader: unknown): number | undefined {
	const delay = parseRetryAfter(retryAfterHeader) ?? policy.baseDelayMs * 2 ** attempt;
	return attempt >= policy.maxRetries || delay > policy.maxTotalWaitMs ? undefined : delay;
}

/**
 * The 429 waits of the calls sharing it (a run's, or one call's): a rate limit is the service's, so when one call is
 * told to wait, none is sent until then. The time closed counts against the policy's budget.
 */
export class RateLimitGate {
	private openAt = 0;
	private closedMs = 0;

	constructor(readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY) {}

	async pass(): Promise<void> {
		for (let wait = this.openAt - Date.now(); wait > 0; wait = this.openAt - Date.now()) await sleep(wait);
	}

	get waitedMs(): number {
		return this.closedMs;
	}

	/** After a 429 on retry `attempt`: closes the gate for the wait asked (or a backoff); false when out of budget. */
	close(attempt: number, retryAfterHeader: unknown): boolean {
		const now = Date.now();
		const from = Math.max(now, this.openAt);
		const delay = nextRetryDelay(this.policy, attempt, retryAfterHeader);
		if (delay === undefined) return false;
		const extension = Math.max(0, now + delay - from);
		if (this.closedMs + extension > this.policy.maxTotalWaitMs) return false;
		this.closedMs += extension;
		this.openAt = from + extension;
		return true;
	}
}
