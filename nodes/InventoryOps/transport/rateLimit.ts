export interface RetryPolicy {
	/** How many times a 429 answer is retried before it is reported. */
	maxRetries: number;
	/** The most we wait in total across all retries of one call, in milliseconds. */
	maxTotalWaitMs: number;
	/** The first backoff when the service gives no Retry-After, doubled on each retry. */
	baseDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, maxTotalWaitMs: 30_000, baseDelayMs: 500 };

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
