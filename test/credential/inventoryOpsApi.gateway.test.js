// The credential test behind a gateway that answers every path it does not route itself (issue 58),
// as AWS API Gateway answers 403 {"message":"Missing Authentication Token"}: the App Base URL
// check, which sends only to the path beside the restore path (nothing serves it), gets that answer
// whatever the App Base URL is worth. Once the empty lookup at the Base URL has proven the token (a
// 2xx), a 401, 403 or 429 there shows nothing wrong: the test passes, saying the App Base URL could
// not be checked, and a restore's own 401 or 403 then says to check the App Base URL too. Run as
// n8n runs it (test/helpers/engine.js credentialTester, and n8n's engine for the restore), over
// real HTTP: the gateway (test/helpers/gateway.js) answers the unrouted paths and passes the five
// routes on to the sandbox. The switches that shape error answers are fixed here, so every profile
// gives the same words.
const { closedPort } = require('../helpers/closedPort');
const { credentialTester } = require('../helpers/engine');
const { useGateway } = require('../helpers/gateway');
const { useInventoryOps } = require('../helpers/inventoryOps');

const SHAPES = {
	errorBodies: 'spec',
	errorCodes: 'sandbox',
	refusals: 'status',
	retryAfter: 'seconds',
	restoreChecks: 'request-first',
	unknownPaths: 'plain',
};
const ctx = useInventoryOps({ orders: 20, config: SHAPES });
const gateway = useGateway(() => ctx.sandbox);
let testCredential;
beforeAll(() => {
	testCredential = credentialTester();
});

// Every path but the five routes the gateway sends on to the service.
const UNROUTED =
	/^(?!\/api\/order\/get_single_bulk$|\/api\/kit\/create$|\/api\/webhook\/(add|remove)_handler$|\/s\/ship\/shipping\/restore_inventory$)/;
const MISSING_TOKEN = JSON.stringify({ message: 'Missing Authentication Token' });
const credentials = (changes = {}) =>
	gateway.credentials({ ...ctx.sandbox.credentials(), ...changes });
const lookUpAt = () => `${credentials().baseUrl}/order/get_single_bulk`;
const appBeside = () =>
	`${credentials().appBaseUrl}/ship/shipping/no-such-operation-n8n-path-check`;
const WORKS = 'The access token works: the service accepted an empty order lookup at ';
const UNSEEN = (status) =>
	`The App Base URL could not be checked: ${appBeside()}, a path beside the restore path that no operation serves, answered ${status}, which a gateway gives for a path it does not route, or a rate limit.`;
const FIRST_RESTORE =
	'The first restore proves the App Base URL; if it fails there, its error says what to check.';
const APP_DOUBT =
	'If the credential test passed, it proved the token at the Base URL only: check the App Base URL too, since a gateway there answers so for an address it does not route.';
/** How often a phrase stands in a text. */
const times = (text, phrase) => text.split(phrase).length - 1;

describe('the lookup proved the token: the App Base URL check cannot fail it on a 401, 403 or 429 at the path beside', () => {
	test("AWS API Gateway's 403 for every unrouted path: passes, with one verdict on the token", async () => {
		gateway.answers.push({ path: UNROUTED, status: 403, body: MISSING_TOKEN });
		const result = await testCredential(credentials());
		expect(result).toEqual({
			status: 'OK',
			message: `${WORKS}${lookUpAt()}. ${UNSEEN(403)} The service said: Missing Authentication Token. ${FIRST_RESTORE}`,
		});
		expect(times(result.message, 'The access token works')).toBe(1);
		expect(result.message).not.toMatch(
			/not confirmed|refused the access token|lacks the permission/,
		);
		// The lookup reached the service; nothing of the App Base URL did.
		expect((await ctx.sandbox.calls()).map(({ route }) => route)).toEqual([
			'/api/order/get_single_bulk',
		]);
	});

	test('a gateway answering 401 for every unrouted path: passes too', async () => {
		gateway.answers.push({
			path: UNROUTED,
			status: 401,
			body: JSON.stringify({ message: 'Unauthorized' }),
		});
		const result = await testCredential(credentials());
		expect(result).toEqual({
			status: 'OK',
			message: `${WORKS}${lookUpAt()}. ${UNSEEN(401)} The service said: Unauthorized. ${FIRST_RESTORE}`,
		});
		expect(result.message).not.toMatch(/not confirmed/);
	});

	test('a 429 at the path beside, still after the retries: passes, after trying as often as the policy allows', async () => {
		const answer = {
			path: UNROUTED,
			status: 429,
			headers: { 'retry-after': '0' },
			body: JSON.stringify({ message: 'Too Many Requests' }),
			times: 100,
		};
		gateway.answers.push(answer);
		const result = await testCredential(credentials());
		// The wait the 429s cost is told, as a node's error tells it.
		expect(result).toEqual({
			status: 'OK',
			message: `${WORKS}${lookUpAt()}. ${UNSEEN(429)} The service said: Too Many Requests. ${FIRST_RESTORE} Rate limited (429): waited 0 s of the 5 s allowed; the service asked for Retry-After: 0.`,
		});
		// The first try and the 3 retries of the credential test's policy
		// (transport/credentialTest.ts).
		expect(100 - answer.times).toBe(4);
	});
});

describe('what still fails', () => {
	test("a refused token: the lookup answers 401, unlike the path beside it (the gateway's 403)", async () => {
		const app = { path: /^\/s\//, status: 403, body: MISSING_TOKEN, times: 100 };
		const base = { path: UNROUTED, status: 403, body: MISSING_TOKEN, times: 100 };
		gateway.answers.push(app, base);
		const result = await testCredential(credentials({ accessToken: 'not-a-token' }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The service refused the access token \(401\)\. The service said: [^.]+\. Check the Access Token in the credential\./,
		);
		expect(result.message).not.toMatch(/The access token works|could not be checked/);
		// The path beside the lookup answered once (the comparison); the App Base URL got nothing: the
		// lookup's verdict ends the test.
		expect([100 - base.times, 100 - app.times]).toEqual([1, 0]);
		expect((await ctx.sandbox.calls()).map(({ route }) => route)).toEqual([
			'/api/order/get_single_bulk',
		]);
	});

	test('no connection at the App Base URL', async () => {
		const result = await testCredential(
			credentials({ appBaseUrl: `http://127.0.0.1:${await closedPort()}/s` }),
		);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not connect to the service: \S+\/s\/ship\/shipping\/no-such-operation-n8n-path-check was not sent\. .*check the App Base URL in the credential/,
		);
	});

	test.each([401, 403])(
		'a lookup that did not prove the token (refused, unlike the path beside: "serves"), then %s at the App Base URL: not confirmed, as before',
		async (status) => {
			await ctx.sandbox.fault({
				route: '/api/order/get_single_bulk',
				count: 1,
				status: 404,
				body: { error: { code: 'NO_ORDERS', message: 'nothing to look up' } },
			});
			gateway.answers.push({
				path: /^\/s\//,
				status,
				body: JSON.stringify({ message: 'not yours' }),
			});
			const result = await testCredential(credentials());
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(
					`^The access token is not confirmed: ${appBeside().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} answered ${status}, not the service refusing it\\. The service said: not yours\\. A gateway or proxy may answer at that address: check the App Base URL, then the Access Token in the credential\\. Something at the Base URL serves the order lookup: `,
				),
			);
			expect(result.message).not.toContain('could not be checked');
		},
	);
});

describe("a restore's 401 or 403 says to check the App Base URL too, since the credential test may have passed without seeing past a gateway there", () => {
	const restore = {
		resource: 'shipment',
		operation: 'restoreInventory',
		storeId: '1001',
		orderNumber: '1000',
		shipmentId: 's-1',
	};

	test.each([
		[
			403,
			'The access token lacks the permission (scope) /ship/shipping/restore_inventory needs (403). The service said: Missing Authentication Token.',
			'Use a token with that scope in the credential.',
		],
		[
			401,
			'The service refused the access token (401). The service said: Missing Authentication Token.',
			'Check the Access Token in the credential.',
		],
	])('%s from a gateway at the App Base URL', async (status, message, advice) => {
		gateway.answers.push({ path: /^\/s\//, status, body: MISSING_TOKEN });
		const { error } = await ctx.run(restore, { credentials: credentials() });
		expect(error.message).toBe(message);
		expect(error.description).toBe(`${advice} ${APP_DOUBT}`);
	});

	test('not for an expired token (the token itself proves it), nor for a call to the Base URL', async () => {
		const expired = await ctx.sandbox.token({ expiresInSeconds: -60 });
		const { error: restoreError } = await ctx.run(restore, { accessToken: expired });
		expect(restoreError.httpCode).toBe('401');
		expect(restoreError.message).toMatch(/^The access token expired at /);
		expect(restoreError.description).not.toContain(APP_DOUBT);
		await ctx.sandbox.fault({
			route: '/api/kit/create',
			count: 1,
			status: 403,
			body: { error: { message: 'Missing Authentication Token' } },
		});
		const { error: kitError } = await ctx.run({
			resource: 'kit',
			operation: 'create',
			name: 'Kit',
			sku: 'KIT-GATEWAY-1',
		});
		expect(kitError.httpCode).toBe('403');
		expect(kitError.description).not.toContain('App Base URL');
	});
});
