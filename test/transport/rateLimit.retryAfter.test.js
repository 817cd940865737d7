// A Retry-After with whitespace around its seconds (issue 59), over real HTTP through n8n's engine:
// a gateway in front of the sandbox answers the 429s itself and passes every other call on. Node's
// HTTP parser strips spaces and tabs around a header value, but not a no-break space (U+00A0, byte
// A0, which a header may carry), so "70\u00a0" reaches the node as it was sent. The sandbox cannot
// send that byte (its server writes header text as UTF-8, C2 A0, which arrives as "Â\u00a0"),
// hence the gateway.
//
// Guards the mutant of nodes/InventoryOps/transport/rateLimit.ts, parseRetryAfter, that drops the
// `.trim()` of `String(Array.isArray(value) ? value[0] : value).trim()`. Without it, "70\u00a0" is
// no number of seconds, and Date.parse reads it as 1 January 1970 (and "0.5\u00a0" as 1 May 2000):
// a date past, so no wait at all. With it, 70 s is more than the 30 s a call may wait (the node
// gives up at once, naming the Retry-After), and 0.5 s is waited before each retry (the wait the
// node reports). (A "100000\u00a0" would not tell them apart: Date.parse reads the year 100000.)
const { useGateway } = require('../helpers/gateway');
const { useInventoryOps } = require('../helpers/inventoryOps');

const KIT = '/api/kit/create';
const ctx = useInventoryOps({ orders: 10 });
const gateway = useGateway(() => ctx.sandbox);

const kit = { resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-RETRY-AFTER' };
const SLOW_DOWN = '{"error":{"message":"slow down"}}';

/**
 * The gateway answers the next `times` kit creates with a 429 and this Retry-After, written byte
 * for byte (latin1).
 */
function rateLimit(retryAfter, times) {
	const answer = {
		path: /\/kit\/create$/,
		status: 429,
		headers: { 'Retry-After': retryAfter },
		body: SLOW_DOWN,
		times,
	};
	gateway.answers.push(answer);
	return answer;
}
const run = () =>
	ctx.run(kit, {
		credentials: gateway.credentials(ctx.sandbox.credentials()),
		continueOnFail: true,
	});

test.each(['70\u00a0', '\u00a070', '\u00a070\u00a0'])(
	'Retry-After %j is 70 s, more than a call may wait: the node gives up at once, naming it',
	async (retryAfter) => {
		const answer = rateLimit(retryAfter, 1);
		const [item] = (await run()).items;
		expect(item.json.error).toBe(
			'The service is rate limiting (429), still after the retries allowed. The service said: slow down.',
		);
		expect(item.json.details.description).toBe(
			`Try again later, or lower Batch Size or Calls in Flight. Rate limited (429): waited 0 s of the 30 s allowed; the service asked for Retry-After: ${retryAfter}.`,
		);
		// One call, the 429's: nothing reached the service, so no kit was made.
		expect(answer.times).toBe(0);
		expect(await ctx.sandbox.calls(KIT)).toEqual([]);
		expect(await ctx.sandbox.kits()).toEqual([]);
	},
);

test('Retry-After "0.5\\u00a0" on every answer: half a second before each of the three retries, as the node reports', async () => {
	const answer = rateLimit('0.5\u00a0', 4);
	const [item] = (await run()).items;
	expect(item.json.details.description).toBe(
		'Try again later, or lower Batch Size or Calls in Flight. Rate limited (429): waited 1.5 s of the 30 s allowed; the service asked for Retry-After: 0.5\u00a0.',
	);
	// The first call and three retries, all answered 429 by the gateway.
	expect(answer.times).toBe(0);
	expect(await ctx.sandbox.calls(KIT)).toEqual([]);
});

// The count only (the mutant retries too, at once): the test above checks the wait.
test('Retry-After "1\\u00a0" once: the node waits, retries once, and the retry makes the kit', async () => {
	const answer = rateLimit('1\u00a0', 1);
	const [item] = (await run()).items;
	expect(item.json).toMatchObject({ success: true, _id: expect.any(String) });
	expect(answer.times).toBe(0);
	expect((await ctx.sandbox.calls(KIT)).map((call) => call.status)).toEqual([200]);
	expect(await ctx.sandbox.kits()).toHaveLength(1);
});

// Spaces and tabs never reach the node (the HTTP parser strips them), so these cannot tell the
// trim's mutant apart; they show that such a header still reads as its seconds (70 s: too long, the
// node gives up at once).
test.each([' 70 ', '\t70', '70\t '])('Retry-After %j reads as 70 s too', async (retryAfter) => {
	const answer = rateLimit(retryAfter, 1);
	const [item] = (await run()).items;
	expect(item.json.details.description).toBe(
		'Try again later, or lower Batch Size or Calls in Flight. Rate limited (429): waited 0 s of the 30 s allowed; the service asked for Retry-After: 70.',
	);
	expect(answer.times).toBe(0);
	expect(await ctx.sandbox.calls(KIT)).toEqual([]);
});
