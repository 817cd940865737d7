// The transport's pure parts (Retry-After, retry bounds, the service's error shape, the token's
// expiry in words). The HTTP side is tested through the node against the sandbox in test/actions
// (the default retry bound, which endpoints change data and which base URL each uses:
// test/transport/errors.serviceFailures.test.js and the per-operation files).
const path = require('node:path');

const dist = (file) =>
	require(path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport', file));
const { parseRetryAfter, nextRetryDelay } = dist('rateLimit.js');
const { failureFromAnswer } = dist('outcome.js');
const { textsOf } = dist('render.js');
const { readServiceError } = dist('answers.js');

const jwt = (payload) =>
	[
		'e30',
		Buffer.from(JSON.stringify(payload)).toString('base64url'),
		'c2lnbmF0dXJlLXNlY3JldA',
	].join('.');

describe('Retry-After', () => {
	const now = Date.parse('2026-11-22T10:00:00Z');
	test.each([
		['2', 2000],
		['0.5', 500],
		[3, 3000],
		['Sun, 22 Nov 2026 10:00:04 GMT', 4000],
		['Sun, 22 Nov 2026 09:59:00 GMT', 0],
		[['1', '9'], 1000],
		['soon', undefined],
		['', undefined],
		[undefined, undefined],
	])('%p -> %p ms', (header, expected) => {
		expect(parseRetryAfter(header, now)).toBe(expected);
	});

	test('retries are bounded in number and in total wait', () => {
		const policy = { maxRetries: 2, maxTotalWaitMs: 5000, baseDelayMs: 100 };
		expect(nextRetryDelay(policy, 0, undefined)).toBe(100);
		expect(nextRetryDelay(policy, 1, undefined)).toBe(200);
		expect(nextRetryDelay(policy, 2, '1')).toBeUndefined();
		expect(nextRetryDelay(policy, 0, '6')).toBeUndefined();
		expect(nextRetryDelay(policy, 0, '5')).toBe(5000);
	});
});

describe('the service error shape', () => {
	test('reads the fields of the error object and ignores wrongly typed ones', () => {
		expect(
			readServiceError({
				error: { message: 'm', statusCode: 400, code: 'C', serviceTraceId: 't', user_error: 'yes' },
			}),
		).toEqual({ message: 'm', statusCode: 400, code: 'C', serviceTraceId: 't' });
		expect(
			readServiceError(
				'<html><head><title>502 Bad Gateway</title></head><body><h1>x</h1></body></html>',
			),
		).toEqual({
			message: '502 Bad Gateway',
			page: true,
		});
		expect(readServiceError('upstream connect error')).toEqual({
			message: 'upstream connect error',
		});
		expect(readServiceError({ message: 'bare', code: 'B' })).toMatchObject({
			message: 'bare',
			code: 'B',
		});
		expect(readServiceError(null)).toEqual({});
	});

	test('a page without <title>: its first heading, markup and &nbsp; removed; a page with neither: said so', () => {
		expect(
			readServiceError(
				'<!doctype html><html><body><h1 class="big">Service&nbsp;<b>Unavailable</b>\n now</h1></body></html>',
			),
		).toEqual({ message: 'Service Unavailable now', page: true });
		expect(readServiceError('<html><body><p>Down</p></body></html>')).toEqual({
			message: 'a page without a title',
			page: true,
		});
	});

	test('text: on one line and cut at 300 characters; JSON sent as text is read as JSON, text that only looks like it is text', () => {
		const long = readServiceError(`${'word '.repeat(100)}end`).message;
		expect(long).toBe(`${'word '.repeat(60).slice(0, 300)}…`);
		expect(readServiceError('  {"error":{"message":"m","code":"C"}}\n')).toMatchObject({
			message: 'm',
			code: 'C',
		});
		expect(readServiceError(Buffer.from('[{"message":"in a list"}]'))).toEqual({});
		expect(readServiceError('{not json')).toEqual({ message: '{not json' });
		expect(readServiceError('   ')).toEqual({});
	});

	test('{ error: "text" } gives that text as the message, keeping the other fields; a message beside it wins', () => {
		expect(readServiceError({ error: 'Forbidden here', code: 'F', traceId: 't2' })).toMatchObject({
			message: 'Forbidden here',
			code: 'F',
			serviceTraceId: 't2',
		});
		expect(readServiceError({ error: 'short', message: 'the message' })).toMatchObject({
			message: 'the message',
		});
		// serviceTraceId is the service's own name: a traceId beside it does not replace it.
		expect(readServiceError({ message: 'm', serviceTraceId: 'own', traceId: 'other' })).toEqual({
			message: 'm',
			serviceTraceId: 'own',
		});
		expect(readServiceError({ message: 'm', serviceTraceId: 5, traceId: 'other' })).toEqual({
			message: 'm',
			serviceTraceId: 'other',
		});
		// A traceId that is no text is no trace id to quote.
		expect(readServiceError({ message: 'm', traceId: 7 })).toEqual({ message: 'm' });
	});

	test('an expired JWT gives its expiry time, never the token', () => {
		const token = jwt({ exp: 1_700_000_000, scopes: ['platformApi'] });
		const error = textsOf(
			failureFromAnswer(
				401,
				{ error: { message: 'Token expired', statusCode: 401, code: 'TOKEN_EXPIRED' } },
				{ endpoint: 'kitCreate', accessToken: token },
			),
		);
		expect(error.message).toBe(
			'The access token expired at 2023-11-14T22:13:20.000Z. The service said: Token expired.',
		);
		expect(error.description).toBe(
			"Create a new token and put it in the credential. The service's code: TOKEN_EXPIRED.",
		);
		expect(JSON.stringify(error)).not.toContain(token.split('.')[2]);
	});

	test("a 401 with a token that is not expired: the token refused, in the service's words", () => {
		const token = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
		const error = textsOf(
			failureFromAnswer(
				401,
				{ error: { message: 'Bad signature' } },
				{ endpoint: 'kitCreate', accessToken: token },
			),
		);
		expect(error.message).toBe(
			'The service refused the access token (401). The service said: Bad signature.',
		);
	});
});
