// Get Many's lookup with Calls in Flight: Auto, from the compiled package with chosen call times.
// Driven directly because which calls Auto times against each other decides a step of one call, and
// only exact times show it (the sandbox's latency never gives them); n8n's context is a stand-in
// that answers each call when the test says.
const path = require('node:path');

const { useFakeClock } = require('../../helpers/fakeClock');

const { BulkLookup } = require(
	path.resolve(__dirname, '../../../dist/nodes/InventoryOps/actions/order/bulkLookup.js'),
);

// The clock the lookup reads: each call answers exactly `ms` after it was sent.
const clock = useFakeClock();

const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Looks up `count` references in batches of `batchSize` with Auto up to `cap` calls in flight.
 * `answerNext(pending)` picks which call in flight answers next and after how many ms (every
 * answer: no order found). Resolves to what the run reports about its calls in flight (the notice's
 * numbers) and the sizes of the calls in the order sent.
 */
async function lookUp({ count, batchSize, maxBatchSize = batchSize, cap, answerNext }) {
	const pending = [];
	const sizes = [];
	const context = {
		getNode: () => ({
			name: 'Inventory Ops',
			type: 'inventoryOps',
			typeVersion: 1,
			parameters: {},
		}),
		continueOnFail: () => false,
		getCredentials: async () => ({ baseUrl: 'http://inventory.invalid', accessToken: 't' }),
		helpers: {
			httpRequestWithAuthentication: (type, request) =>
				new Promise((resolve) => {
					sizes.push(request.body.order.length);
					pending.push({
						size: request.body.order.length,
						sentAt: clock.now,
						answer: () => resolve({ statusCode: 200, headers: {}, body: [] }),
					});
				}),
		},
	};
	const asked = new Map();
	for (let n = 0; n < count; n++) {
		asked.set(`s1/${n}`, {
			reference: { store_id: 's1', order_number: String(n) },
			key: `s1/${n}`,
			itemIndex: 0,
			asks: 1,
		});
	}
	const settings = {
		batchSize,
		callsInFlight: 'auto',
		maxCallsInFlight: cap,
		maxBatchSize,
		timeoutMs: 60_000,
		rateLimitWaitMs: 0,
	};
	let done = false;
	const run = new BulkLookup(context, settings, (entry) => entry).run(asked).then((results) => {
		done = true;
		return results;
	});
	await settle();
	while (!done) {
		const { call, ms } = answerNext(pending);
		pending.splice(pending.indexOf(call), 1);
		clock.now = call.sentAt + ms;
		call.answer();
		await settle();
	}
	const results = await run;
	return { report: results.callsInFlight, growth: results.batchGrowth, sizes };
}

test('a short last batch that answers fast makes the full batches still in flight look queued: Auto takes a call off', async () => {
	// Batches of 10 answer in 100 ms until Auto has climbed to 5; the last batch (3 references)
	// answers in 20 ms before the four full ones in flight. Batches up to Batch Size are one size to
	// Auto, so 100 ms is now more than twice the fastest: each of the four takes a call off, down to
	// the 4 Auto starts from.
	const { report, sizes } = await lookUp({
		count: 303,
		batchSize: 10,
		cap: 5,
		answerNext: (pending) => {
			const last = pending.find((call) => call.size < 10);
			return last ? { call: last, ms: 20 } : { call: pending[0], ms: 100 };
		},
	});
	expect(sizes.at(-1)).toBe(3);
	expect(report).toMatchObject({ peak: 5, settledOn: 4 });
});

test('a grown batch is timed against batches of its own size, not against Batch Size: a slower one takes no call off', async () => {
	// At 5 in flight (Max Calls in Flight) batches double to 20, and the run ends on them; they
	// answer in 250 ms, more than twice the 100 ms of a batch of 10, which is what a larger batch
	// costs and no sign of queueing.
	const { report, sizes } = await lookUp({
		count: 260,
		batchSize: 10,
		maxBatchSize: 20,
		cap: 5,
		answerNext: (pending) => ({ call: pending[0], ms: pending[0].size > 10 ? 250 : 100 }),
	});
	expect(sizes).toEqual([...Array(16).fill(10), ...Array(5).fill(20)]);
	expect(report).toMatchObject({ peak: 5, settledOn: 5 });
});

test('a short run that never rose above 4 reports nothing about Calls in Flight', async () => {
	// 14 calls of 150 ms at 4 in flight: two rounds measured (8 answers), then a quarter of a call
	// per answer while 4 are in flight; the last answers come with fewer in flight and add nothing,
	// so the run ends below 5.
	const { report, sizes } = await lookUp({
		count: 700,
		batchSize: 50,
		cap: 16,
		answerNext: (pending) => ({ call: pending[0], ms: 150 }),
	});
	expect(sizes).toHaveLength(14);
	expect(report).toBeUndefined();
});

describe('batch growth with one call in flight (each batch is cut after the one before answered)', () => {
	test('each size is measured by two answers before the next doubling, and a doubling needs enough references left', async () => {
		// Every call takes 100 ms whatever its size; 1100: after 50, 50, 100, 100, 200, 200 exactly 400
		// are left.
		const { growth, sizes } = await lookUp({
			count: 1100,
			batchSize: 50,
			maxBatchSize: 1000,
			cap: 1,
			answerNext: (pending) => ({ call: pending[0], ms: 100 }),
		});
		expect(sizes).toEqual([50, 50, 100, 100, 200, 200, 400]);
		expect(growth).toEqual({ from: 50, grewTo: 400, stoppedBy: 'other', triedSize: undefined });
	});

	test('a service slow per call and per reference: the doubling that paid off is kept, the next one dropped', async () => {
		// 440, 650 and 1120 ms for 50, 100 and 200 references: 0.74 of the time per reference at 100,
		// then 0.86 at 200, either side of the 0.8 that counts as faster.
		const msBySize = { 50: 440, 100: 650, 200: 1120 };
		const { growth, sizes } = await lookUp({
			count: 800,
			batchSize: 50,
			maxBatchSize: 1000,
			cap: 1,
			answerNext: (pending) => ({ call: pending[0], ms: msBySize[pending[0].size] }),
		});
		expect(sizes).toEqual([50, 50, 100, 100, 200, 200, 100]);
		expect(growth).toEqual({ from: 50, grewTo: 100, stoppedBy: 'notFaster', triedSize: 200 });
	});
});
