// The credential test's verdict for answers at the edges of each range (500, 300, 422, a 401 beside
// the restore path that passes, a token that expires this very millisecond), its exact words when
// nothing was rate limited, and how long it says it waited. Run as n8n runs it
// (test/helpers/engine.js credentialTester), against the sandbox over HTTP. The switches that shape
// error answers and Retry-After are fixed here, so every profile gives the same words.

const { credentialTester } = require('../helpers/engine');
const { useGateway } = require('../helpers/gateway');
const { useRecordingProxy } = require('../helpers/recordingProxy');
const { startSandbox } = require('../helpers/sandbox');

const BULK = '/api/order/get_single_bulk';

let sandbox;
let testCredential;
beforeAll(async () => {
	sandbox = await startSandbox({
		orders: 20,
		config: {
			errorBodies: 'spec',
			errorCodes: 'sandbox',
			retryAfter: 'seconds',
			refusals: 'status',
			restoreChecks: 'request-first',
			unknownPaths: 'plain',
		},
	});
	testCredential = credentialTester();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const statuses = async (route) => (await sandbox.calls(route)).map((call) => call.status);
const lookupUrl = () => `${sandbox.baseUrl}/order/get_single_bulk`;
/**
 * The path beside an operation's that nothing serves: the credential test compares with it, and at
 * the App Base URL sends only there.
 */
const besideUrl = (url) => url.replace(/[^/]+$/, 'no-such-operation-n8n-path-check');
const appUrl = (appBaseUrl = sandbox.appBaseUrl) =>
	besideUrl(`${appBaseUrl}/ship/shipping/restore_inventory`);
const APP_BESIDE = '/s/ship/shipping/no-such-operation-n8n-path-check';
const ONLY_A_RESTORE =
	'Only a first real restore proves that restores work there: the test sends none, since a restore changes data.';
/** The App Base URL's verdict, up to the code and trace id of the answer, which come last. */
const appAnswered = (answered, said, appBaseUrl) =>
	`The App Base URL answers and did not refuse the access token: ${appUrl(appBaseUrl)}, a path beside the restore path that no operation serves, answered ${answered}. ${said} ${ONLY_A_RESTORE}`;
const APP_WORKS = () =>
	appAnswered("404 in the service's error shape", `The service said: No route POST ${APP_BESIDE}.`);
const TRACE = "The service's code: NOT_FOUND\\. Trace id: [\\w-]+\\.";
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a credential that works, with no 429 on the way: the verdict in full, without a word about rate limits', async () => {
	const result = await testCredential(sandbox.credentials());
	expect(result.status).toBe('OK');
	expect(result.message).toMatch(
		new RegExp(
			`^${escaped(`The access token works: the service accepted an empty order lookup at ${lookupUrl()}. ${APP_WORKS()}`)} ${TRACE}$`,
		),
	);
});

test('one 429 with Retry-After: 1, then the answer: the verdict says it waited 1 s', async () => {
	await sandbox.fault({ route: BULK, count: 1, status: 429, retryAfter: 1 });
	const result = await testCredential(sandbox.credentials());
	expect(result.status).toBe('OK');
	expect(result.message).toContain(
		`at ${lookupUrl()}. Rate limited (429): waited 1 s of the 5 s allowed. The App Base URL`,
	);
	expect(await statuses(BULK)).toEqual([429, 200]);
});

test('addresses pasted with spaces or a line break around them still work', async () => {
	const padded = await testCredential({
		...sandbox.credentials(),
		baseUrl: `  ${sandbox.baseUrl}\n`,
	});
	expect(padded.status).toBe('OK');
	const appPadded = await testCredential({
		...sandbox.credentials(),
		appBaseUrl: ` ${sandbox.appBaseUrl} `,
	});
	expect(appPadded.status).toBe('OK');
	expect(
		(await sandbox.calls()).filter(({ route }) => route === APP_BESIDE).map(({ status }) => status),
	).toEqual([404, 404]);
});

test('an address with text before http://: refused as not a URL, nothing sent', async () => {
	const base = await testCredential({
		...sandbox.credentials(),
		baseUrl: `see ${sandbox.baseUrl}`,
	});
	expect(base.message).toBe(
		`The credential's Base URL is "see ${sandbox.baseUrl}", not an http(s) address: nothing was sent. Set Base URL in the credential to the service's https:// (or http://) address, for example https://inventory.example.com/api.`,
	);
	const app = await testCredential({
		...sandbox.credentials(),
		appBaseUrl: `url: ${sandbox.appBaseUrl}`,
	});
	expect(app.message).toMatch(
		/^The credential's App Base URL is "url: \S+", not an http\(s\) address: nothing was sent\./,
	);
	expect(await sandbox.calls()).toEqual([]);
});

test('a token that expires at the very millisecond of the test counts as expired', async () => {
	const token = await sandbox.token({ expiresInSeconds: -30 });
	const expiresAt = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp * 1000;
	const now = jest.spyOn(Date, 'now').mockReturnValue(expiresAt);
	let result;
	try {
		result = await testCredential(sandbox.credentials(token));
	} finally {
		now.mockRestore();
	}
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(
		new RegExp(
			`^The access token expired at ${new Date(expiresAt).toISOString()}\\. .*Create a new token and put it in the credential\\.`,
		),
	);
});

test('an expired token the service answers 403 for: the permission verdict in full, not the expiry', async () => {
	// The status decides first: the expiry is only the reading of a 401.
	await sandbox.fault({
		route: BULK,
		count: 1,
		status: 403,
		body: { error: { message: 'scope missing' } },
	});
	const result = await testCredential(
		sandbox.credentials(await sandbox.token({ expiresInSeconds: -30 })),
	);
	expect(result).toEqual({
		status: 'Error',
		message: `The access token lacks the permission (scope) ${lookupUrl()} needs (403). The service said: scope missing. Use a token with that scope in the credential.`,
	});
});

test('what the service said keeps its dots, inside and at its end, with no full stop added after them', async () => {
	await sandbox.fault({
		route: BULK,
		count: 1,
		status: 418,
		body: { error: { message: 'See docs.example.com/limits...' } },
	});
	const result = await testCredential(sandbox.credentials());
	expect(result.message).toContain(
		' The service said: See docs.example.com/limits... It refused an empty lookup',
	);
});

describe('a wrong address: the verdict in full, with the text it answered', () => {
	test('the order lookup answered 200 with text', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 200, body: 'OK' });
		const result = await testCredential(sandbox.credentials());
		expect(result).toEqual({
			status: 'Error',
			message: `Wrong Base URL: ${lookupUrl()} answered 200 with text, not the service's JSON. The service said: OK. Use your account's API address (usually ending in /api), without the operation path.`,
		});
	});
});

describe('the order lookup answered at the edge of a range', () => {
	test('500 as a web page: a gateway in front of the service, not a wrong Base URL', async () => {
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 500,
			body: '<html><head><title>500 Internal Server Error</title></head><body></body></html>',
		});
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toBe(
			`The service failed (500) during ${lookupUrl()}. The answer was a web page titled "500 Internal Server Error", from a gateway or proxy. This call only reads data: run it again later.`,
		);
	});

	test('500 as JSON: the service failed before it checked the token', async () => {
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 500,
			body: { error: { message: 'disk full' } },
		});
		const result = await testCredential(sandbox.credentials());
		expect(result).toEqual({
			status: 'Error',
			message: `The service failed (500) during ${lookupUrl()}. The service said: disk full. This call only reads data: run it again later.`,
		});
	});

	test('300, unlike the path nothing serves: something serves the lookup there, the token is not confirmed, what the service said', async () => {
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 300,
			body: { error: { message: 'pick one' } },
		});
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		const expected = `Something at the Base URL serves the order lookup: ${lookupUrl()} answered 300; ${besideUrl(lookupUrl())}, a path nothing serves, answered differently (404). The service said: pick one. It refused an empty lookup, so the access token is not confirmed. ${APP_WORKS()}`;
		expect(result.message).toMatch(new RegExp(`^${escaped(expected)} ${TRACE}$`));
	});
});

describe('the path beside the restore path answered at the edge of a range (a gateway in front of the sandbox)', () => {
	const gateway = useGateway(() => sandbox);
	const viaGateway = () => gateway.credentials(sandbox.credentials());
	const answer = (status, message) =>
		gateway.answers.push({ path: /^\/s\//, status, body: JSON.stringify({ error: { message } }) });

	test.each([
		[200, 'ok'],
		[300, 'moved.'],
		[422, 'unprocessable'],
		[405, 'POST only'],
	])(
		"%s: the address answers, in the service's error shape; only a first real restore proves restores",
		async (status, message) => {
			answer(status, message);
			const result = await testCredential(viaGateway());
			const said = `The service said: ${message}${/\.$/.test(message) ? '' : '.'}`;
			expect(result).toEqual({
				status: 'OK',
				message: `The access token works: the service accepted an empty order lookup at ${viaGateway().baseUrl}/order/get_single_bulk. ${appAnswered(`${status} in the service's error shape`, said, viaGateway().appBaseUrl)}`,
			});
		},
	);

	// The lookup proved the token: a 401 there shows nothing wrong (a gateway answers so for a path
	// it does not route).
	test('401 at a path nothing serves: passes, the App Base URL could not be checked, one verdict on the token', async () => {
		answer(401, 'who are you');
		const result = await testCredential(viaGateway());
		expect(result).toEqual({
			status: 'OK',
			message: `The access token works: the service accepted an empty order lookup at ${viaGateway().baseUrl}/order/get_single_bulk. The App Base URL could not be checked: ${appUrl(viaGateway().appBaseUrl)}, a path beside the restore path that no operation serves, answered 401, which a gateway gives for a path it does not route, or a rate limit. The service said: who are you. The first restore proves the App Base URL; if it fails there, its error says what to check.`,
		});
	});

	test('500: the App Base URL could not be checked, not a wrong address', async () => {
		answer(500, 'restore queue down');
		const result = await testCredential(viaGateway());
		expect(result.message).toBe(
			`The service failed (500) during ${appUrl(viaGateway().appBaseUrl)}. The service said: restore queue down. This call only reads data: run it again later. The access token works: the service accepted an empty order lookup at ${viaGateway().baseUrl}/order/get_single_bulk.`,
		);
	});
});

describe('the order lookup answered 404', () => {
	test('a 404 from the order lookup unlike the one of the path nothing serves: not a wrong Base URL, what the service said after that', async () => {
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 404,
			body: { error: { code: 'NO_ORDERS', message: 'nothing to look up...' } },
		});
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^Something at the Base URL serves the order lookup: .* The service said: nothing to look up\.\.\. It refused an empty lookup, so the access token is not confirmed\. The service's code: NO_ORDERS\. The App/,
		);
	});
});

describe('what reaches the service (through a recording proxy in front of the sandbox)', () => {
	const proxy = useRecordingProxy(() => sandbox);

	test('every call asks for JSON and carries the token as a bearer, the one to the path nothing serves too', async () => {
		const result = await testCredential(proxy.credentials(sandbox.credentials()));
		expect(result.status).toBe('OK');
		expect(
			proxy.seen.map(({ url, headers }) => [url, headers.accept, headers.authorization]),
		).toEqual([
			[BULK, 'application/json', `Bearer ${sandbox.demoToken}`],
			[APP_BESIDE, 'application/json', `Bearer ${sandbox.demoToken}`],
		]);
	});

	test('a credential without an access token sends a bearer with no token, not text of its own', async () => {
		const result = await testCredential(
			proxy.credentials({ ...sandbox.credentials(), accessToken: undefined }),
		);
		expect(result.message).toMatch(/^The service refused the access token \(401\)/);
		// The second is the path beside, which shows the 401 is the service's.
		expect(proxy.seen.map(({ headers }) => headers.authorization)).toEqual(['Bearer', 'Bearer']);
	});
});
