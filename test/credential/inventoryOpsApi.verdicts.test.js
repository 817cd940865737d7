// The credential test's verdict for answers at the edges of each range (500, 300, 422, a 401 on the probe, a token
// that expires this very millisecond), its exact words when nothing was rate limited, and how long it says it
// waited. Run as n8n runs it (test/helpers/engine.js credentialTester), against the sandbox over HTTP. The switches
// that shape error answers and Retry-After are fixed here, so every profile gives the same words.

const { credentialTester } = require('../helpers/engine');
const { useRecordingProxy } = require('../helpers/recordingProxy');
const { startSandbox } = require('../helpers/sandbox');

const BULK = '/api/order/get_single_bulk';
const RESTORE = '/s/ship/shipping/restore_inventory';

let sandbox;
let testCredential;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 20, config: { errorBodies: 'spec', errorCodes: 'sandbox', retryAfter: 'seconds', refusals: 'status', restoreChecks: 'request-first', unknownPaths: 'plain' } });
	testCredential = credentialTester();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const statuses = async (route) => (await sandbox.calls(route)).map((call) => call.status);
const lookupUrl = () => `${sandbox.baseUrl}/order/get_single_bulk`;
const probeUrl = () => `${sandbox.appBaseUrl}/ship/shipping/restore_inventory`;
/** The path beside an operation's that nothing serves, which the credential test compares with. */
const besideUrl = (url) => url.replace(/[^/]+$/, 'no-such-operation-n8n-credential-test');
const APP_WORKS = () =>
	`The App Base URL takes restore requests: ${probeUrl()} answered 400, unlike ${besideUrl(probeUrl())}, a path nothing serves (404); the restore named no shipment, so nothing was restored. The service said: MISSING_FIELD: body.store_id is required.`;

test('a credential that works, with no 429 on the way: the verdict in full, without a word about rate limits', async () => {
	const result = await testCredential(sandbox.credentials());
	expect(result).toEqual({
		status: 'OK',
		message: `The access token works: the service accepted an empty order lookup at ${lookupUrl()}. ${APP_WORKS()}`,
	});
});

test('one 429 with Retry-After: 1, then the answer: the verdict says one 429 and a wait of 1 s', async () => {
	await sandbox.fault({ route: BULK, count: 1, status: 429, retryAfter: 1 });
	const result = await testCredential(sandbox.credentials());
	expect(result.status).toBe('OK');
	expect(result.message).toContain(`at ${lookupUrl()} (after 1 answer(s) 429, rate limited, waited 1 s).`);
	expect(await statuses(BULK)).toEqual([429, 200]);
});

test('addresses pasted with spaces or a line break around them still work', async () => {
	const padded = await testCredential({ ...sandbox.credentials(), baseUrl: `  ${sandbox.baseUrl}\n` });
	expect(padded.status).toBe('OK');
	const appPadded = await testCredential({ ...sandbox.credentials(), appBaseUrl: ` ${sandbox.appBaseUrl} ` });
	expect(appPadded.status).toBe('OK');
	expect(await statuses(RESTORE)).toEqual([400, 400]);
});

test('an address with text before http://: refused as not a URL, nothing sent', async () => {
	const base = await testCredential({ ...sandbox.credentials(), baseUrl: `see ${sandbox.baseUrl}` });
	expect(base.message).toBe(
		`Base URL must start with http:// or https://, for example https://inventory.example.com/api (got "see ${sandbox.baseUrl}").`,
	);
	const app = await testCredential({ ...sandbox.credentials(), appBaseUrl: `url: ${sandbox.appBaseUrl}` });
	expect(app.message).toMatch(/^App Base URL must start with http:\/\/ or https:\/\//);
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
	expect(result).toEqual({
		status: 'Error',
		message: `The access token expired at ${new Date(expiresAt).toISOString()} (401). Create a new token and paste it into Access Token.`,
	});
});

test('an expired token the service answers 403 for: the permission verdict in full, not the expiry', async () => {
	// The status decides first: the expiry is only the reading of a 401.
	await sandbox.fault({ route: BULK, count: 1, status: 403, body: { error: { message: 'scope missing' } } });
	const result = await testCredential(sandbox.credentials(await sandbox.token({ expiresInSeconds: -30 })));
	expect(result).toEqual({
		status: 'Error',
		message:
			'The access token is valid but lacks the permission (scope) for the order lookup (403): use a token with the scopes for orders, kits, shipments and webhook handlers. The service said: scope missing.',
	});
});

test('what the service said keeps the dots inside it; only those at its end give way to the full stop', async () => {
	await sandbox.fault({ route: BULK, count: 1, status: 418, body: { error: { message: 'See docs.example.com/limits...' } } });
	const result = await testCredential(sandbox.credentials());
	expect(result.message).toContain(' The service said: See docs.example.com/limits. The App Base URL');
});

describe('a wrong address where the service said nothing: the verdict in full, with nothing in place of its words', () => {
	test('the order lookup answered 200 with text', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 200, body: 'OK' });
		const result = await testCredential(sandbox.credentials());
		expect(result).toEqual({
			status: 'Error',
			message: `Wrong Base URL: ${lookupUrl()} answered 200 with text, not the service's JSON. Use your account's API address (usually ending in /api), without the operation path.`,
		});
	});

	test('the App Base URL probe answered 200, unlike the path nothing serves: something there takes restore requests', async () => {
		await sandbox.fault({ route: RESTORE, count: 1, status: 200, body: { success: true } });
		const result = await testCredential(sandbox.credentials());
		expect(result).toEqual({
			status: 'OK',
			message: `The access token works: the service accepted an empty order lookup at ${lookupUrl()}. The App Base URL takes restore requests: ${probeUrl()} answered 200, unlike ${besideUrl(probeUrl())}, a path nothing serves (404); the restore named no shipment, so nothing was restored.`,
		});
	});
});

describe('the order lookup answered at the edge of a range', () => {
	test('500 as a web page: a gateway in front of the service, not a wrong Base URL', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 500, body: '<html><head><title>500 Internal Server Error</title></head><body></body></html>' });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toBe(
			`${lookupUrl()} failed (500 with a web page titled "500 Internal Server Error"), from a gateway or proxy: the Base URL and the access token could not be checked. Test again later, or check the Base URL.`,
		);
	});

	test('500 as JSON: the service failed before it checked the token', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 500, body: { error: { message: 'disk full' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result).toEqual({
			status: 'Error',
			message: `${lookupUrl()} failed (500): the Base URL and the access token could not be checked. Test again later, or check the Base URL. The service said: disk full.`,
		});
	});

	test('300, unlike the path nothing serves: something serves the lookup there, the token is not confirmed, what the service said', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 300, body: { error: { message: 'pick one' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result).toEqual({
			status: 'OK',
			message: `Something at the Base URL serves the order lookup: ${lookupUrl()} answered 300, unlike ${besideUrl(lookupUrl())}, a path nothing serves (404). It refused an empty lookup, so the access token is not confirmed. The service said: pick one. ${APP_WORKS()}`,
		});
	});
});

describe('the App Base URL probe answered at the edge of a range', () => {
	test('422 (the restore refused as unprocessable): the probe proves the App Base URL, like a 400', async () => {
		await sandbox.fault({ route: RESTORE, count: 1, status: 422, body: { error: { message: 'shipment selector required' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/restore_inventory answered 422, unlike .*, a path nothing serves \(404\); the restore named no shipment, so nothing was restored\. The service said: shipment selector required\.$/);
	});

	test('401: the App Base URL refused the token the Base URL accepted', async () => {
		await sandbox.fault({ route: RESTORE, count: 1, status: 401, body: { error: { message: 'who are you' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toBe(
			`The Base URL accepted the access token, but the App Base URL ${probeUrl()} refused it (401). Check that both are of one account and the token may restore inventory. The service said: who are you.`,
		);
	});

	test('500: the App Base URL could not be checked, not a wrong address', async () => {
		await sandbox.fault({ route: RESTORE, count: 1, status: 500, body: { error: { message: 'restore queue down' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toBe(
			`${probeUrl()} failed (500): the App Base URL could not be checked. Test again later, or check the App Base URL. The service said: restore queue down.`,
		);
	});

	test('300, unlike the path nothing serves: something there takes restore requests, and what the service said after that sentence', async () => {
		await sandbox.fault({ route: RESTORE, count: 1, status: 300, body: { error: { message: 'moved.' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/restore_inventory answered 300, unlike .*\(404\); the restore named no shipment, so nothing was restored\. The service said: moved\.$/);
	});

	test('a 404 from the order lookup unlike the one of the path nothing serves: not a wrong Base URL, what the service said after that', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 404, body: { error: { code: 'NO_ORDERS', message: 'nothing to look up...' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/^Something at the Base URL serves the order lookup: .* It refused an empty lookup, so the access token is not confirmed\. The service said: NO_ORDERS: nothing to look up\. The App/);
	});
});

describe('what reaches the service (through a recording proxy in front of the sandbox)', () => {
	const proxy = useRecordingProxy(() => sandbox);

	test('every call asks for JSON and carries the token as a bearer, the one to the path nothing serves too', async () => {
		const result = await testCredential(proxy.credentials(sandbox.credentials()));
		expect(result.status).toBe('OK');
		expect(proxy.seen.map(({ url, headers }) => [url, headers.accept, headers.authorization])).toEqual([
			[BULK, 'application/json', `Bearer ${sandbox.demoToken}`],
			[RESTORE, 'application/json', `Bearer ${sandbox.demoToken}`],
			[besideUrl(RESTORE), 'application/json', `Bearer ${sandbox.demoToken}`],
		]);
	});

	test('a credential without an access token sends a bearer with no token, not text of its own', async () => {
		const result = await testCredential(proxy.credentials({ ...sandbox.credentials(), accessToken: undefined }));
		expect(result.message).toMatch(/^The service refused the access token \(401\)/);
		expect(proxy.seen.map(({ headers }) => headers.authorization)).toEqual(['Bearer']);
	});
});
