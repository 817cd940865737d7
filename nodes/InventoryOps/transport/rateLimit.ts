import { sleep } from 'n8n-workflow';

/**
 * `maxTotalWaitMs`: the most the gate stays closed in all; `baseDelayMs`: the first backoff,
 * doubled each retry.
 */
export type RetryPolicy = Record<'maxRetries' | 'maxTotalWaitMs' | 'baseDelayMs', number>;

const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 3,
	maxTotalWaitMs: 30_000,
	baseDelayMs: 500,
};

/**
 * For a run's shared gate: the wait bounds the run; the count only stops endless `Retry-After: 0`.
 */
export function runRetryPolicy(maxTotalWaitMs: number): RetryPolicy {
	return { maxRetries: 10, maxTotalWaitMs, baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs };
}

/** Retry-After (seconds or an HTTP date) in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Undefined when the policy says stop. */
export function nextRetryDelay(
	policy: RetryPolicy,
	attempt: number,
	retryAfterHeader: unknown,
): number | undefined {
	const delay = parseRetryAfter(retryAfterHeader) ?? policy.baseDelayMs * 2 ** attempt;
	return attempt >= policy.maxRetries || delay > policy.maxTotalWaitMs ? undefined : delay;
}

/**
 * A rate limit is the service's: when one call sharing the gate is told to wait, none is sent until
 * then.
 */
export class RateLimitGate {
	private openAt = 0;
	waitedMs = 0;

	constructor(readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY) {}

	async pass(): Promise<void> {
		for (let wait = this.openAt - Date.now(); wait > 0; wait = this.openAt - Date.now())
			await sleep(wait);
	}

	/** After a 429: closes the gate for the wait asked (or a backoff); false when out of budget. */
	close(attempt: number, retryAfterHeader: unknown): boolean {
		const now = Date.now();
		const from = Math.max(now, this.openAt);
		const delay = nextRetryDelay(this.policy, attempt, retryAfterHeader);
		if (delay === undefined) return false;
		const extension = Math.max(0, now + delay - from);
		if (this.waitedMs + extension > this.policy.maxTotalWaitMs) return false;
		this.waitedMs += extension;
		this.openAt = from + extension;
		return true;
	}
}

export type Sent<R> = { response: R } | { error: unknown };

/** Sends again after each 429 the gate lets it wait for; `send` passes the gate itself. */
export async function retryRateLimited<
	R extends { statusCode: number; headers?: Record<string, unknown> },
>(gate: RateLimitGate, send: () => Promise<Sent<R>>): Promise<Sent<R>> {
	for (let attempt = 0; ; attempt++) {
		const sent = await send();
		if (
			!('response' in sent) ||
			sent.response.statusCode !== 429 ||
			!gate.close(attempt, sent.response.headers?.['retry-after'])
		)
			return sent;
	}
}
