// The verdict tables (transport/verdicts.ts), row by row: for each question the package answers about a call, what
// evidence gives which verdict. Their effect through the nodes over real HTTP is tested where the user reads it:
// test/credential/inventoryOpsApi.addresses.test.js (a host that does not resolve), transport.notSent.test.js (a
// closed port), test/credential/inventoryOpsApi.test.js (a gateway's 401 page), inventoryOpsApi.proofs.test.js (a
// 401 at a path nothing serves) and test/trigger/removal.notFound.test.js (a handler's 404).
const path = require('node:path');

const verdicts = require(path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/verdicts.js'));

const jwt = (payload) => ['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'c2lnbmF0dXJl'].join('.');

describe('was anything sent? (networkVerdict)', () => {
	// n8n 2.x's SSRF protection throws before sending (e2e/scenarios/ssrf.js proves it in a real n8n); here its error
	// is built by hand with the name and message n8n gives it, since @n8n/backend-network is not a dependency.
	const blocked = Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), { name: 'SsrfBlockedIpError' });

	test.each([
		// Nothing left the machine: the address does not resolve, nothing listens, no route, a refused certificate.
		['getaddrinfo ENOTFOUND', { cause: { code: 'ENOTFOUND' }, message: 'getaddrinfo ENOTFOUND shop.invalid' }, { reason: 'ENOTFOUND', sent: false, timedOut: false }],
		['no resolver answered', { code: 'EAI_AGAIN', message: 'getaddrinfo EAI_AGAIN shop.example' }, { reason: 'EAI_AGAIN', sent: false }],
		['a refused connection, in words only', { message: 'connect ECONNREFUSED 127.0.0.1:5680' }, { reason: 'connect ECONNREFUSED 127.0.0.1:5680', sent: false }],
		['no route to the host', { cause: { code: 'EHOSTUNREACH' } }, { sent: false }],
		['an expired certificate', { cause: { code: 'CERT_HAS_EXPIRED' }, message: 'certificate has expired' }, { sent: false }],
		['a certificate for another name', { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, { sent: false }],
		["n8n's SSRF refusal", blocked, { sent: false, refusedByN8n: true }],
		["n8n's SSRF refusal as the cause", Object.assign(new Error('Request failed'), { cause: blocked }), { sent: false, refusedByN8n: true }],
		// Sent, and no answer: the service may have acted on it.
		['a reset connection', { cause: { code: 'ECONNRESET' }, message: 'socket hang up' }, { reason: 'ECONNRESET', sent: true, timedOut: false }],
		['a hang-up in words only', { httpCode: '502', message: 'socket hang up' }, { reason: 'socket hang up', sent: true }],
		["the client's time-out", { message: 'timeout of 30000ms exceeded' }, { sent: true, timedOut: true }],
		['a time-out code', { code: 'ETIMEDOUT' }, { sent: true, timedOut: true }],
		["axios's abort on time-out", { code: 'ECONNABORTED', message: 'timeout of 100ms exceeded' }, { sent: true, timedOut: true }],
		// A host name is no evidence, even one that spells a code or a time-out.
		['a host named like a time-out', { message: 'getaddrinfo ENOTFOUND timeout-replica.invalid' }, { sent: false, timedOut: false }],
		['a host named like a refusal', { message: 'socket hang up at econnrefused.example' }, { sent: true }],
		['a name that only starts like SSRF', { name: 'Ssrf', message: 'x' }, { sent: true, refusedByN8n: false }],
		// Nothing readable: it may have been sent.
		['nothing readable', {}, { reason: 'unknown network error', sent: true, timedOut: false, refusedByN8n: false }],
		['not an object', 'boom', { reason: 'unknown network error', sent: true }],
		['an empty code is skipped for the words after it', { code: '', message: 'socket hang up' }, { reason: 'socket hang up', sent: true }],
		['a bare status number is skipped for the words after it', { httpCode: '502', messages: ['502 - upstream closed the connection'] }, { reason: '502 - upstream closed the connection', sent: true }],
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
		['401 with a web page, token not expired', 401, { message: '401 Unauthorized', page: true }, jwt({ exp: exp + 1 }), false, 'notShown'],
		['401 with a web page, token expired: the token itself proves it', 401, { message: '401', page: true }, jwt({ exp: exp - 1 }), false, 'expired'],
		['401 at a path nothing serves', 401, words, jwt({ exp: exp + 1 }), true, 'notShown'],
		['403 in words', 403, words, jwt({ exp: exp + 1 }), false, 'lacksScope'],
		['403 for an expired token: the status decides', 403, words, jwt({ exp: exp - 1 }), false, 'lacksScope'],
		['403 with a web page', 403, { page: true, message: 'Forbidden' }, undefined, false, 'notShown'],
		['403 at a path nothing serves', 403, {}, undefined, true, 'notShown'],
	])('%s -> %p', (_, status, said, token, atUnservedPath, expected) => {
		expect(verdicts.tokenVerdict(status, said, token, atUnservedPath)).toBe(expected);
	});

	test('jwtExpiry: the exp of a readable JWT, never more', () => {
		expect(verdicts.jwtExpiry(jwt({ exp }))?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
		expect([verdicts.jwtExpiry('not.a.jwt'), verdicts.jwtExpiry(jwt({ exp: '1' })), verdicts.jwtExpiry(7)]).toEqual([undefined, undefined, undefined]);
	});
});

describe('is the handler gone? (refusalHandlerVerdict, notFoundHandlerVerdict)', () => {
	test.each([
		[{ message: 'Handler not found' }, true],
		[{ code: 'UNKNOWN_HANDLER', message: 'gone' }, true],
		[{ message: 'No such handler' }, true],
		[{ message: 'Handler does not exist' }, true],
		[{ code: 'NOT_FOUND' }, true],
		[{ code: 'LOCKED', message: 'Handler is locked' }, false],
		// The code and the message are read apart: "NOT" and "Found" do not make a "NOTFound".
		[{ code: 'CANNOT', message: 'Found a newer version' }, false],
	])('a refusal saying %j -> gone: %p', (said, gone) => {
		expect(verdicts.refusalHandlerVerdict(said).gone).toBe(gone);
	});

	test('a bare success: false proves nothing: the handler may still exist, with what to check', () => {
		expect(verdicts.refusalHandlerVerdict({})).toEqual({ gone: false, evidence: 'the service refused without a reason', check: 'check the handler in Inventory Ops.' });
	});

	const URL = 'http://svc.example/api/webhook/remove_handler';
	const BESIDE = 'http://svc.example/api/webhook/no-such-operation-n8n-path-check';
	const words = (message) => ({ statusCode: 404, body: { error: { message } } });
	// The path beside is sent over real HTTP in the tests named at the top; here its answer is given.
	const verdictWith = async (answer, beside) => {
		const sent = [];
		const verdict = await verdicts.notFoundHandlerVerdict(URL, answer, async (url) => {
			sent.push(url);
			if (beside instanceof Error) throw beside;
			return beside;
		});
		return { verdict, sent };
	};

	test.each([
		['a web page', { statusCode: 404, body: '<html><title>404</title></html>' }, undefined, false, []],
		['no words', { statusCode: 404, body: '' }, undefined, false, []],
		['words, and the path beside answers otherwise', words('No handler 1'), words('No route'), true, [BESIDE]],
		['words, and the path beside answers the same', words('Not found'), words('Not found'), false, [BESIDE]],
		['words naming the path, and the path beside names its own', words('No route remove_handler'), words('No route no-such-operation-n8n-path-check'), false, [BESIDE]],
		['words, and the path beside answers 503', words('No handler 1'), { statusCode: 503, body: {} }, false, [BESIDE]],
		['words, and the path beside answers 429', words('No handler 1'), { statusCode: 429, body: {} }, false, [BESIDE]],
		['words, and the path beside gives no answer', words('No handler 1'), new Error('socket hang up'), false, [BESIDE]],
	])('a 404 with %s -> gone: %p', async (_, answer, beside, gone, sent) => {
		const result = await verdictWith(answer, beside);
		expect(result.verdict.gone).toBe(gone);
		expect(result.sent).toEqual(sent);
		if (!gone) expect(result.verdict.check).toBe('check the Base URL.');
	});
});
