// The credential and its Test button. n8n runs the nodes' credential test method (testedBy) only
// when the credential type has no declarative `test`; test/helpers/engine.js resolves and calls it
// as n8n's CredentialsTester does, in n8n-core's real CredentialTestContext, against the sandbox
// over HTTP.
const path = require('node:path');

const { closedPort } = require('../helpers/closedPort');
const { credentialTester } = require('../helpers/engine');
const { answers } = require('../helpers/profile');
const { startSandbox } = require('../helpers/sandbox');

const DIST = path.resolve(__dirname, '../../dist');
const { InventoryOpsApi } = require(path.join(DIST, 'credentials/InventoryOpsApi.credentials.js'));
const { InventoryOps } = require(path.join(DIST, 'nodes/InventoryOps/InventoryOps.node.js'));
const { InventoryOpsTrigger } = require(
	path.join(DIST, 'nodes/InventoryOps/InventoryOpsTrigger.node.js'),
);

const credentialType = new InventoryOpsApi();
const BULK = '/api/order/get_single_bulk';
const APP_BESIDE = '/s/ship/shipping/no-such-operation-n8n-path-check';

let sandbox;
let testCredential;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 20 });
	testCredential = credentialTester();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const statuses = async () => (await sandbox.calls(BULK)).map((call) => call.status);
// Whether the profile's service names the path in its answer to a path it does not serve (a page or
// its generic `Not Found` does not): only then does the same answer at an operation's path prove
// the address wrong.
const namesUnknownPaths =
	answers.errorBodies !== 'html' && answers.unknownPaths !== 'service-error';

test('declares bearer auth from the access token and three fields, with no address filled in by default', () => {
	expect(credentialType.authenticate).toEqual({
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
	});
	const fields = Object.fromEntries(credentialType.properties.map((field) => [field.name, field]));
	expect(fields.accessToken.typeOptions).toEqual({ password: true });
	// A user who pastes only a token must not save a localhost address: placeholders show the shape
	// instead.
	expect(fields.baseUrl.default).toBe('');
	expect(fields.appBaseUrl.default).toBe('');
	expect(fields.baseUrl.placeholder).toMatch(/^https:\/\/.*\/api$/);
	expect(fields.appBaseUrl.placeholder).toMatch(/^https:\/\/.*\/s$/);
	// Plain words, not placeholder names in braces that no user has seen.
	for (const field of credentialType.properties)
		expect(field.description).not.toMatch(/[{}]|127\.0\.0\.1|localhost/);
});

test('both nodes name the same credential test method, and the credential has no test of its own that n8n would prefer', () => {
	expect(credentialType.test).toBeUndefined();
	const methods = [new InventoryOps(), new InventoryOpsTrigger()].map((node) => {
		const [entry] = node.description.credentials;
		return node.methods.credentialTest[entry.testedBy];
	});
	expect(typeof methods[0]).toBe('function');
	expect(methods[1]).toBe(methods[0]);
});

test('a valid credential passes with calls that change nothing: an empty lookup, and a request beside the restore path', async () => {
	const before = {
		kits: await sandbox.kits(),
		handlers: await sandbox.handlers(),
		items: await sandbox.items(),
	};
	const result = await testCredential(sandbox.credentials());
	expect(result).toMatchObject({ status: 'OK' });
	expect(result.message).toMatch(
		/ The App Base URL answers and did not refuse the access token: .*\/s\/ship\/shipping\/no-such-operation-n8n-path-check, a path beside the restore path that no operation serves, answered 404\b.*\. Only a first real restore proves that restores work there: the test sends none, since a restore changes data\./,
	);
	expect(
		(await sandbox.calls()).map(({ route, status, body }) => ({ route, status, body })),
	).toEqual([
		{ route: BULK, status: 200, body: { order: [] } },
		{ route: APP_BESIDE, status: 404, body: {} },
	]);
	expect({
		kits: await sandbox.kits(),
		handlers: await sandbox.handlers(),
		items: await sandbox.items(),
	}).toEqual(before);
});

describe('the App Base URL', () => {
	test('one where nothing listens: the test fails naming the App Base URL (it passed before this check existed)', async () => {
		const appBaseUrl = `http://127.0.0.1:${await closedPort()}/s`;
		const result = await testCredential({ ...sandbox.credentials(), appBaseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not connect to the service: \S+\/s\/ship\/shipping\/\S+ was not sent\. Nothing was sent \(ECONNREFUSED\).* check the App Base URL in the credential.* The access token works: /,
		);
	});

	test('the Base URL given as App Base URL: it answers like any address of the service; the test passes, naming the slip', async () => {
		const result = await testCredential({ ...sandbox.credentials(), appBaseUrl: sandbox.baseUrl });
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/\/api\/ship\/shipping\/no-such-operation-n8n-path-check, a path beside the restore path that no operation serves, answered 404\b/,
		);
		expect(result.message).toMatch(
			/ It is the same address as the Base URL: an account's App Base URL usually differs, ending in \/s\.$/,
		);
	});

	test('answered by a web page: its title, never markup', async () => {
		await sandbox.config({ errorBodies: 'html' });
		const result = await testCredential({
			...sandbox.credentials(),
			appBaseUrl: `${sandbox.server.origin}/nope`,
		});
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/ The App Base URL answers .* answered 404\. The answer was a web page titled "404 /,
		);
		expect(result.message).not.toMatch(/<[a-z]/i);
	});

	test('not a URL: says what one looks like, sends nothing', async () => {
		const result = await testCredential({ ...sandbox.credentials(), appBaseUrl: '' });
		expect(result.message).toMatch(
			/^The credential's App Base URL is empty: nothing was sent\. .*, for example https:\/\/inventory\.example\.com\/s\.$/,
		);
		expect(await sandbox.calls()).toEqual([]);
	});
});

test('a Base URL with a trailing slash still works', async () => {
	const result = await testCredential({ ...sandbox.credentials(), baseUrl: `${sandbox.baseUrl}/` });
	expect(result.status).toBe('OK');
});

describe('a transient 429 (the service did nothing)', () => {
	test.each([
		['Retry-After in seconds', 'seconds'],
		['Retry-After as an HTTP date', 'date'],
		['no Retry-After', 'absent'],
	])('the first answer 429 with %s: the test retries and passes', async (_, retryAfter) => {
		await sandbox.config({ retryAfter });
		await sandbox.fault({ route: BULK, count: 1, status: 429, retryAfter: 1 });
		const result = await testCredential(sandbox.credentials());
		expect(result).toMatchObject({ status: 'OK' });
		expect(result.message).toMatch(/ Rate limited \(429\): waited [\d.]+ s of the 5 s allowed\. /);
		expect(await statuses()).toEqual([429, 200]);
	});

	test('a 429 that lasts: a bounded number of tries, then a message that says it is not the token', async () => {
		await sandbox.fault({ route: BULK, count: 50, status: 429, retryAfter: 0 });
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rate limiting \(429\)/);
		expect(result.message).toMatch(/says nothing about the credential/);
		const seen = await statuses();
		expect(seen.length).toBeGreaterThan(1);
		expect(seen.length).toBeLessThanOrEqual(4);
		expect(seen.every((status) => status === 429)).toBe(true);
	});

	test('a Retry-After longer than a credential test waits is reported at once, not waited for', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 429, retryAfter: 120 });
		const result = await testCredential(sandbox.credentials());
		if (answers.retryAfter === 'absent') {
			// The profile's service sends no Retry-After: a short backoff, and the next answer passes.
			expect(result.status).toBe('OK');
			expect(await statuses()).toEqual([429, 200]);
			return;
		}
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			answers.retryAfter === 'date' ? /Retry-After: \w{3}, \d\d \w{3} \d{4}/ : /Retry-After: 120/,
		);
		expect(await statuses()).toEqual([429]);
	});
});

describe('what a failed test says', () => {
	test('a token the service does not accept: 401, check Access Token; the token appears nowhere', async () => {
		const token = `${sandbox.demoToken.slice(0, -6)}AAAAAA`;
		const result = await testCredential(sandbox.credentials(token));
		expect(result.status).toBe('Error');
		// A gateway's page (the profile's errors) does not show the service refusing the token.
		expect(result.message).toMatch(
			answers.errorBodies === 'html'
				? /^The access token is not confirmed: \S+ answered 401, not the service refusing it\. The answer was a web page/
				: /refused the access token \(401\)/,
		);
		expect(result.message).toMatch(
			answers.errorBodies === 'html'
				? /check the Base URL, then the Access Token/
				: /Check the Access Token in the credential/,
		);
		expect(result.message).not.toContain(token.split('.')[2]);
		expect(await statuses()).toEqual([401]);
	});

	test('a 401 or 403 as a gateway page does not show the service refusing the token: the Base URL first, then the token', async () => {
		await sandbox.config({ errorBodies: 'html' });
		const refused = await testCredential(sandbox.credentials('not-a-jwt'));
		expect(refused.message).toMatch(
			/^The access token is not confirmed: \S+ answered 401, not the service refusing it\. The answer was a web page titled "401 Unauthorized", from a gateway or proxy\. A gateway or proxy may answer at that address: check the Base URL, then the Access Token in the credential\.$/,
		);
		const scopeless = await testCredential(
			sandbox.credentials(await sandbox.token({ scopes: ['platformUser'] })),
		);
		expect(scopeless.message).toMatch(
			/^The access token is not confirmed: \S+ answered 403, not the service refusing it\. The answer was a web page/,
		);
		expect(`${refused.message} ${scopeless.message}`).not.toMatch(/<[a-z]/i);
	});

	test('an expired token: says when it expired', async () => {
		const token = await sandbox.token({ expiresInSeconds: -300 });
		const result = await testCredential(sandbox.credentials(token));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The access token expired at \d{4}-\d\d-\d\dT/);
		expect(result.message).not.toContain(token.split('.')[2]);
	});

	test('a token without the scope the service needs: 403, the permission, not the token', async () => {
		const token = await sandbox.token({ scopes: ['platformUser'] });
		const result = await testCredential(sandbox.credentials(token));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			answers.errorBodies === 'html'
				? /^The access token is not confirmed: \S+ answered 403, not the service refusing it\. The answer was a web page/
				: /^The access token lacks the permission \(scope\) \S+\/api\/order\/get_single_bulk needs \(403\)\. .*Use a token with that scope/,
		);
	});

	test('a Base URL where the service has no such route: 404 as the path nothing serves; wrong where the answer names the path', async () => {
		const result = await testCredential({ ...sandbox.credentials(), baseUrl: sandbox.appBaseUrl });
		expect(result.status).toBe(namesUnknownPaths ? 'Error' : 'OK');
		const verdict = namesUnknownPaths
			? 'Wrong Base URL'
			: 'Could not confirm the Base URL or the access token';
		expect(result.message).toMatch(
			new RegExp(`^${verdict}: .*/s/order/get_single_bulk answered 404`),
		);
	});

	test('a Base URL answered by a web page like the path nothing serves: its title, never markup, and not confirmed', async () => {
		await sandbox.config({ errorBodies: 'html' });
		const result = await testCredential({
			...sandbox.credentials(),
			baseUrl: `${sandbox.server.origin}/nope`,
		});
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^Could not confirm the Base URL or the access token: \S+ answered 404; \S+, a path nothing serves, answered the same\. The answer was a web page titled "404 /,
		);
		expect(result.message).not.toMatch(/<[a-z]/i);
	});

	test('a gateway error page (504): not the credential, test again later', async () => {
		await sandbox.config({ errorBodies: 'html' });
		await sandbox.fault({ route: BULK, count: 1, status: 504 });
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The service failed \(504\) during \S+\. The answer was a web page titled .*, from a gateway or proxy\. This call only reads data: run it again later\./,
		);
		expect(result.message).not.toMatch(/<[a-z]/i);
	});

	test('a Base URL where nothing listens: could not be reached, wrong Base URL', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}/api`;
		const result = await testCredential({ ...sandbox.credentials(), baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not connect to the service: \S+\/api\/order\/get_single_bulk was not sent\. Nothing was sent \(ECONNREFUSED\), so nothing changed: check the Base URL in the credential, and that n8n can reach the service\.$/,
		);
	});

	test('a Base URL that is not a URL: says what one looks like, sends nothing', async () => {
		const result = await testCredential({
			...sandbox.credentials(),
			baseUrl: '127.0.0.1:5680/api',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The credential's Base URL is "127\.0\.0\.1:5680\/api", not an http\(s\) address: nothing was sent\./,
		);
		expect(await sandbox.calls()).toEqual([]);
	});
});

describe('answers no other test gives', () => {
	test('the lookup answered 200 with text: wrong Base URL, text is not the service', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 200, body: 'OK' });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(
			/^Wrong Base URL: .*\/api\/order\/get_single_bulk answered 200 with text, not the service's JSON\./,
		);
	});

	test('the lookup answered 503 (JSON) or 418: the status and what the service said, or nothing when it said nothing', async () => {
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 503,
			body: { error: { code: 'MAINTENANCE', message: 'back at 6' } },
		});
		const failed = await testCredential(sandbox.credentials());
		expect(failed.message).toBe(
			`The service failed (503) during ${sandbox.baseUrl}/order/get_single_bulk. The service said: back at 6. This call only reads data: run it again later. The service's code: MAINTENANCE.`,
		);
		await sandbox.fault({ route: BULK, count: 1, status: 503, body: {} });
		const silent = await testCredential(sandbox.credentials());
		expect(silent.message).toBe(
			`The service failed (503) during ${sandbox.baseUrl}/order/get_single_bulk. This call only reads data: run it again later.`,
		);
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 418,
			body: { error: { message: 'short and stout' } },
		});
		const other = await testCredential(sandbox.credentials());
		expect(other.message).toMatch(
			/^Something at the Base URL serves the order lookup: .*\/api\/order\/get_single_bulk answered 418; .*, a path nothing serves, answered differently \(404\)\. The service said: short and stout\. It refused an empty lookup, so the access token is not confirmed\. The App/,
		);
	});

	test('a 429 that lasts without Retry-After: no Retry-After named', async () => {
		await sandbox.fault({ route: BULK, count: 50, status: 429 });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(
			/^The service is rate limiting \(429\) \S+, still after the retries allowed\. .*Test again soon: this says nothing about the credential\. .*Rate limited \(429\): waited [\d.]+ s of the 5 s allowed\.$/,
		);
	});

	test('addresses that are not text (a number from an import): refused as empty, nothing sent', async () => {
		const base = await testCredential({ ...sandbox.credentials(), baseUrl: 5 });
		expect(base.message).toMatch(/^The credential's Base URL is empty: nothing was sent\. /);
		const app = await testCredential({ ...sandbox.credentials(), appBaseUrl: 5 });
		expect(app.message).toMatch(/^The credential's App Base URL is empty: nothing was sent\. /);
		expect(await sandbox.calls()).toEqual([]);
	});
});
