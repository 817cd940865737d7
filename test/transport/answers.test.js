// The one reading of answers (transport/answers.ts), its pure parts one by one: what arrived is named exactly,
// which answers are refusals, and what a removal answer must say. The same readings over real HTTP, through
// both nodes: test/transport/answers.shapes.test.js and test/trigger/lifecycle.test.js.
const path = require('node:path');

const answers = require(path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/answers.js'));

describe('summaryOf names what arrived', () => {
	test.each([
		[undefined, 'nothing'],
		[null, 'null'],
		[[], 'a list of 0 entries'],
		[[1], 'a list of 1 entry'],
		['', 'an empty body'],
		['  \n ', 'an empty body'],
		['OK', 'text "OK"'],
		['a\n  b', 'text "a b"'],
		['x'.repeat(81), `text "${'x'.repeat(80)}…"`],
		[new Uint8Array(Buffer.from('bytes')), 'text "bytes"'],
		[{}, 'an empty object'],
		[{ a: 1, b: 2 }, 'an object with a, b'],
		[Object.fromEntries('abcdefghi'.split('').map((key) => [key, 1])), 'an object with a, b, c, d, e, f, g, h, …'],
		[42, 'number 42'],
		[false, 'boolean false'],
	])('%p -> %s', (value, expected) => {
		expect(answers.summaryOf(value)).toBe(expected);
	});
});

test('unexpectedShape: a list where the route answers a list, an object elsewhere', () => {
	expect(answers.unexpectedShape('orderGetSingleBulk', [])).toBeUndefined();
	expect(answers.unexpectedShape('orderGetSingleBulk', {})).toBe('an empty object where a list was expected');
	expect(answers.unexpectedShape('kitCreate', {})).toBeUndefined();
	expect(answers.unexpectedShape('kitCreate', [])).toBe('a list of 0 entries where an object was expected');
	expect(answers.unexpectedShape('webhookRemoveHandler', null)).toBe('null where an object was expected');
});

describe('refusalIn', () => {
	test('success: false with a reason is a refusal, with the reason', () => {
		expect(answers.refusalIn({ success: false, message: 'No' })).toMatchObject({ message: 'No' });
		expect(answers.refusalIn({ success: false, error: { code: 'LOCKED' } })).toMatchObject({ code: 'LOCKED' });
		expect(answers.refusalIn({ success: true, message: 'fine' })).toBeUndefined();
		expect(answers.refusalIn([{ success: false, message: 'No' }])).toBeUndefined();
	});

	// remove_handler's too (issue 51): it proves neither removed nor unknown.
	test('a bare success: false is a refusal without a reason; a success that is not false is none', () => {
		expect(answers.refusalIn({ success: false })).toEqual({});
		expect(answers.refusalIn({ success: 'false' })).toBeUndefined();
		expect(answers.refusalIn({})).toBeUndefined();
	});
});

describe('readBulkAnswer: an entry is "not found" only when it carries no order in any form', () => {
	const read = (...entries) => answers.readBulkAnswer(entries);
	const placed = ({ entries }) => entries.map(({ entry, storeId, orderNumber }) => [entry, storeId, orderNumber]);
	const order = { _id: 'o-1', store_id: 'S', order_number: '1', status: 'unstarted' };

	test('wrapped entries: the order placed by its pair, the entry kept as it came (extra fields too)', () => {
		const entry = { order, metrics: { m: 1 }, barcode_generation_failed: { message: 'x', code: 'B' }, extra: true };
		expect(placed(read(entry, { order: { order_number: 2 } }))).toEqual([
			[entry, 'S', '1'],
			[{ order: { order_number: 2 } }, undefined, 2],
		]);
	});

	test('a bare order record is read as that order, given the wrapped layout', () => {
		expect(placed(read(order))).toEqual([[{ order }, 'S', '1']]);
		// Without store_id it is placed by its number, as a wrapped order without one.
		expect(placed(read({ order_number: '7', status: 'x' }))).toEqual([[{ order: { order_number: '7', status: 'x' } }, undefined, '7']]);
	});

	test("a bare record's metrics and barcode failure go beside its order, as in a wrapped entry", () => {
		const failure = { message: 'no barcode', code: 'B' };
		expect(placed(read({ ...order, metrics: { m: 1 }, barcode_generation_failed: failure }))).toEqual([
			[{ order, metrics: { m: 1 }, barcode_generation_failed: failure }, 'S', '1'],
		]);
		expect(placed(read({ ...order, barcode_generation_failed: failure }))[0][0]).toEqual({ order, barcode_generation_failed: failure });
	});

	test('a mixed answer: wrapped and bare entries read one by one, in the order they came', () => {
		const other = { ...order, _id: 'o-2', order_number: '2' };
		expect(placed(read({ order }, other, { order: null }, { ...other, order_number: '3' })).map(([, , number]) => number)).toEqual([
			'1',
			'2',
			'3',
		]);
	});

	test.each([
		['order: null', { order: null }],
		['an empty order', { order: {} }],
		['an empty entry', {}],
		['metrics alone', { metrics: { matched: false } }],
		['the pair asked for, and metrics', { store_id: 'S', order_number: '9', metrics: { matched: false } }],
		['order: null beside the pair and other fields', { order: null, store_id: 'S', order_number: '9', reason: 'none' }],
		['an empty order beside the pair', { order: {}, store_id: 'S', order_number: '9' }],
	])('%s: not found, neither placed nor unreadable', (_, entry) => {
		expect(read(entry)).toEqual({ entries: [], unreadable: [] });
	});

	test('every entry the node cannot place is named, never called not found', () => {
		const { entries, unreadable } = read(
			'x',
			{ order: [order] },
			{ order: { store_id: 'S', order_number: null } },
			{ order: 'ORDER-TEXT' },
			{ _id: 'o-3', store_id: 'S' },
			{ order: 0 },
			null,
		);
		expect(entries).toEqual([]);
		expect(unreadable).toEqual([
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

test('a remove_handler answer other than success: true is unreadable: what arrived is named', () => {
	expect(answers.unexpectedShape('webhookRemoveHandler', { success: true })).toBeUndefined();
	expect(answers.unexpectedShape('webhookRemoveHandler', { success: 'true' })).toBe('an object with success, without success true or false');
	expect(answers.unexpectedShape('webhookRemoveHandler', {})).toBe('an empty object, without success true or false');
	// Other operations' objects need no success.
	expect(answers.unexpectedShape('kitCreate', { _id: 'k' })).toBeUndefined();
});

test('isIdLike: an id is non-empty text or a finite number', () => {
	expect([answers.isIdLike('k'), answers.isIdLike(7), answers.isIdLike(0)]).toEqual([true, true, true]);
	expect([' ', Number.NaN, {}, null, undefined, Infinity].map(answers.isIdLike)).toEqual([false, false, false, false, false, false]);
});
