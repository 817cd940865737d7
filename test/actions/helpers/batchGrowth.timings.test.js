// Batch size growth at the exact edges of its two thresholds on call times. The times a network gives are never the
// same twice, so these drive the compiled BatchGrowth from dist/ with chosen times;
// test/actions/order/lookUp/lookUp.batchGrowth.test.js has the same rules over HTTP.
const path = require('node:path');

const { BatchGrowth } = require(path.resolve(__dirname, '../../../dist/nodes/InventoryOps/actions/helpers/batchGrowth.js'));

/** Batch Size 50 at its cap of one call in flight, with plenty of references left. */
const ONE_PLACE = [1, true, 10_000];

/** Two answers of 50 references in `ms50`, then the doubled batch answered twice in `ms100`: the size after that. */
function afterTrial(ms50, ms100) {
	const growth = new BatchGrowth(50, 1000, 30_000);
	growth.answered(50, ms50);
	growth.answered(50, ms50);
	expect(growth.next(...ONE_PLACE)).toBe(100);
	growth.answered(100, ms100);
	growth.answered(100, ms100);
	return growth.next(...ONE_PLACE);
}

test('a doubled batch exactly 0.8 times as slow per reference is not faster: the run goes back to the size before', () => {
	// 100 ms for 50 references, 160 ms for 100: 1.6 ms each, 0.8 of 2 ms.
	expect(afterTrial(100, 160)).toBe(50);
	// Just below 0.8 it is faster, and the next doubling is tried.
	expect(afterTrial(100, 159)).toBe(200);
});

test('growth is tried while the slowest call, twice as long, is at most a quarter of the Timeout', () => {
	const sizeAfter = (slowestMs) => {
		const growth = new BatchGrowth(50, 1000, 1000);
		growth.answered(50, 100);
		growth.answered(50, slowestMs);
		return growth.next(...ONE_PLACE);
	};
	// 125 ms doubled is 250, a quarter of 1000 ms.
	expect(sizeAfter(125)).toBe(100);
	expect(sizeAfter(126)).toBe(50);
});
