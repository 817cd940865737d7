// Calls in Flight: Auto's reading of call times, from the compiled package with chosen times. Driven directly because
// its thresholds are a few milliseconds wide and a call over the network never takes an exact time (over real HTTP,
// with the sandbox's latency, in test/actions/order/lookUp/lookUp.callsInFlight.test.js). `limit` is how many calls
// the run keeps in flight.
const path = require('node:path');

const { useFakeClock } = require('../../helpers/fakeClock');

const { AutoCallsInFlight } = require(path.resolve(__dirname, '../../../dist/nodes/InventoryOps/actions/helpers/callsInFlight.js'));

// The clock Auto reads: a call is sent at 0 and answers at the time the test gives it.
const clock = useFakeClock();

/** A run of Auto up to `cap` in which every place in flight is taken before each answer, as in a long lookup. */
function autoRun(cap = 16) {
	const auto = new AutoCallsInFlight(cap);
	const open = [];
	const fill = async () => {
		while (open.length < auto.limit) {
			const call = auto.observer(0, () => {});
			await call.admit();
			clock.now = 0;
			call.sending();
			open.push(call);
		}
	};
	/** The oldest call in flight answers `status` after `ms`; resolves to the number in flight after it. */
	const answer = async (ms, status = 200) => {
		await fill();
		clock.now = ms;
		open.shift().settled(status);
		return auto.limit;
	};
	const answers = async (count, ms) => {
		const limits = [];
		for (let n = 0; n < count; n++) limits.push(await answer(ms));
		return limits;
	};
	/** Flat answers until `limit` calls are in flight (at most 200). */
	const riseTo = async (limit, ms) => {
		for (let n = 0; n < 200 && auto.limit < limit; n++) await answer(ms);
		expect(auto.limit).toBe(limit);
	};
	return { auto, answer, answers, riseTo };
}

test('the first two rounds at the start (8 answers) add nothing; from the 9th, a quarter of a call per answer', async () => {
	const run = autoRun();
	expect(await run.answers(13, 100)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5]);
}, 10_000);

test('a call counts as as fast as ever up to 1.5 times the fastest call plus 5 ms: 20 ms after 10 ms still raises, 21 ms does not', async () => {
	const within = autoRun();
	await within.answers(8, 10);
	expect(await within.answers(5, 20)).toEqual([4, 4, 4, 4, 5]);
	const beyond = autoRun();
	await beyond.answers(8, 10);
	expect(await beyond.answers(5, 21)).toEqual([4, 4, 4, 4, 4]);
}, 10_000);

test('calls up to twice the fastest plus 5 ms leave Auto where it is; each slower one takes one call off, down to 4', async () => {
	const run = autoRun();
	await run.answers(8, 10);
	await run.riseTo(7, 10);
	// 22 and 25 ms after a fastest of 10: no longer flat, not yet queueing.
	expect(await run.answer(22)).toBe(7);
	expect(await run.answer(25)).toBe(7);
	expect(await run.answers(4, 26)).toEqual([6, 5, 4, 4]);
}, 10_000);

test('after a 5xx has cut Auto below 4, slow calls leave it there (they take calls off only above 4)', async () => {
	const run = autoRun();
	await run.answers(8, 10);
	expect(await run.answer(10, 503)).toBe(2);
	expect(await run.answers(2, 100)).toEqual([2, 2]);
}, 10_000);

test('held at 5 by a 429, Auto keeps what it had gained toward the next call: after a slow call, four flat answers take it back to 5', async () => {
	const run = autoRun();
	await run.answers(8, 10);
	await run.riseTo(10, 10);
	// A 503 halves it to 5; a call of the round before answers flat (the window is then a fifth above 5), then another of that round answers 429:
	// the round was cut already, so the 429 only holds it at 5 for the rest of the run.
	expect(await run.answer(10, 503)).toBe(5);
	expect(await run.answer(10)).toBe(5);
	expect(await run.answer(10, 429)).toBe(5);
	expect(run.auto.atCeiling).toBe(true);
	expect(await run.answer(10)).toBe(5);
	expect(await run.answer(100)).toBe(4);
	expect(await run.answers(4, 10)).toEqual([4, 4, 4, 5]);
	expect(run.auto.report()).toEqual(expect.objectContaining({ settledOn: 5, rateLimited: true, failures: 1 }));
}, 10_000);
