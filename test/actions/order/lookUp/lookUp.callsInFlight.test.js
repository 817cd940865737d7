// Calls in Flight: Auto (Order -> Get Many's default) against the sandbox over real HTTP, with the
// sandbox's `latencyMs` switch. Every assertion reads what the sandbox observed: `concurrent` on
// each recorded call is how many service calls were open when it arrived (sandbox/README.md), never
// a time measured here. They assert behaviour with margins a loaded machine does not cross (a stall
// only makes calls look slower, so Auto rises less); the exact thresholds are driven with chosen
// times in test/actions/order/pacing.test.js and bulkLookup.pacing.test.js.
const { useInventoryOps } = require('../../../helpers/inventoryOps');
const {
	BY_LIST,
	COUNTED,
	ROUTE,
	hintsOf,
	knownReferences,
} = require('../../../helpers/autoLookUps');

// Only the first test needs Auto to rise, which a stall of this process longer than half a call
// (100 ms at 200 ms per call) can hold back. A failed test here runs again, at most twice.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

const ctx = useInventoryOps({ orders: 4000 });
let known;

beforeAll(async () => {
	known = await knownReferences(ctx, 4000);
});

const mostInFlight = (calls) => Math.max(...calls.map((call) => call.concurrent));

/**
 * Looks up `count` known orders in one input item (Batch Size 50) and checks each was found. Max
 * Batch Size 50 keeps every call at 50: these tests count calls, and Auto held after a 429 would
 * otherwise grow its batches (test/actions/order/lookUp/lookUp.batchGrowth.test.js).
 */
async function lookUp(count, options = {}) {
	const refs = known.slice(0, count);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 50, maxBatchSize: 50, ...options } },
		{ items: [{ refs }] },
	);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(count);
	expect(result.items.filter((item) => item.json._id === undefined)).toEqual([]);
	return { result, calls: await ctx.sandbox.calls(ROUTE) };
}

test('Auto keeps more calls in flight at 200 ms per call than at 0 ms, and says where it settled', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 0 });
	const atZero = await lookUp(4000);
	await ctx.sandbox.reset();
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 200 });
	const atSlow = await lookUp(4000);

	expect(atZero.calls).toHaveLength(80);
	expect(atSlow.calls).toHaveLength(80);
	// Slow calls that stay as slow as the fastest: Auto raises toward its cap (16) and ends above the
	// start (4).
	expect(mostInFlight(atSlow.calls)).toBeGreaterThan(mostInFlight(atZero.calls));
	expect(mostInFlight(atSlow.calls)).toBeGreaterThan(4);
	expect(hintsOf(atSlow.result)).toEqual([
		{
			message: expect.stringMatching(
				/^Calls in Flight \(Auto\) settled on \d+ at a time in this run \(it reached \d+; Max Calls in Flight is 16\)\./,
			),
			type: 'info',
			location: 'outputPane',
		},
	]);
}, 60_000);

test('Auto adds one call per round, never doubles a round: a service that takes a burst and then answers 429 gets no doubled round', async () => {
	// No rate limit here: what is read is how fast the number grows while every call answers well and
	// flat. From 4, one more per round (4, 5, 6, 7: 22 calls) comes before any call with 8 in flight;
	// rounds that double (TCP's slow start: 4, 8) would reach 8 by the 12th call.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	const { calls } = await lookUp(2000);
	expect(calls).toHaveLength(40);
	const firstWithEight = calls.findIndex((call) => call.concurrent >= 8);
	expect(firstWithEight === -1 || firstWithEight >= 22).toBe(true);
}, 60_000);

test('Auto never keeps more calls in flight than Max Calls in Flight', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	const { calls, result } = await lookUp(2000, { maxCallsInFlight: 6 });
	expect(mostInFlight(calls)).toBeLessThanOrEqual(6);
	expect(hintsOf(result)[0].message).toMatch(/reached [4-6]; Max Calls in Flight is 6\)/);
}, 60_000);

test('a fixed number stays fixed: Calls in Flight 2 keeps 2 in flight however slow the calls', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	const { calls, result } = await lookUp(1000, { callsInFlight: 2 });
	expect(mostInFlight(calls)).toBe(2);
	expect(hintsOf(result)).toEqual([]);
}, 60_000);

test('a 429 storm: Auto backs off to one or two calls at a time, fails no item, and says the rate limit held it', async () => {
	// Three calls per second: more calls in flight than that can only draw 429s.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 20, rateLimit: { max: 3, windowMs: 1000 } });
	const { calls, result } = await lookUp(1000, { rateLimitWait: 60 });
	const limited = calls.filter((call) => call.status === 429);
	expect(limited.length).toBeGreaterThan(0);
	expect(calls.filter((call) => call.status === 200)).toHaveLength(20);
	// Halved at the first 429 of a round, and again at the next round's: by the end, one or two at a
	// time.
	expect(mostInFlight(calls.slice(-8))).toBeLessThanOrEqual(2);
	expect(hintsOf(result)[0].message).toMatch(
		/settled on [12] at a time.*the service answered 429 \(rate limit\)/,
	);
}, 60_000);

test('a service that takes a burst and then refuses the rest of its window meets no more calls in flight than fixed 4 would send', async () => {
	// Ten calls per window, then 429 to every call until it ends (the bench's "10 per 20 s",
	// shortened). Every call in flight when the burst runs out gets 429, so Auto must not have grown
	// past the fixed default by then: it measures two rounds at 4 before its first rise.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 20, rateLimit: { max: 10, windowMs: 2000 } });
	const { calls } = await lookUp(1000, { rateLimitWait: 60 });
	expect(calls.filter((call) => call.status === 200)).toHaveLength(20);
	const firstLimited = calls.findIndex((call) => call.status === 429);
	expect(firstLimited).toBe(10);
	const answeredAfter = calls.findIndex(
		(call, index) => index > firstLimited && call.status === 200,
	);
	const storm = calls.slice(firstLimited, answeredAfter);
	// Fixed 4 has at most 4 calls out when the window closes; the doubled or early-grown Auto had 5
	// or 6.
	expect(storm.length).toBeGreaterThan(0);
	expect(storm.length).toBeLessThanOrEqual(4);
	expect(mostInFlight(storm)).toBeLessThanOrEqual(4);
}, 60_000);

test('calls that got 429 together go again at the lowered number, not all at once when the wait ends', async () => {
	// The first round (4 calls at once) all answer 429: Auto halves to 2, and the four waiting calls
	// take places one by one when the gate opens, so no later call arrives with more than 2 in
	// flight.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 50 });
	await ctx.sandbox.fault({ route: ROUTE, count: 4, status: 429, retryAfter: 1 });
	const { calls } = await lookUp(1000, { rateLimitWait: 60 });
	expect(calls.slice(0, 4).map((call) => call.status)).toEqual([429, 429, 429, 429]);
	expect(mostInFlight(calls.slice(0, 4))).toBe(4);
	expect(calls.slice(4).filter((call) => call.status === 200)).toHaveLength(20);
	expect(mostInFlight(calls.slice(4))).toBe(2);
}, 60_000);

test('a 429 in the same round as a 5xx still keeps Auto down for the rest of the run', async () => {
	// The first call answers 503 (Auto halves to 2), the second 429 in the same round: that round is
	// cut once, but the 429 still means the service has a rate, so the number must not rise again.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 503 });
	const refs = known.slice(0, 2000);
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 429, retryAfter: 1 });
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 50, rateLimitWait: 60 } },
		{ items: [{ refs }], continueOnFail: true },
	);
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls.slice(0, 2).map((call) => call.status)).toEqual([503, 429]);
	expect(mostInFlight(calls.slice(4))).toBeLessThanOrEqual(2);
	expect(hintsOf(result)[0].message).toMatch(
		/settled on [12] at a time.*the service answered 429 \(rate limit\)/,
	);
}, 60_000);

test('a 5xx lowers Auto at once, and the call fails', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 50 });
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 503 });
	const refs = known.slice(0, 2000);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 50 } },
		{ items: [{ refs }], continueOnFail: true },
	);
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls[0].status).toBe(503);
	expect(hintsOf(result)[0].message).toMatch(
		/1 call\(s\) failed or timed out, and each lowered it/,
	);
}, 60_000);

test('after a 5xx the run goes on, and the notice counts the failure without a rate limit', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	await ctx.sandbox.fault({ route: ROUTE, count: 1, status: 503 });
	const refs = known.slice(0, 2000);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 50 } },
		{ items: [{ refs }], continueOnFail: true },
	);
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls).toHaveLength(40);
	expect(calls[0].status).toBe(503);
	// Halved to 2 at the 503; whether it climbs back (pacing.test.js) depends on the times, but no
	// 429 holds it.
	const [hint] = hintsOf(result);
	expect(hint.message).toMatch(/1 call\(s\) failed or timed out, and each lowered it/);
	expect(hint.message).not.toMatch(/429/);
}, 60_000);

test('a dropped connection lowers Auto as a 5xx does: the read is sent again, and the notice counts the failure', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 50 });
	await ctx.sandbox.fault({ route: ROUTE, count: 1, drop: 'before' });
	const { calls, result } = await lookUp(500);
	expect(calls).toHaveLength(11);
	expect(calls.filter((call) => call.dropped === 'before')).toHaveLength(1);
	expect(hintsOf(result)).toEqual([
		expect.objectContaining({
			message: expect.stringMatching(
				/^Calls in Flight \(Auto\) settled on [1-3] at a time in this run \(it reached 4; Max Calls in Flight is 16\): 1 call\(s\) failed or timed out, and each lowered it\./,
			),
		}),
	]);
}, 60_000);

test('writes never run in parallel: Kit -> Create for many items sends one call at a time, even at 100 ms', async () => {
	await ctx.sandbox.config({ latencyMs: 100 });
	const [component] = await ctx.sandbox.items();
	const items = Array.from({ length: 8 }, (_, n) => ({ n }));
	const result = await ctx.run(
		{
			resource: 'kit',
			operation: 'create',
			inputMode: 'fields',
			name: '={{ "Kit " + $json.n }}',
			sku: '={{ "KIT-PAR-" + $json.n }}',
			kitItems: { item: [{ itemId: component.item_id, sku: '', quantity: 1, type: 'item' }] },
		},
		{ items },
	);
	expect(result.error).toBeUndefined();
	const calls = await ctx.sandbox.calls('/api/kit/create');
	expect(calls).toHaveLength(8);
	expect(calls.map((call) => call.concurrent)).toEqual(Array(8).fill(1));
}, 60_000);
