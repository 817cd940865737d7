// The verdict tables (transport/verdicts.ts), row by row: for each question the package answers
// about a call, what evidence gives which verdict. Their effect through the nodes over real HTTP is
// tested where the user reads it: test/credential/inventoryOpsApi.addresses.test.js (a host that
// does not resolve), transport.notSent.test.js (a closed port),
// test/credential/inventoryOpsApi.test.js (a gateway's 401 page), inventoryOpsApi.proofs.test.js (a
// 401 at a path nothing serves), test/actions/webhookHandler/remove/remove.gone.test.js and
// test/trigger/removal.notFound.test.js (whether a handler is gone).
const path = require('node:path');

const verdicts = require(
	path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/verdicts.js'),
);

const jwt = (payload) =>
	['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'c2lnbmF0dXJl'].join('.');

describe('was anything sent? (networkVerdict)', () => {
	// n8n 2.x's SSRF protection throws before sending (e2e/scenarios/ssrf.js proves it in a real
	// n8n); here its error is built by hand with the name and message n8n gives it, since
	// @n8n/backend-network is not a dependency.
	const blocked = Object.assign(
		new Error('The request was blocked because it resolves to a restricted IP address'),
		{ name: 'SsrfBlockedIpError' },
	);

	test.each([
		// Nothing left the machine: the address does not resolve, nothing listens, no route, a refused
		// certificate.
		[
			'getaddrinfo ENOTFOUND',
			{ cause: { code: 'ENOTFOUND' }, message: 'getaddrinfo ENOTFOUND shop.invalid' },
			{ reason: 'ENOTFOUND', sent: false, timedOut: false },
		],
		[
			'no resolver answered',
			{ code: 'EAI_AGAIN', message: 'getaddrinfo EAI_AGAIN shop.example' },
			{ reason: 'EAI_AGAIN', sent: false },
		],
		[
			'a refused connection, in words only',
			{ message: 'connect ECONNREFUSED 127.0.0.1:5680' },
			{ reason: 'connect ECONNREFUSED 127.0.0.1:5680', sent: false },
		],
		['no route to the host', { cause: { code: 'EHOSTUNREACH' } }, { sent: false }],
		[
			'an expired certificate',
			{ cause: { code: 'CERT_HAS_EXPIRED' }, message: 'certificate has expired' },
			{ sent: false },
		],
		['a certificate for another name', { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, { sent: false }],
		["n8n's SSRF refusal", blocked, { sent: false, refusedByN8n: true }],
		[
			"n8n's SSRF refusal as the cause",
			Object.assign(new Error('Request failed'), { cause: blocked }),
			{ sent: false, refusedByN8n: true },
		],
		// Sent, and no answer: the service may have acted on it.
		[
			'a reset connection',
			{ cause: { code: 'ECONNRESET' }, message: 'socket hang up' },
			{ reason: 'ECONNRESET', sent: true, timedOut: false },
		],
		[
			'a hang-up in words only',
			{ httpCode: '502', message: 'socket hang up' },
			{ reason: 'socket hang up', sent: true },
		],
		[
			"the client's time-out",
			{ message: 'timeout of 30000ms exceeded' },
			{ sent: true, timedOut: true },
		],
		['a time-out code', { code: 'ETIMEDOUT' }, { sent: true, timedOut: true }],
		[
			"axios's abort on time-out",
			{ code: 'ECONNABORTED', message: 'timeout of 100ms exceeded' },
			{ sent: true, timedOut: true },
		],
		// A host name is no evidence, even one that spells a code or a time-out.
		[
			'a host named like a time-out',
			{ message: 'getaddrinfo ENOTFOUND timeout-replica.invalid' },
			{ sent: false, timedOut: false },
		],
		[
			'a host named like a refusal',
			{ message: 'socket hang up at econnrefused.example' },
			{ sent: true },
		],
		[
			'a name that only starts like SSRF',
			{ name: 'Ssrf', message: 'x' },
			{ sent: true, refusedByN8n: false },
		],
		// Nothing readable: it may have been sent.
		[
			'nothing readable',
			{},
			{ reason: 'unknown network error', sent: true, timedOut: false, refusedByN8n: false },
		],
		['not an object', 'boom', { reason: 'unknown network error', sent: true }],
		[
			'an empty code is skipped for the words after it',
			{ code: '', message: 'socket hang up' },
			{ reason: 'socket hang up', sent: true },
		],
		[
			'a bare status number is skipped for the words after it',
			{ httpCode: '502', messages: ['502 - upstream closed the connection'] },
			{ reason: '502 - upstream closed the connection', sent: true },
		],
	])('%s', (_, error, expected) => {
		expect(verdicts.networkVerdict(error)).toMatchObject(expected);
	});
});

describe('may the change have been applied? (appliedVerdict)', () => {
	test.each([
		['a read', false, true, 500, true, undefined],
		['a write not sent', true, false, undefined, true, 'no'],
		['a write sent, no answer', true, true, undefined, true, 'maybe'],
		['a write answered 502', true, true, 502, true, 'maybe'],
		['a write answered 500 (the edge)', true, true, 500, true, 'maybe'],
		['a write refused with 499', true, true, 499, true, 'no'],
		['a write refused with success: false', true, true, 200, true, 'no'],
		['a write answered 200 unreadably', true, true, 200, false, 'probably'],
	])('%s -> %p', (_, changesData, sent, status, readable, expected) => {
		expect(verdicts.appliedVerdict(changesData, sent, status, readable)).toBe(expected);
	});
});

describe('is the token refused? (tokenVerdict)', () => {
	const exp = 1_700_000_000;
	const words = { message: 'Bad signature' };
	let now;
	beforeEach(() => (now = jest.spyOn(Date, 'now').mockReturnValue(exp * 1000)));
	afterEach(() => now.mockRestore());

	test.each([
		['200', 200, words, jwt({ exp: exp + 1 }), false, undefined],
		['404', 404, words, jwt({ exp: exp - 1 }), false, undefined],
		['401 in words', 401, words, jwt({ exp: exp + 1 }), false, 'refused'],
		['401, a token expiring this very millisecond', 401, words, jwt({ exp }), false, 'expired'],
		['401, a token not a JWT', 401, words, 'not-a-jwt', false, 'refused'],
		[
			'401 with a web page, token not expired',
			401,
			{ message: '401 Unauthorized', page: true },
			jwt({ exp: exp + 1 }),
			false,
			'notShown',
		],
		[
			'401 with a web page, token expired: the token itself proves it',
			401,
			{ message: '401', page: true },
			jwt({ exp: exp - 1 }),
			false,
			'expired',
		],
		['401 at a path nothing serves', 401, words, jwt({ exp: exp + 1 }), true, 'notShown'],
		['403 in words', 403, words, jwt({ exp: exp + 1 }), false, 'lacksScope'],
		[
			'403 for an expired token: the status decides',
			403,
			words,
			jwt({ exp: exp - 1 }),
			false,
			'lacksScope',
		],
		[
			'403 with a web page',
			403,
			{ page: true, message: 'Forbidden' },
			undefined,
			false,
			'notShown',
		],
		['403 at a path nothing serves', 403, {}, undefined, true, 'notShown'],
	])('%s -> %p', (_, status, said, token, atUnservedPath, expected) => {
		expect(verdicts.tokenVerdict(status, said, token, atUnservedPath)).toBe(expected);
	});

	test('jwtExpiry: the exp of a readable JWT, never more', () => {
		expect(verdicts.jwtExpiry(jwt({ exp }))?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
		expect([
			verdicts.jwtExpiry('not.a.jwt'),
			verdicts.jwtExpiry(jwt({ exp: '1' })),
			verdicts.jwtExpiry(7),
		]).toEqual([undefined, undefined, undefined]);
	});
});

describe('is the handler gone? (handlerVerdict, fingerprintOf)', () => {
	const ID = '64f1c2a9e8b7d6c5b4a39281';
	const OTHER_ID = '64f1c2a9e8b7d6c5b4a30000';
	const URL = 'http://svc.example/api/webhook/remove_handler';
	const BESIDE = 'http://svc.example/api/webhook/no-such-operation-n8n-path-check';
	const CHECK = 'check the handler in Inventory Ops.';
	/**
	 * The service's answer to an id it does not know, as the sandbox gives it (removeUnknown: 404).
	 */
	const unknown = (id = ID) => ({
		statusCode: 404,
		body: {
			error: {
				code: 'HANDLER_NOT_FOUND',
				message: `No webhook handler with _id ${id}`,
				serviceTraceId: 'trace-1',
			},
		},
	});
	const NO_ROUTE = {
		statusCode: 404,
		body: {
			error: {
				code: 'NOT_FOUND',
				message: 'No route POST /api/webhook/no-such-operation-n8n-path-check',
			},
		},
	};
	/** What was learnt from the answer to OTHER_ID at URL. */
	const learnt = { at: URL, fingerprint: verdicts.fingerprintOf(unknown(OTHER_ID), OTHER_ID) };

	// The path beside is sent over real HTTP in
	// test/actions/webhookHandler/remove/remove.gone.test.js and
	// test/trigger/removal.notFound.test.js; here its answer is given by a function (an Error: no
	// answer).
	const verdictOf = async (answer, options = {}) => {
		const { learn = false, beside = NO_ROUTE, id = ID, url = URL } = options;
		// `known: undefined` is nothing learnt; no `known`: the answer learnt for OTHER_ID.
		const known = 'known' in options ? options.known : learnt;
		const sent = [];
		const verdict = await verdicts.handlerVerdict(url, answer, {
			id,
			known,
			learn,
			send: async (to) => {
				sent.push(to);
				if (beside instanceof Error) throw beside;
				return beside;
			},
		});
		return { verdict, sent };
	};
	const doubt = (evidence) => ({ gone: false, evidence });

	// Whatever the body says, even words of an unknown handler: its status's own reading says what
	// happened.
	const handlerWords = {
		success: false,
		error: { code: 'HANDLER_NOT_FOUND', message: `No webhook handler with _id ${ID}` },
	};
	test.each([401, 403, 429, 100, 101, 199, 300, 301, 302, 399, 500, 502, 503, 599])(
		'%s is never proof, with no evidence of its own and nothing sent, nor anything learnt',
		async (statusCode) => {
			const answer = { statusCode, body: handlerWords };
			// Even an answer the same as the one learnt at this URL, with its status.
			const known = { at: URL, fingerprint: verdicts.fingerprintOf(answer, ID) };
			expect(await verdictOf(answer, { known })).toEqual({ verdict: { gone: false }, sent: [] });
			expect(await verdictOf(answer, { known: undefined, learn: true })).toEqual({
				verdict: { gone: false },
				sent: [],
			});
		},
	);

	test.each([
		[
			'a web page',
			{ statusCode: 404, body: '<html><head><title>404 Not Found</title></head></html>' },
			'the answer was a web page, as a gateway gives for any path it does not know',
		],
		[
			'a web page with 200',
			{ statusCode: 200, body: '<html><title>Handler not found</title></html>' },
			'the answer was a web page, as a gateway gives for any path it does not know',
		],
		[
			'a bare success: false',
			{ statusCode: 200, body: { success: false } },
			'the answer held nothing to tell it apart',
		],
		['a JSON 404 {}', { statusCode: 404, body: {} }, 'the answer held nothing to tell it apart'],
		['an empty 404', { statusCode: 404, body: '' }, 'the answer held nothing to tell it apart'],
		[
			'an error object without code or message',
			{ statusCode: 404, body: { error: { statusCode: 404 } } },
			'the answer held nothing to tell it apart',
		],
	])('%s: never proof, never learnt, nothing sent', async (_, answer, evidence) => {
		// Learnt from this very answer, so only its kind can refuse it.
		const known = { at: URL, fingerprint: verdicts.fingerprintOf(answer, ID) };
		expect(await verdictOf(answer, { known })).toEqual({ verdict: doubt(evidence), sent: [] });
		expect(await verdictOf(answer, { known: undefined, learn: true })).toEqual({
			verdict: doubt(evidence),
			sent: [],
		});
	});

	test.each([
		['nothing learnt', undefined],
		[
			'an answer learnt at another Base URL',
			{ ...learnt, at: 'http://other.example/api/webhook/remove_handler' },
		],
		[
			'an answer learnt at another path of the same host',
			{ ...learnt, at: 'http://svc.example/v2/api/webhook/remove_handler' },
		],
	])('the unknown-id answer itself, with %s: not proof, nothing sent', async (_, known) => {
		expect(await verdictOf(unknown(), { known })).toEqual({
			verdict: doubt('no answer to an unknown id is learnt at this Base URL yet'),
			sent: [],
		});
	});

	test.each([
		[
			'a 200 refusal in other words',
			{ statusCode: 200, body: { success: false, message: 'Unknown lock state, retry later' } },
		],
		[
			'a 404 about something else',
			{
				statusCode: 404,
				body: { error: { code: 'STORE_NOT_FOUND', message: 'No store for this key' } },
			},
		],
		['the same words with another status', { ...unknown(), statusCode: 410 }],
		[
			'the same words with another code',
			{
				statusCode: 404,
				body: { error: { code: 'E_NO_HANDLER', message: `No webhook handler with _id ${ID}` } },
			},
		],
		[
			'the same words in a body of another shape',
			{
				statusCode: 404,
				body: { code: 'HANDLER_NOT_FOUND', message: `No webhook handler with _id ${ID}` },
			},
		],
		[
			'the same words as text',
			{ statusCode: 404, body: `HANDLER_NOT_FOUND: No webhook handler with _id ${ID}` },
		],
	])('%s: not the answer learnt, so not proof, nothing sent', async (_, answer) => {
		expect(await verdictOf(answer)).toEqual({
			verdict: doubt('it is not the answer to an unknown id'),
			sent: [],
		});
	});

	// A catch-all (a gateway's, a deploy's) that gives the same answer for an unknown id and for an
	// unknown path.
	const CATCH_ALL = { statusCode: 404, body: { success: false, message: 'Resource not found' } };
	const namingPath = (segment) => ({
		statusCode: 404,
		body: { error: { code: 'NOT_FOUND', message: `No route POST /api/webhook/${segment}` } },
	});
	test.each([
		['the same answer (a catch-all gives both)', CATCH_ALL, CATCH_ALL, 'the same'],
		[
			'the same answer, naming its own path',
			namingPath('remove_handler'),
			namingPath('no-such-operation-n8n-path-check'),
			'the same',
		],
		['no answer', unknown(), new Error('socket hang up'), 'nothing (nothing to compare with)'],
		['429', unknown(), { statusCode: 429, body: {} }, '429 (nothing to compare with)'],
		[
			'503',
			unknown(),
			{ statusCode: 503, body: { error: { message: 'down' } } },
			'503 (nothing to compare with)',
		],
		['500', unknown(), { statusCode: 500, body: {} }, '500 (nothing to compare with)'],
	])(
		'the answer learnt, and the path beside answers %s: not proof, nor learnt',
		async (_, answer, beside, answered) => {
			const evidence = `${BESIDE}, a path nothing serves, answered ${answered}`;
			const known = { at: URL, fingerprint: verdicts.fingerprintOf(answer, ID) };
			expect(await verdictOf(answer, { beside, known })).toEqual({
				verdict: doubt(evidence),
				sent: [BESIDE],
			});
			// Nor learnt: the answer to an unknown id cannot be told from the answer to an unknown path.
			expect(await verdictOf(answer, { beside, known: undefined, learn: true })).toEqual({
				verdict: doubt(evidence),
				sent: [BESIDE],
			});
		},
	);

	test('proof: the answer learnt at this URL for another id, and the path beside answers otherwise', async () => {
		expect(await verdictOf(unknown())).toEqual({
			verdict: {
				gone: true,
				evidence: `it is the answer to an unknown id, and ${BESIDE}, a path nothing serves, answered differently (404)`,
			},
			sent: [BESIDE],
		});
	});

	// Statuses next to the never-proof ones: the status alone refuses none of them.
	test.each([200, 299, 400, 402, 404, 409, 410, 428, 430, 499])(
		'%s with the answer learnt for it, the path beside answering otherwise: proof',
		async (statusCode) => {
			const answer = (id) => ({
				statusCode,
				body: { success: false, code: 'NO_HANDLER', message: `No handler ${id}` },
			});
			const known = { at: URL, fingerprint: verdicts.fingerprintOf(answer(OTHER_ID), OTHER_ID) };
			expect((await verdictOf(answer(ID), { known })).verdict.gone).toBe(true);
		},
	);

	test('learn: an answer no never-proof row refuses is learnt, at the URL without its credentials, whatever was known', async () => {
		const url = 'http://user:secret@svc.example/api/webhook/remove_handler';
		const beside = 'http://user:secret@svc.example/api/webhook/no-such-operation-n8n-path-check';
		for (const known of [undefined, learnt, { at: 'http://other.example/x', fingerprint: 'x' }]) {
			const { verdict, sent } = await verdictOf(unknown(), { known, learn: true, url });
			expect(verdict).toEqual({
				gone: false,
				learnt: { at: URL, fingerprint: verdicts.fingerprintOf(unknown(), ID) },
			});
			expect(sent).toEqual([beside]);
		}
		// What is learnt is what proves the next one gone.
		const { verdict } = await verdictOf(unknown(), { known: undefined, learn: true });
		expect(
			(await verdictOf(unknown(OTHER_ID), { id: OTHER_ID, known: verdict.learnt })).verdict.gone,
		).toBe(true);
	});

	test('learn: an answer in other words is learnt too (learning compares with nothing learnt before)', async () => {
		const lock = {
			statusCode: 200,
			body: { success: false, message: 'Unknown lock state, retry later' },
		};
		expect((await verdictOf(lock, { known: learnt, learn: true })).verdict.learnt).toEqual({
			at: URL,
			fingerprint: verdicts.fingerprintOf(lock, ID),
		});
	});

	describe('fingerprintOf: what tells two answers apart', () => {
		const fp = verdicts.fingerprintOf;
		test.each([
			[
				'the id sent, where it stands in the message',
				[unknown(ID), ID],
				[unknown(OTHER_ID), OTHER_ID],
			],
			[
				'an id without digits, masked as the id sent',
				[{ statusCode: 404, body: { message: 'No handler abc-handler' } }, 'abc-handler'],
				[{ statusCode: 404, body: { message: 'No handler xyz-handler' } }, 'xyz-handler'],
			],
			[
				'a trace id in the message',
				[{ statusCode: 404, body: { message: 'Not found (trace req-1234)' } }, ID],
				[{ statusCode: 404, body: { message: 'Not found (trace req-98765)' } }, ID],
			],
			[
				'a number in the code',
				[{ statusCode: 404, body: { code: 'E404', message: 'gone' } }, ID],
				[{ statusCode: 404, body: { code: 'E410', message: 'gone' } }, ID],
			],
			[
				'a date',
				[{ statusCode: 404, body: { message: 'No handler since 2024-01-01' } }, ID],
				[{ statusCode: 404, body: { message: 'No handler since 2025-12-31' } }, ID],
			],
			[
				'the values of fields beyond code and message',
				[{ statusCode: 404, body: { error: { message: 'x', origin: 'a', statusCode: 404 } } }, ID],
				[{ statusCode: 404, body: { error: { message: 'x', origin: 'b', statusCode: 404 } } }, ID],
			],
		])('masked or not read: %s', (_, [first, firstId], [second, secondId]) => {
			expect(fp(first, firstId)).toBe(fp(second, secondId));
		});

		test.each([
			[
				'two messages',
				{ statusCode: 200, body: { success: false, message: 'Handler not found' } },
				{ statusCode: 200, body: { success: false, message: 'Handler is locked' } },
			],
			[
				'a word beside a masked id',
				{ statusCode: 404, body: { message: `No handler ${ID}` } },
				{ statusCode: 404, body: { message: `Locked handler ${ID}` } },
			],
			[
				'two codes',
				{ statusCode: 404, body: { code: 'NO_HANDLER', message: 'x' } },
				{ statusCode: 404, body: { code: 'NO_STORE', message: 'x' } },
			],
			[
				'a code or none',
				{ statusCode: 404, body: { code: 'NO_HANDLER', message: 'x' } },
				{ statusCode: 404, body: { message: 'x' } },
			],
			[
				'two statuses',
				{ statusCode: 404, body: { message: 'x' } },
				{ statusCode: 410, body: { message: 'x' } },
			],
			[
				'the fields of the body',
				{ statusCode: 200, body: { success: false, message: 'x' } },
				{ statusCode: 200, body: { success: false, message: 'x', retry: true } },
			],
			[
				'the fields of body.error',
				{ statusCode: 404, body: { error: { message: 'x' } } },
				{ statusCode: 404, body: { error: { message: 'x', type: 'error' } } },
			],
			['JSON or text', { statusCode: 404, body: { message: 'x' } }, { statusCode: 404, body: 'x' }],
			// A masked token stands for something, so it is not the same as nothing there.
			[
				'a number, or nothing where it stood',
				{ statusCode: 404, body: { message: 'No handler 42' } },
				{ statusCode: 404, body: { message: 'No handler ' } },
			],
		])('told apart: %s', (_, first, second) => {
			expect(fp(first, ID)).not.toBe(fp(second, ID));
		});

		test('the id sent, or nothing where it stood: told apart', () => {
			const body = (message) => ({ statusCode: 200, body: { success: false, code: 'E', message } });
			expect(fp(body('abc-handler'), 'abc-handler')).not.toBe(fp(body(''), 'abc-handler'));
		});

		test('the same fields in another order: the same answer', () => {
			const first = { statusCode: 200, body: { success: false, code: 'E', message: 'x' } };
			const second = { statusCode: 200, body: { message: 'x', code: 'E', success: false } };
			expect(fp(first, ID)).toBe(fp(second, ID));
		});
	});

	// compareBeside: the answers of the path beside are given here; over real HTTP in the credential
	// and removal tests.
	describe('compareBeside: is the answer the one a path nothing serves gives?', () => {
		const URL = 'http://svc.example/api/webhook/remove_handler';
		const compare = (answer, beside) => verdicts.compareBeside(URL, answer, async () => beside);
		test.each([
			[
				'a web page or JSON with the same title',
				{ statusCode: 404, body: { error: { message: 'Not Found' } } },
				{ statusCode: 404, body: '<html><title>Not Found</title></html>' },
				false,
			],
			[
				'two codes, one message',
				{ statusCode: 404, body: { code: 'NO_HANDLER', message: 'x' } },
				{ statusCode: 404, body: { code: 'NO_ROUTE', message: 'x' } },
				false,
			],
			[
				'a number, or nothing where it stood',
				{ statusCode: 404, body: { message: 'Not found 42' } },
				{ statusCode: 404, body: { message: 'Not found ' } },
				false,
			],
			[
				'per-request ids in a catch-all',
				{ statusCode: 404, body: { message: 'Not found (request 123a7f)' } },
				{ statusCode: 404, body: { message: 'Not found (request 9bc01)' } },
				true,
			],
			[
				'its own path named, read as the path sent',
				{ statusCode: 404, body: { message: 'No route remove_handler' } },
				{ statusCode: 404, body: { message: 'No route no-such-operation-n8n-path-check' } },
				true,
			],
		])('%s: the same? %p', async (_, answer, beside, same) => {
			expect((await compare(answer, beside)).same).toBe(same);
		});
	});
});
