// actions/order/pacing.ts driven directly with chosen call times: its thresholds are a few
// milliseconds wide and a call over the network never takes an exact time (the same rules over real
// HTTP, with the sandbox's latency, are in test/actions/order/lookUp/lookUp.callsInFlight.test.js
// and lookUp.batchGrowth.test.js). Every time here comes from the shared fake clock (Auto reads
// Date.now), so no assertion depends on how loaded the machine is.
const path = require('node:path');

const { useFakeClock } = require('../../helpers/fakeClock');

const { AutoCallsInFlight, Pacing } = require(
	path.resolve(__dirname, '../../../dist/nodes/InventoryOps/actions/order/pacing.js'),
);

// A call is sent at 0 and answers at the time the test gives it.
const clock = useFakeClock();

describe('Calls in Flight: Auto', () => {
	/**
	 * A run of Auto up to `cap` in which every place in flight is taken before each answer, as in a
	 * long lookup.
	 */
	function autoRun(cap = 16) {
		const auto = new AutoCallsInFlight(cap);
		const open = [];
		const fill = async () => {
			while (open.length < auto.limit) {
				const sending = await auto.onAttempt(0, () => {})();
				clock.now = 0;
				open.push(sending());
			}
		};
		/**
		 * The oldest call in flight answers `status` after `ms`; resolves to the number in flight after
		 * it.
		 */
		const answer = async (ms, status = 200) => {
			await fill();
			clock.now = ms;
			open.shift()(status);
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
	});

	test('a call counts as as fast as ever up to 1.5 times the fastest call plus 5 ms: 20 ms after 10 ms still raises, 21 ms does not', async () => {
		const within = autoRun();
		await within.answers(8, 10);
		expect(await within.answers(5, 20)).toEqual([4, 4, 4, 4, 5]);
		const beyond = autoRun();
		await beyond.answers(8, 10);
		expect(await beyond.answers(5, 21)).toEqual([4, 4, 4, 4, 4]);
	});

	test('calls up to twice the fastest plus 5 ms leave Auto where it is; each slower one takes one call off, down to 4', async () => {
		const run = autoRun();
		await run.answers(8, 10);
		await run.riseTo(7, 10);
		// 22 and 25 ms after a fastest of 10: no longer flat, not yet queueing.
		expect(await run.answer(22)).toBe(7);
		expect(await run.answer(25)).toBe(7);
		expect(await run.answers(4, 26)).toEqual([6, 5, 4, 4]);
	});

	test('after a 5xx has cut Auto below 4, slow calls leave it there (they take calls off only above 4)', async () => {
		const run = autoRun();
		await run.answers(8, 10);
		expect(await run.answer(10, 503)).toBe(2);
		expect(await run.answers(2, 100)).toEqual([2, 2]);
	});

	test('held at 5 by a 429, Auto keeps what it had gained toward the next call: after a slow call, four flat answers take it back to 5', async () => {
		const run = autoRun();
		await run.answers(8, 10);
		await run.riseTo(10, 10);
		// A 503 halves it to 5; a call of the round before answers flat (the window is then a fifth
		// above 5), then another of that round answers 429: the round was cut already, so the 429 only
		// holds it at 5 for the rest of the run.
		expect(await run.answer(10, 503)).toBe(5);
		expect(await run.answer(10)).toBe(5);
		expect(await run.answer(10, 429)).toBe(5);
		expect(run.auto.atCeiling).toBe(true);
		expect(await run.answer(10)).toBe(5);
		expect(await run.answer(100)).toBe(4);
		expect(await run.answers(4, 10)).toEqual([4, 4, 4, 5]);
		expect(run.auto.report()).toEqual(
			expect.objectContaining({ settledOn: 5, rateLimited: true, failures: 1 }),
		);
	});

	test('after a 5xx has halved Auto, calls that answer well and flat raise it again (only a 429 holds it)', async () => {
		const run = autoRun();
		await run.answers(8, 10);
		expect(await run.answer(10, 503)).toBe(2);
		expect((await run.answers(6, 10)).at(-1)).toBeGreaterThan(2);
		expect(run.auto.report()).toEqual(expect.objectContaining({ rateLimited: false, failures: 1 }));
	});

	test.each([404, 300])(
		'answers the service refuses (%i) are not timed: after fast refusals Auto still rises at 200 ms',
		async (status) => {
			// Were a refusal of 1 ms the fastest call, every lookup of 200 ms would look queued and Auto
			// would never leave 4.
			const run = autoRun();
			await run.answers(4, 200);
			for (let n = 0; n < 4; n++) await run.answer(1, status);
			expect((await run.answers(12, 200)).at(-1)).toBeGreaterThan(4);
		},
	);
});

describe('batch growth', () => {
	/** Batch Size 50 with Auto at its cap of one call in flight, with plenty of references left. */
	function growthRun(timeoutMs = 30_000) {
		const pacing = new Pacing({
			batchSize: 50,
			callsInFlight: 'auto',
			maxCallsInFlight: 1,
			maxBatchSize: 1000,
			timeoutMs,
		});
		/** A call of `length` references that answers 200 after `ms`. */
		const answer = async (length, ms) => {
			clock.now = 0;
			const settled = (await pacing.onAttempt(length)())();
			clock.now = ms;
			settled(200);
		};
		return { answer, next: () => pacing.nextSize(10_000) };
	}

	/**
	 * Two answers of 50 references in `ms50`, then the doubled batch answered twice in `ms100`: the
	 * size after that.
	 */
	async function afterTrial(ms50, ms100) {
		const run = growthRun();
		await run.answer(50, ms50);
		await run.answer(50, ms50);
		expect(run.next()).toBe(100);
		await run.answer(100, ms100);
		await run.answer(100, ms100);
		return run.next();
	}

	test('a doubled batch exactly 0.8 times as slow per reference is not faster: the run goes back to the size before', async () => {
		// 100 ms for 50 references, 160 ms for 100: 1.6 ms each, 0.8 of 2 ms.
		expect(await afterTrial(100, 160)).toBe(50);
		// Just below 0.8 it is faster, and the next doubling is tried.
		expect(await afterTrial(100, 159)).toBe(200);
	});

	test('growth is tried while the slowest call, twice as long, is at most a quarter of the Timeout', async () => {
		const sizeAfter = async (slowestMs) => {
			const run = growthRun(1000);
			await run.answer(50, 100);
			await run.answer(50, slowestMs);
			return run.next();
		};
		// 125 ms doubled is 250, a quarter of 1000 ms.
		expect(await sizeAfter(125)).toBe(100);
		expect(await sizeAfter(126)).toBe(50);
	});

	test('with a fixed Calls in Flight every batch is cut at Batch Size, no hook is handed to the transport, and nothing is reported', () => {
		const pacing = new Pacing({
			batchSize: 50,
			callsInFlight: 4,
			maxCallsInFlight: 16,
			maxBatchSize: 1000,
			timeoutMs: 30_000,
		});
		expect(pacing.onAttempt(50)).toBeUndefined();
		expect(pacing.nextSize(10_000)).toBe(50);
		expect(pacing.report()).toEqual({
			batchSizeUsed: undefined,
			callsInFlight: undefined,
			batchGrowth: undefined,
		});
	});
});

describe('the batch size a refusal teaches', () => {
	const pacingWith = (callsInFlight) =>
		new Pacing({
			batchSize: 50,
			callsInFlight,
			maxCallsInFlight: 16,
			maxBatchSize: 1000,
			timeoutMs: 30_000,
		});
	const references = (count) => Array.from({ length: count }, (_, n) => n);

	test('both halves of a refused batch went through: no batch is sent longer than the half for the rest of the run, and the run says so', async () => {
		const pacing = pacingWith(4);
		const sent = [];
		await pacing.sendHalves(references(49), async (half) => sent.push(half.length) > 0);
		expect(sent).toEqual([25, 24]);
		// With a fixed Calls in Flight batches are still cut at Batch Size, and sent in parts.
		expect(pacing.nextSize(10_000)).toBe(50);
		expect(pacing.partsOf(references(60)).map((part) => part.length)).toEqual([25, 25, 10]);
		expect(pacing.partsOf(references(25))).toEqual([references(25)]);
		expect(pacing.report()).toEqual({
			batchSizeUsed: 25,
			callsInFlight: undefined,
			batchGrowth: undefined,
		});
		// A batch refused earlier and halved later does not raise it again.
		await pacing.sendHalves(references(100), async () => true);
		expect(pacing.partsOf(references(50)).map((part) => part.length)).toEqual([25, 25]);
	});

	test('with Auto, batches are cut at the size learnt', async () => {
		const pacing = pacingWith('auto');
		expect(pacing.nextSize(10_000)).toBe(50);
		await pacing.sendHalves(references(50), async () => true);
		expect(pacing.nextSize(10_000)).toBe(25);
	});

	test('one half not through: nothing is learnt, and no batch is cut', async () => {
		const pacing = pacingWith('auto');
		await pacing.sendHalves(references(50), async (half) => half[0] !== 0);
		await pacing.sendHalves(references(50), async (half) => half[0] === 0);
		expect(pacing.nextSize(10_000)).toBe(50);
		expect(pacing.partsOf(references(80))).toEqual([references(80)]);
		expect(pacing.report().batchSizeUsed).toBeUndefined();
	});
});
