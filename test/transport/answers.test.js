// The one reading of answers (transport/answers.ts), its pure parts one by one: what arrived is
// named exactly, which answers are refusals, and what a removal answer must say. The same readings
// over real HTTP, through both nodes: test/transport/answers.shapes.test.js and
// test/trigger/lifecycle.test.js.
const path = require('node:path');

const answers = require(
	path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/answers.js'),
);

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
		[{}, 'an empty object'],
		[{ a: 1, b: 2 }, 'an object with a, b'],
		[
			Object.fromEntries('abcdefghi'.split('').map((key) => [key, 1])),
			'an object with a, b, c, d, e, f, g, h, …',
		],
		[42, 'number 42'],
		[false, 'boolean false'],
	])('%p -> %s', (value, expected) => {
		expect(answers.summaryOf(value)).toBe(expected);
	});
});

test('unexpectedShape: a list where the route answers a list, an object elsewhere', () => {
	expect(answers.unexpectedShape('orderGetSingleBulk', [])).toBeUndefined();
	expect(answers.unexpectedShape('orderGetSingleBulk', {})).toBe(
		'an empty object where a list was expected',
	);
	expect(answers.unexpectedShape('kitCreate', {})).toBeUndefined();
	expect(answers.unexpectedShape('kitCreate', [])).toBe(
		'a list of 0 entries where an object was expected',
	);
	expect(answers.unexpectedShape('webhookRemoveHandler', null)).toBe(
		'null where an object was expected',
	);
});

describe('refusalIn', () => {
	test('success: false with a reason is a refusal, with the reason', () => {
		expect(answers.refusalIn({ success: false, message: 'No' })).toMatchObject({ message: 'No' });
		expect(answers.refusalIn({ success: false, error: { code: 'LOCKED' } })).toMatchObject({
			code: 'LOCKED',
		});
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

test('a remove_handler answer other than success: true is unreadable: what arrived is named', () => {
	expect(answers.unexpectedShape('webhookRemoveHandler', { success: true })).toBeUndefined();
	expect(answers.unexpectedShape('webhookRemoveHandler', { success: 'true' })).toBe(
		'an object with success, without success true or false',
	);
	expect(answers.unexpectedShape('webhookRemoveHandler', {})).toBe(
		'an empty object, without success true or false',
	);
	// Other operations' objects need no success.
	expect(answers.unexpectedShape('kitCreate', { _id: 'k' })).toBeUndefined();
});

test("isServiceErrorShape: only { error: { message } } with a text message is the service's documented error body", () => {
	expect(answers.isServiceErrorShape({ error: { message: 'm', code: 'C' } })).toBe(true);
	expect(
		[
			{ error: { code: 'C' } },
			{ error: { message: 7 } },
			{ error: 'text' },
			{ message: 'm' },
			'm',
			null,
		].map(answers.isServiceErrorShape),
	).toEqual([false, false, false, false, false, false]);
});

test('isIdLike: an id is non-empty text or a finite number', () => {
	expect([answers.isIdLike('k'), answers.isIdLike(7), answers.isIdLike(0)]).toEqual([
		true,
		true,
		true,
	]);
	expect([' ', Number.NaN, {}, null, undefined, Infinity].map(answers.isIdLike)).toEqual([
		false,
		false,
		false,
		false,
		false,
		false,
	]);
});
