// actions/order/answer.ts, the reader of get_single_bulk's answer, driven directly: which reference
// each entry answers, which entries say "not found", and what it names when it cannot read one. The
// same readings over real HTTP, through the node: test/transport/answers.shapes.test.js (Order ->
// Get Many).
const path = require('node:path');

const dist = path.resolve(__dirname, '../../../dist/nodes/InventoryOps/actions/order');
const { readBulkAnswer } = require(path.join(dist, 'answer.js'));
const { referenceKey } = require(path.join(dist, 'references.js'));

/** A batch asking for each [store_id, order_number]. */
const batchOf = (...pairs) =>
	pairs.map(([store_id, order_number], itemIndex) => {
		const key = referenceKey(store_id, order_number);
		return [key, { reference: { store_id, order_number }, key, itemIndex, asks: 1 }];
	});
/** The entries found, as [store_id, order_number, entry] in the order they were placed. */
const placed = ({ found }) => [...found].map(([key, entry]) => [...JSON.parse(key), entry]);
const order = { _id: 'o-1', store_id: 'S', order_number: '1', status: 'unstarted' };

describe('an entry is "not found" only when it carries no order in any form', () => {
	test('wrapped entries: the order placed by its pair, the entry kept as it came (extra fields too)', () => {
		const entry = {
			order,
			metrics: { m: 1 },
			barcode_generation_failed: { message: 'x', code: 'B' },
			extra: true,
		};
		const read = readBulkAnswer(batchOf(['S', '1'], ['T', '2']), [
			entry,
			{ order: { order_number: 2 } },
		]);
		expect(placed(read)).toEqual([
			['S', '1', entry],
			['T', '2', { order: { order_number: 2 } }],
		]);
		expect(read.found.get(referenceKey('S', '1'))).toBe(entry);
		expect(read.lacksStoreId).toBe(true);
	});

	test('a bare order record is read as that order, given the wrapped layout', () => {
		expect(placed(readBulkAnswer(batchOf(['S', '1']), [order]))).toEqual([['S', '1', { order }]]);
		// Without store_id (or with a null one) it is placed by its number, as a wrapped order without
		// one.
		const bare = { order_number: '7', status: 'x', store_id: null };
		const read = readBulkAnswer(batchOf(['X', '7']), [bare]);
		expect(placed(read)).toEqual([['X', '7', { order: bare }]]);
		expect(read.lacksStoreId).toBe(true);
	});

	test("a bare record's metrics and barcode failure go beside its order, as in a wrapped entry", () => {
		const failure = { message: 'no barcode', code: 'B' };
		const batch = batchOf(['S', '1']);
		expect(
			placed(
				readBulkAnswer(batch, [
					{ ...order, metrics: { m: 1 }, barcode_generation_failed: failure },
				]),
			),
		).toEqual([['S', '1', { order, metrics: { m: 1 }, barcode_generation_failed: failure }]]);
		expect(
			placed(readBulkAnswer(batch, [{ ...order, barcode_generation_failed: failure }]))[0][2],
		).toEqual({ order, barcode_generation_failed: failure });
	});

	test('a mixed answer: wrapped and bare entries read one by one, in the order they came', () => {
		const other = { ...order, _id: 'o-2', order_number: '2' };
		const read = readBulkAnswer(batchOf(['S', '1'], ['S', '2'], ['S', '3']), [
			{ order },
			other,
			{ order: null },
			{ ...other, order_number: '3' },
		]);
		expect(placed(read).map(([, number]) => number)).toEqual(['1', '2', '3']);
		expect(read.lacksStoreId).toBe(false);
	});

	test.each([
		['order: null', { order: null }],
		['an empty order', { order: {} }],
		['an empty entry', {}],
		['metrics alone', { metrics: { matched: false } }],
		[
			'the pair asked for, and metrics',
			{ store_id: 'S', order_number: '9', metrics: { matched: false } },
		],
		[
			'order: null beside the pair and other fields',
			{ order: null, store_id: 'S', order_number: '9', reason: 'none' },
		],
		['an empty order beside the pair', { order: {}, store_id: 'S', order_number: '9' }],
	])('%s: not found, neither placed nor unreadable', (_, entry) => {
		expect(readBulkAnswer(batchOf(['S', '9']), [entry])).toEqual({
			found: new Map(),
			ambiguous: new Set(),
			unreadable: [],
			lacksStoreId: false,
		});
	});

	test('every entry the node cannot place is named, never called not found', () => {
		const read = readBulkAnswer(batchOf(['S', '1']), [
			'x',
			{ order: [order] },
			{ order: { store_id: 'S', order_number: null } },
			{ order: 'ORDER-TEXT' },
			{ _id: 'o-3', store_id: 'S' },
			{ order: 0 },
			null,
		]);
		expect(read.found.size).toBe(0);
		expect(read.unreadable).toEqual([
			'entry 0 is text "x"',
			'entry 1 has as its order a list of 1 entry',
			'entry 2 has an order without an order_number',
			'entry 3 has as its order text "ORDER-TEXT"',
			'entry 4 is an order without an order_number',
			'entry 5 has as its order number 0',
			'entry 6 is null',
		]);
	});
});

describe('which reference an order answers', () => {
	test('the first copy of an order is kept; an order no reference of the batch asked for is given to no one', () => {
		const copy = { ...order, status: 'copy' };
		const read = readBulkAnswer(batchOf(['S', '1']), [
			order,
			copy,
			{ ...order, order_number: '5' },
			{ order: { order_number: '6' } },
		]);
		expect(placed(read)).toEqual([['S', '1', { order }]]);
		expect(read.ambiguous).toEqual(new Set());
	});

	test('a number asked in two stores, back without store_id: both references ambiguous, neither given an order, even one placed before', () => {
		const batch = batchOf(['S', '1'], ['T', '1'], ['S', '2']);
		const read = readBulkAnswer(batch, [
			order,
			{ order: { order_number: '1' } },
			{ order: { order_number: '2' } },
		]);
		expect(read.ambiguous).toEqual(new Set([referenceKey('S', '1'), referenceKey('T', '1')]));
		expect(placed(read)).toEqual([['S', '2', { order: { order_number: '2' } }]]);
		expect(read.lacksStoreId).toBe(true);
	});
});
