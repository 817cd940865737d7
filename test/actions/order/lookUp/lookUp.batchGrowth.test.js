// Batch size growth with Calls in Flight: Auto (Order -> Get Many) against the sandbox over real
// HTTP, with the sandbox's `latencyMs` switch. Every size is read from what the sandbox received
// (the `order` list of each recorded call), never from the node's own report; `concurrent` on a
// call is how many service calls were open when it arrived.
const { useInventoryOps } = require('../../../helpers/inventoryOps');
const {
	BY_LIST,
	COUNTED,
	ROUTE,
	hintsOf,
	knownReferences,
} = require('../../../helpers/autoLookUps');

// Growth compares the time of calls: a machine loaded enough to stall this process for longer than
// a call makes a slow service look like one whose time grows with the batch. A failed test here
// runs again, at most twice.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

const ctx = useInventoryOps({ orders: 4000 });
let known;

beforeAll(async () => {
	known = await knownReferences(ctx, 4000);
});

const sizesOf = (calls) => calls.map((call) => call.body.order.length);
const growthHints = (result) =>
	hintsOf(result).filter((hint) => hint.message.startsWith('Batch Size grew'));

/**
 * Looks up `count` known orders in one input item (Batch Size 50) and checks each item got its own
 * order.
 */
async function lookUp(count, options = {}) {
	const refs = known.slice(0, count);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 50, ...options } },
		{ items: [{ refs }] },
	);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(count);
	expect(result.items.map((item) => `${item.json.store_id}/${item.json.order_number}`)).toEqual(
		refs.map((ref) => `${ref.store_id}/${ref.order_number}`),
	);
	expect(result.items.filter((item) => item.json._id === undefined)).toEqual([]);
	return { result, calls: await ctx.sandbox.calls(ROUTE) };
}

test('slow calls and no room for more in flight: batches double beyond Batch Size, step by step, and every item gets its order', async () => {
	// Max Calls in Flight 2: Auto starts at its cap, so more references at a time can only come from
	// larger batches.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	const { calls, result } = await lookUp(3000, { maxCallsInFlight: 2 });
	const sizes = sizesOf(calls);
	expect(calls.every((call) => call.status === 200)).toBe(true);
	expect(calls.every((call) => call.concurrent <= 2)).toBe(true);
	// Batch Size first, until Auto's two places have answered at it; then each size at most twice the
	// largest before.
	expect(sizes.slice(0, 2)).toEqual([50, 50]);
	expect(Math.max(...sizes)).toBeGreaterThanOrEqual(200);
	sizes.forEach((size, index) =>
		expect(size).toBeLessThanOrEqual(index === 0 ? 50 : 2 * Math.max(...sizes.slice(0, index))),
	);
	// 3000 references in 60 calls at Batch Size 50; growing, far fewer.
	expect(calls.length).toBeLessThan(30);
	// 50, 100, 200, 400: 800 would leave too few references to fill both places (the last batch is
	// the remainder).
	const grewTo = Math.max(...sizes);
	expect(growthHints(result)).toEqual([
		{
			message: `Batch Size grew from 50 to ${grewTo} in this run, as no more calls could run at once. It stopped there because too few references were left for larger batches, or Auto had room for more calls. Set Batch Size (in Options) to ${grewTo} to start there.`,
			type: 'info',
			location: 'outputPane',
		},
	]);
}, 60_000);

test('never above Max Batch Size, and the notice says that is where it stopped', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	const { calls, result } = await lookUp(2000, { maxCallsInFlight: 2, maxBatchSize: 150 });
	const sizes = sizesOf(calls);
	expect(Math.max(...sizes)).toBe(150);
	expect(growthHints(result)).toEqual([
		expect.objectContaining({
			message: expect.stringMatching(
				/^Batch Size grew from 50 to 150 in this run, .* It stopped there because that is Max Batch Size\. /,
			),
		}),
	]);
}, 60_000);

test('a service that refuses batches above 150: growth stops at the first refusal, and the size that went through is kept', async () => {
	await ctx.sandbox.config({
		...COUNTED,
		latencyMs: 50,
		bulkMaxLength: 150,
		bulkTooLongStatus: 413,
	});
	const { calls, result } = await lookUp(3000, { maxCallsInFlight: 2 });
	const refused = calls.filter((call) => call.status === 413);
	// Only the grown batches in flight when the first refusal came back: at most one per place in
	// flight.
	expect(refused.length).toBeGreaterThan(0);
	expect(refused.length).toBeLessThanOrEqual(2);
	expect(sizesOf(refused).every((size) => size === 200)).toBe(true);
	// After the first refusal: nothing larger than the halves that went through, and nothing refused
	// again.
	const afterRefusal = calls
		.slice(calls.indexOf(refused[0]) + 1)
		.filter((call) => call.status !== 413);
	expect(afterRefusal.length).toBeGreaterThan(10);
	expect(sizesOf(afterRefusal).every((size) => size <= 100)).toBe(true);
	expect(calls.slice(calls.indexOf(refused.at(-1)) + 1).every((call) => call.status === 200)).toBe(
		true,
	);
	expect(growthHints(result)).toEqual([
		expect.objectContaining({
			message: expect.stringMatching(
				/^Batch Size grew from 50 to 100 in this run, .* the service refused a batch of 200, and batches of 100 went through\. Set Batch Size \(in Options\) to 100 /,
			),
		}),
	]);
}, 60_000);

test('a service that refuses anything above Batch Size: the grown batch is refused, its halves go through, and no notice says Batch Size was refused', async () => {
	// The halves are Batch Size itself: nothing the user set was refused, so neither the
	// refused-batch notice nor the growth notice has anything to say (found by the full mutation run:
	// "sendSize < batchSize" read as "<=").
	await ctx.sandbox.config({
		...COUNTED,
		latencyMs: 50,
		bulkMaxLength: 50,
		bulkTooLongStatus: 413,
	});
	const { calls, result } = await lookUp(2000, { maxCallsInFlight: 2 });
	expect(sizesOf(calls.filter((call) => call.status === 413)).every((size) => size > 50)).toBe(
		true,
	);
	expect(calls.some((call) => call.status === 413)).toBe(true);
	expect(hintsOf(result).map((hint) => hint.message)).not.toContainEqual(
		expect.stringMatching(/refused|Batch Size grew/),
	);
	expect(result.items.length).toBeGreaterThan(0);
}, 60_000);

test('a fixed Calls in Flight never grows its batches, however slow the calls', async () => {
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
	const { calls, result } = await lookUp(1000, { callsInFlight: 2, maxBatchSize: 1000 });
	expect(sizesOf(calls)).toEqual(Array(20).fill(50));
	expect(hintsOf(result)).toEqual([]);
}, 60_000);

test('while Auto can still add calls in flight, batches stay at Batch Size (at 0 ms, and at 100 ms below its cap)', async () => {
	// Growth is the last resort of a run that can put no more calls in flight: at 0 ms Auto never
	// fills its 16 places, and at 100 ms 40 calls are too few for it to climb from 4 to 16.
	for (const latencyMs of [0, 100]) {
		await ctx.sandbox.reset();
		await ctx.sandbox.config({ ...COUNTED, latencyMs });
		const { calls, result } = await lookUp(2000);
		expect(sizesOf(calls)).toEqual(Array(40).fill(50));
		expect(growthHints(result)).toEqual([]);
	}
}, 60_000);

test('a service whose time grows with the batch: one doubled size is tried, found no faster per reference, and dropped', async () => {
	// 1 ms per KB of answer (about 5 ms per order with every field): twice the orders take twice the
	// time.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 10, latencyPerKbMs: 1 });
	const { calls, result } = await lookUp(1500, { maxCallsInFlight: 2 });
	const sizes = sizesOf(calls);
	expect(Math.max(...sizes)).toBe(100);
	// The trial's own calls (cut before it was judged) are the only ones at 100; everything after is
	// back at 50.
	const lastTrial = sizes.lastIndexOf(100);
	expect(lastTrial).toBeLessThan(8);
	expect(sizes.slice(lastTrial + 1).every((size) => size === 50)).toBe(true);
	expect(growthHints(result)).toEqual([]);
}, 60_000);

test.each([404, 300])(
	'answers the service refuses (%i) are no measure of speed: after fast refusals batches still grow',
	async (status) => {
		// Both first calls are refused at once (no latency), every lookup takes 200 ms: were a
		// refusal's time taken for the fastest call at Batch Size, no larger batch could ever look
		// faster per reference. Two refusals, one per place in flight, so that no refused call is cut
		// at a doubled size.
		await ctx.sandbox.config({ ...COUNTED, latencyMs: 0 });
		await ctx.sandbox.fault({ route: ROUTE, count: 2, status });
		await ctx.sandbox.fault({ route: ROUTE, count: 60, delayMs: 200 });
		const refs = known.slice(0, 3000);
		const result = await ctx.run(
			{ ...BY_LIST, options: { batchSize: 50, maxCallsInFlight: 2 } },
			{ items: [{ refs }], continueOnFail: true },
		);
		const calls = await ctx.sandbox.calls(ROUTE);
		expect(calls.slice(0, 2).map((call) => call.status)).toEqual([status, status]);
		expect(result.items.map((item) => item.json.error)).toEqual([
			expect.stringMatching(new RegExp(`\\b${status}\\b`)),
		]);
		expect(Math.max(...sizesOf(calls))).toBeGreaterThanOrEqual(200);
		expect(growthHints(result)).toEqual([
			expect.objectContaining({
				message: expect.stringMatching(/^Batch Size grew from 50 to \d+ in this run/),
			}),
		]);
	},
	60_000,
);

test('held after a 429, Auto grows its batches instead: fewer calls for a service with a rate', async () => {
	// Three calls per second: after the first 429 Auto never raises its number again, so larger
	// batches are the only way to ask for more references per second.
	await ctx.sandbox.config({ ...COUNTED, latencyMs: 20, rateLimit: { max: 3, windowMs: 1000 } });
	const { calls, result } = await lookUp(2000, { rateLimitWait: 60 });
	const answered = calls.filter((call) => call.status === 200);
	expect(calls.some((call) => call.status === 429)).toBe(true);
	expect(Math.max(...sizesOf(answered))).toBeGreaterThan(50);
	expect(answered.length).toBeLessThan(40);
	expect(hintsOf(result).map((hint) => hint.message)).toEqual([
		expect.stringMatching(/^Calls in Flight \(Auto\) settled on \d+ .*the service answered 429/),
		expect.stringMatching(/^Batch Size grew from 50 to \d+ in this run/),
	]);
}, 60_000);

test('Max Batch Size below Batch Size stops the run before any call, naming both options; with a fixed Calls in Flight it is not used', async () => {
	const refs = known.slice(0, 10);
	const refused = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 200, maxBatchSize: 100 } },
		{ items: [{ refs }] },
	);
	expect(refused.error.message).toBe(
		"Item 0: 'Max Batch Size' must not be below Batch Size (200), got 100",
	);
	expect(await ctx.sandbox.calls(ROUTE)).toEqual([]);
	// Left out, it is 1000 or Batch Size, whichever is larger: Batch Size 2000 alone still runs.
	const alone = await ctx.run({ ...BY_LIST, options: { batchSize: 2000 } }, { items: [{ refs }] });
	expect(alone.error).toBeUndefined();
	const fixed = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 200, maxBatchSize: 100, callsInFlight: 2 } },
		{ items: [{ refs }] },
	);
	expect(fixed.error).toBeUndefined();
	expect(fixed.items).toHaveLength(10);
});

// One call in flight (Max Calls in Flight 1): each batch is cut only after the one before answered,
// so the sizes the sandbox receives are one exact sequence, whatever the machine's speed.
describe('one call in flight', () => {
	test('each size is measured by two answers before the next doubling, and a doubling needs enough references left for it', async () => {
		await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
		// 1100: after 50, 50, 100, 100, 200, 200 exactly 400 are left, just enough for one batch of
		// 400.
		const { calls, result } = await lookUp(1100, { maxCallsInFlight: 1 });
		expect(sizesOf(calls)).toEqual([50, 50, 100, 100, 200, 200, 400]);
		expect(growthHints(result).map((hint) => hint.message)).toEqual([
			expect.stringMatching(/^Batch Size grew from 50 to 400 in this run, /),
		]);
	}, 60_000);

	test('a Timeout less than eight times the slowest call keeps Batch Size: a doubled call could come near it', async () => {
		// Calls of 100 ms (200 on a new connection) are far within a Timeout of 700 ms, but a doubled
		// batch may take twice as long, and growth keeps a margin of four below the Timeout.
		await ctx.sandbox.config({ ...COUNTED, latencyMs: 100 });
		const { calls, result } = await lookUp(1100, { maxCallsInFlight: 1, timeout: 700 });
		expect(sizesOf(calls)).toEqual(Array(22).fill(50));
		expect(growthHints(result)).toEqual([]);
	}, 60_000);

	test('a doubled size that is not faster per reference is judged on two answers, then dropped for the rest of the run', async () => {
		await ctx.sandbox.config({ ...COUNTED, latencyMs: 10, latencyPerKbMs: 1 });
		const { calls, result } = await lookUp(500, { maxCallsInFlight: 1 });
		expect(sizesOf(calls)).toEqual([50, 50, 100, 100, 50, 50, 50, 50]);
		expect(growthHints(result)).toEqual([]);
	}, 60_000);

	test('a service slow per call and per KB: the doubling that paid off is kept, the next one dropped, and the notice names both sizes', async () => {
		// Measured here: about 440, 650 and 1120 ms for 50, 100 and 200 orders, so a reference takes
		// 0.74 of its time at 100 and then 0.86 at 200, either side of the 0.8 that counts as faster.
		await ctx.sandbox.config({ ...COUNTED, latencyMs: 100, latencyPerKbMs: 0.85 });
		const { calls, result } = await lookUp(800, { maxCallsInFlight: 1 });
		expect(sizesOf(calls)).toEqual([50, 50, 100, 100, 200, 200, 100]);
		expect(growthHints(result).map((hint) => hint.message)).toEqual([
			'Batch Size grew from 50 to 100 in this run, as no more calls could run at once. It stopped there because batches of 200 were not faster per reference. Set Batch Size (in Options) to 100 to start there.',
		]);
	}, 60_000);

	test('a malformed reference in a grown batch: the notice names the grown size the service refused, not the halves that found the reference', async () => {
		// Order numbers must be all digits: the reference at 150 is in the first batch of 100, and
		// halving that batch down to the reference itself is refused at 50, 25, 13, 7, 4, 2 and 1 too.
		await ctx.sandbox.config({ ...COUNTED, bulkReferencePattern: '^[0-9]+$' });
		const refs = known
			.slice(0, 400)
			.map((ref, index) => (index === 150 ? { ...ref, order_number: 'A-150' } : ref));
		const result = await ctx.run(
			{ ...BY_LIST, references: '={{ [$json] }}', options: { batchSize: 50, maxCallsInFlight: 1 } },
			{ items: refs, continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.error)).toEqual(
			// What the refusal says depends on the profile's service (its message, a code before it, a
			// gateway's page).
			refs.map((_, index) => (index === 150 ? expect.any(String) : undefined)),
		);
		const calls = await ctx.sandbox.calls(ROUTE);
		expect(sizesOf(calls.filter((call) => call.status === 400))).toEqual([
			100, 50, 25, 13, 7, 4, 2, 1,
		]);
		expect(sizesOf(calls.filter((call) => call.status === 200)).slice(-2)).toEqual([100, 100]);
		expect(growthHints(result).map((hint) => hint.message)).toEqual([
			expect.stringMatching(
				/^Batch Size grew from 50 to 100 in this run, .* the service refused a batch of 100, and batches of 100 went through\. /,
			),
		]);
	}, 60_000);
});
