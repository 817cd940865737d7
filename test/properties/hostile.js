// Random and hostile values for the property suites, and their run settings.
//
// Every run draws a fresh seed and prints it, so each run explores new inputs and a failure can be
// repeated:
//   PROPERTY_SEED=<seed printed> npx jest test/properties/<file>
// `npm test` runs 200 cases per property; the properties slice of `npm run test:all` runs 1,000:
//   PROPERTY_RUNS=1000 PROPERTY_SEED=<any number> npm run properties:long
// A failure also prints the seed and the path that reproduce it (fast-check's report).
const fc = require('fast-check');

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
// A 31-bit seed: fast-check takes any integer; this keeps it short to copy.
const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const settings = { numRuns: RUNS, seed: SEED, endOnFailure: true };
// A case takes some 20-150 ms over HTTP; on a loaded machine several times that. The time-out
// follows the runs, so more runs never fail for time alone (jest's 30 s default fits about 30 cases
// under load).
jest.setTimeout(Math.max(30_000, RUNS * 1_000));
// Straight to stderr: jest holds console output back until a file ends and prints it with a stack
// line.
process.stderr.write(
	`property suites: PROPERTY_SEED=${SEED} PROPERTY_RUNS=${RUNS} (${require.main?.filename ?? 'jest'})\n`,
);

/**
 * A marker that must never come out of a node: it is only ever given as a password inside a URL.
 */
const PASSWORD = 'pw-MARK-9f3c';

const controlChar = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));
const nasty = fc.constantFrom(
	'\r\n',
	'\u0000',
	'\u007f',
	'\u0085',
	'\u2028',
	'\ud800',
	'\t',
	' ',
	'\u00a0',
);
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
/** Valid-looking text with a control or odd character somewhere inside. */
const tainted = fc.tuple(text, fc.oneof(controlChar, nasty), text).map((parts) => parts.join(''));

/** `depth` levels of nesting as JSON text: `[[[1]]]` or `{"a":{"a":1}}`. */
const nested = (depth, arrays) =>
	arrays
		? `${'['.repeat(depth)}1${']'.repeat(depth)}`
		: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * A value nested up to 60 levels deep, as an item's json may hold. Deeper values cannot be item
 * data here: n8n's own parameter resolution recurses through them and overflows the stack before
 * the node runs (the test engine hands input items to its start node as a parameter). Deeper
 * nesting goes through JSON text (deepText). Shown short in reports, because fast-check's printer
 * recurses too.
 */
const deep = fc.tuple(fc.integer({ min: 10, max: 60 }), fc.boolean()).map(([depth, arrays]) =>
	Object.defineProperty(JSON.parse(nested(depth, arrays)), fc.toStringMethod, {
		value: () => `<${depth} levels>`,
	}),
);

/** JSON text nested up to 100,000 levels, for the parameters the node reads as JSON text itself. */
const deepText = fc
	.tuple(fc.integer({ min: 1000, max: 100_000 }), fc.boolean())
	.map(([depth, arrays]) => nested(depth, arrays));

/** Objects whose own keys are the ones that reach Object.prototype when copied carelessly. */
const prototypeKeys = fc.constantFrom(
	JSON.parse('{"__proto__":{"polluted":"yes"}}'),
	JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}'),
	JSON.parse('{"prototype":{"polluted":"yes"},"toString":"x","hasOwnProperty":1}'),
);

const huge = fc.constantFrom('x'.repeat(10_001), 'é'.repeat(200_000), `${'a,'.repeat(50_000)}a`);

/** Anything a careless expression or a hostile sender can put into a field. */
const hostile = fc.oneof(
	fc.constant(undefined),
	fc.constant(null),
	fc.constantFrom(
		'',
		'   ',
		'0x10',
		'1e3',
		'Infinity',
		'NaN',
		'-1',
		'true',
		'[]',
		'{}',
		'__proto__',
	),
	fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, -1, 2 ** 53 + 1, 0.1),
	fc.string({ unit: 'binary', maxLength: 20 }),
	tainted,
	huge,
	fc.integer(),
	fc.boolean(),
	deep,
	prototypeKeys,
	fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }),
	fc.object({ maxDepth: 2 }),
);

/** Mostly `valid`, sometimes hostile. */
const maybe = (valid, weight = 8) =>
	fc.oneof({ arbitrary: valid, weight }, { arbitrary: hostile, weight: 1 });

/**
 * URLs: valid ones, ones with a password, and broken ones (spaces, control characters, other
 * schemes, no host).
 */
const url = fc.oneof(
	{ weight: 4, arbitrary: fc.webUrl({ validSchemes: ['http', 'https'] }) },
	fc
		.webUrl({ validSchemes: ['https'] })
		.map((address) => address.replace('://', `://user:${PASSWORD}@`)),
	fc.constantFrom(
		'https://exa mple.com/hook',
		'https://example.com/ho\r\nok',
		'https://example.com/\u0000',
		'ftp://example.com/x',
		'https:///x',
		'javascript:alert(1)',
		'https:\\\\example.com',
		`https://a:${PASSWORD}@exa mple.com/x`,
	),
	{ weight: 1, arbitrary: hostile },
);

/**
 * JSON text of a value, sometimes with prototype keys spliced in (JSON.parse keeps them as own
 * keys).
 */
function jsonText(value) {
	const splice = fc.oneof(
		{ weight: 4, arbitrary: fc.constant('') },
		fc.constantFrom(
			'"__proto__":{"polluted":"yes"},',
			'"constructor":{"prototype":{"polluted":"yes"}},',
		),
	);
	return fc.tuple(value, splice).map(([inner, extra]) => {
		const json = JSON.stringify(inner) ?? 'null';
		return extra !== '' && json.startsWith('{') && json !== '{}'
			? `{${extra}${json.slice(1)}`
			: json;
	});
}

/** Object.prototype must stay as it was, whatever the input. */
function expectNoPollution() {
	expect({}.polluted).toBeUndefined();
	expect(Object.keys(Object.prototype)).toEqual([]);
}

module.exports = {
	fc,
	settings,
	RUNS,
	SEED,
	PASSWORD,
	text,
	tainted,
	hostile,
	deepText,
	maybe,
	url,
	jsonText,
	expectNoPollution,
};
