// What the transport reads out of a token and out of a failed call: a credential without an access token is
// reported as a refused token (not a crash); a token that expires at this very moment is expired; and the reason of a
// network failure is the first text that says something, skipping bare status numbers only. The credential test runs
// in n8n-core's real CredentialTestContext against the sandbox; the rest uses the module's exported functions, as
// test/transport/transport.test.js does.
const path = require('node:path');

const { credentialTester } = require('../helpers/engine');
const { startSandbox } = require('../helpers/sandbox');

const { apiErrorFromNetworkFailure, apiErrorFromResponse, networkReason } = require(path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/errors.js'));

const node = { id: 'n', name: 'Inventory Ops', type: 'inventoryOps', typeVersion: 1, position: [0, 0], parameters: {} };
const jwt = (payload) => ['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'c2lnbmF0dXJl'].join('.');

describe('the credential test', () => {
	let sandbox;
	let testCredential;
	beforeAll(async () => {
		sandbox = await startSandbox({ orders: 1 });
		testCredential = credentialTester();
	});
	afterAll(() => sandbox.close());

	test('a credential saved without an access token: the token is refused, said as such', async () => {
		const { accessToken: _token, ...withoutToken } = sandbox.credentials();
		const result = await testCredential(withoutToken);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service refused the access token \(401\)\. Check Access Token\./);
	});
});

describe('a 401 and the token expiry', () => {
	const exp = 1_700_000_000;
	const refused = (now) =>
		apiErrorFromResponse(401, { error: { message: 'Token expired' } }, { node, endpoint: 'kitCreate', accessToken: jwt({ exp }), now });

	test('a token whose expiry is this very millisecond has expired', () => {
		expect(refused(exp * 1000).message).toBe('The access token expired at 2023-11-14T22:13:20.000Z. The service said: Token expired.');
		expect(refused(exp * 1000).description).toBe('Create a new token and put it in the credential.');
	});

	test('a millisecond before its expiry it has not: the token refused, in the service\'s words', () => {
		expect(refused(exp * 1000 - 1).message).toBe('The service refused the access token (401). The service said: Token expired.');
	});
});

describe('the reason of a network failure', () => {
	test('a message that ends in a port number is a reason', () => {
		expect(networkReason({ message: 'connect ECONNREFUSED 127.0.0.1:5680' })).toEqual({
			reason: 'connect ECONNREFUSED 127.0.0.1:5680',
			timedOut: false,
			refusedByN8n: false,
		});
	});

	test('a message that starts with a status number is a reason', () => {
		expect(networkReason({ httpCode: '502', messages: ['502 - upstream closed the connection'] })).toEqual({
			reason: '502 - upstream closed the connection',
			timedOut: false,
			refusedByN8n: false,
		});
	});

	test('a bare status number of several digits is skipped for the text after it', () => {
		expect(networkReason({ httpCode: '502', message: 'socket hang up' })).toEqual({ reason: 'socket hang up', timedOut: false, refusedByN8n: false });
	});

	// n8n 2.x's SSRF protection throws before sending (e2e/scenarios/ssrf.js proves it in a real n8n); here its error
	// is built by hand with the name and message n8n gives it, since @n8n/backend-network is not a dependency.
	const ssrfError = (where) => {
		const blocked = Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), { name: 'SsrfBlockedIpError' });
		return where === 'cause' ? Object.assign(new Error('Request failed'), { cause: blocked }) : blocked;
	};

	test.each(['error', 'cause'])("n8n's SSRF refusal (on the %s) is told apart from a network failure", (where) => {
		expect(networkReason(ssrfError(where))).toMatchObject({ refusedByN8n: true, timedOut: false });
		expect(networkReason({ name: 'SsrfBlocked', message: 'x' }).refusedByN8n).toBe(true);
		expect(networkReason({ name: 'Ssrf', message: 'x' }).refusedByN8n).toBe(false);
	});

	test("a call n8n refused says so, with n8n's words and the settings that allow the address, never 'connection lost'", () => {
		const node = { id: '1', name: 'Inventory Ops', type: 'n8n-nodes-inventory-ops.inventoryOps', typeVersion: 1, position: [0, 0], parameters: {} };
		const error = apiErrorFromNetworkFailure(ssrfError('error'), { node, endpoint: 'kitCreate', itemIndex: 2 });
		expect(error.message).toBe('The request was blocked because it resolves to a restricted IP address: /kit/create was not sent');
		expect(error.description).toContain('nothing was sent');
		expect(error.description).toContain('N8N_SSRF_ALLOWED_HOSTNAMES');
		expect(error.description).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
		expect(error.context.itemIndex).toBe(2);
	});
});
