// What each answer proves, one test per row of the table in docs/service-interface.md
// (Authentication, the credential test): the Base URL check (an empty order lookup) and the App
// Base URL check (a restore naming nothing), each compared, where its answer alone proves nothing,
// with the answer of the path beside it that nothing serves. Run as n8n runs it
// (test/helpers/engine.js credentialTester) against the sandbox over HTTP; the switches that shape
// error answers are fixed here so every profile gives the same words. Rows whose answers the
// sandbox cannot give (a 405 or a 503 for the path nothing serves) go through a small gateway in
// front of it (test/helpers/gateway.js). The rows "no answer within 15 s" are
// test/credential/inventoryOpsApi.timeouts.test.js.
const net = require('node:net');
const path = require('node:path');

const { closedPort } = require('../helpers/closedPort');
const { credentialTester } = require('../helpers/engine');
const { useGateway } = require('../helpers/gateway');
const { startSandbox } = require('../helpers/sandbox');

const BULK = '/api/order/get_single_bulk';
const RESTORE = '/s/ship/shipping/restore_inventory';
const SHAPES = {
	errorBodies: 'spec',
	errorCodes: 'sandbox',
	refusals: 'status',
	retryAfter: 'seconds',
	restoreChecks: 'request-first',
	unknownPaths: 'plain',
};

let sandbox;
let testCredential;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 20, config: SHAPES });
	testCredential = credentialTester();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());
// Answers the sandbox cannot give (a 405 or a 503 for the path nothing serves) come from a gateway
// in front of it.
const gateway = useGateway(() => sandbox);

const origin = () => sandbox.server.origin;
const viaGateway = (credentials) => gateway.credentials(credentials);
/** Every call the sandbox received: route and status. */
const calls = async () => (await sandbox.calls()).map(({ route, status }) => `${route} ${status}`);
/** The paths nothing serves that the test sent to, as the sandbox saw them. */
const beside = async () =>
	(await sandbox.calls())
		.map(({ route }) => route)
		.filter((route) => !/\/(get_single_bulk|restore_inventory)$/.test(route));
const APP_BESIDE = '/s/ship/shipping/no-such-operation-n8n-path-check';
const BASE_ADVICE =
	"Use your account's API address (usually ending in /api), without the operation path.";
const APP_ANSWERS = 'The App Base URL answers and did not refuse the access token: ';
const ONLY_A_RESTORE =
	'Only a first real restore proves that restores work there: the test sends none, since a restore changes data.';

describe('the Base URL check: an empty order lookup', () => {
	test('no connection: nothing was sent, check the Base URL', async () => {
		const result = await testCredential({
			...sandbox.credentials(),
			baseUrl: `http://127.0.0.1:${await closedPort()}/api`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not connect to the service: \S+\/api\/order\/get_single_bulk was not sent\. Nothing was sent \(ECONNREFUSED\), so nothing changed: check the Base URL in the credential/,
		);
	});

	test("n8n's SSRF protection refused the address: its words, nothing was sent, the settings to allow it; not a wrong Base URL", async () => {
		// n8n 2.x's SSRF check (@n8n/backend-network, SsrfBlockedIpError) cannot run here without n8n's
		// backend: a credential-test context whose request helper throws an error of that name before
		// sending stands in for it.
		const { InventoryOps } = require(
			path.resolve(__dirname, '../../dist/nodes/InventoryOps/InventoryOps.node.js'),
		);
		const blocked = Object.assign(
			new Error('The request was blocked because it resolves to a restricted IP address'),
			{ name: 'SsrfBlockedIpError' },
		);
		const request = jest.fn(async () => {
			throw blocked;
		});
		const data = {
			...sandbox.credentials(),
			baseUrl: 'http://10.0.0.5/api',
			appBaseUrl: 'http://10.0.0.5/s',
		};
		const result = await new InventoryOps().methods.credentialTest.inventoryOpsApiTest.call(
			{ helpers: { request } },
			{ id: 'test', name: 'test', type: 'inventoryOpsApi', data },
		);
		expect(result).toEqual({
			status: 'Error',
			message:
				"The request was blocked because it resolves to a restricted IP address: http://10.0.0.5/api/order/get_single_bulk was not sent. n8n's SSRF protection refused it: nothing was sent. Add the host to N8N_SSRF_ALLOWED_HOSTNAMES (an IP address: to N8N_SSRF_ALLOWED_IP_RANGES) and restart n8n.",
		});
		expect(request).toHaveBeenCalledTimes(1);
	});

	test('401: the token refused', async () => {
		const result = await testCredential(sandbox.credentials('not-a-jwt'));
		expect(result.message).toMatch(/^The service refused the access token \(401\)/);
		// The path beside, which nothing serves, answers otherwise: the refusal is the service's.
		expect(await calls()).toEqual([
			`${BULK} 401`,
			'/api/order/no-such-operation-n8n-path-check 404',
		]);
	});

	test.each([401, 403])(
		'%s also at the path nothing serves (a gateway refusing every path): the token not confirmed, the Base URL first',
		async (status) => {
			gateway.answers.push({
				path: /^\/api\/order\//,
				status,
				body: '{"error":{"message":"login required"}}',
			});
			const credentials = viaGateway(sandbox.credentials());
			const result = await testCredential(credentials);
			expect(result).toEqual({
				status: 'Error',
				message: `The access token is not confirmed: ${credentials.baseUrl}/order/get_single_bulk answered ${status}; ${credentials.baseUrl}/order/no-such-operation-n8n-path-check, a path nothing serves, answered the same, not the service refusing it. The service said: login required. A gateway or proxy may answer at that address: check the Base URL, then the Access Token in the credential.`,
			});
		},
	);

	test('403: the token lacks the permission', async () => {
		const result = await testCredential(
			sandbox.credentials(await sandbox.token({ scopes: ['platformUser'] })),
		);
		expect(result.message).toMatch(
			/^The access token lacks the permission \(scope\) \S+\/api\/order\/get_single_bulk needs \(403\)/,
		);
	});

	test('429 beyond the bounded retries: rate limited, nothing said about the token', async () => {
		await sandbox.fault({ route: BULK, count: 10, status: 429, retryAfter: 0 });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(
			/^The service is rate limiting \(429\) \S+\/api\/order\/get_single_bulk, still after the retries allowed\. .*Test again soon: this says nothing about the credential\./,
		);
		expect(await calls()).toEqual(Array(4).fill(`${BULK} 429`));
	});

	test('5xx: the service failed, test again later', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 503 });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(
			/^The service failed \(503\) during \S+\/get_single_bulk\. The service said: .* This call only reads data: run it again later\. The service's code: SERVICE_UNAVAILABLE\./,
		);
	});

	test('2xx JSON: the token works, with nothing compared', async () => {
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^The access token works: the service accepted an empty order lookup at /,
		);
		expect(await calls()).toEqual([`${BULK} 200`, `${APP_BESIDE} 404`]);
	});

	test('2xx that is not JSON: wrong Base URL', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 200, body: 'OK' });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(
			/^Wrong Base URL: .* answered 200 with text, not the service's JSON\./,
		);
	});

	test('another answer, unlike the one of the path nothing serves: something serves the lookup, the token is not confirmed; the App Base URL is still checked', async () => {
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 404,
			body: { error: { message: 'no orders found' } },
		});
		const result = await testCredential(sandbox.credentials());
		const [lookupBeside] = await beside();
		expect(lookupBeside).toMatch(/^\/api\/order\/[^/]+$/);
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			new RegExp(
				`^Something at the Base URL serves the order lookup: ${sandbox.baseUrl}/order/get_single_bulk answered 404; ${origin()}${lookupBeside}, a path nothing serves, answered differently \\(404\\)\\. The service said: no orders found\\. It refused an empty lookup, so the access token is not confirmed\\. ${APP_ANSWERS}`,
			),
		);
	});

	test('the same answer as the path nothing serves, naming the path: wrong Base URL', async () => {
		const result = await testCredential({ ...sandbox.credentials(), baseUrl: sandbox.appBaseUrl });
		const [lookupBeside] = await beside();
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				new RegExp(
					`^Wrong Base URL: ${sandbox.appBaseUrl}/order/get_single_bulk answered 404; ${origin()}${lookupBeside}, a path nothing serves, answered the same, naming the path: the service has no order lookup there\\. The service said: No route POST /s/order/get_single_bulk\\. ${BASE_ADVICE.replace(/[().]/g, '\\$&')} The service's code: NOT_FOUND\\. Trace id: \\S+\\.$`,
				),
			),
		});
		expect(await calls()).toEqual([`/s/order/get_single_bulk 404`, `${lookupBeside} 404`]);
	});

	test.each([
		[
			'web pages (a gateway)',
			{ errorBodies: 'html' },
			' The answer was a web page titled "404 Not found", from a gateway or proxy.',
		],
		[
			"the service's own error shape for paths it does not serve",
			{ unknownPaths: 'service-error' },
			' The service said: Not Found.',
		],
	])(
		'the same answer as the path nothing serves, naming no path (%s): passes, saying what it could not confirm',
		async (_, switches, said) => {
			await sandbox.config(switches);
			const result = await testCredential({
				...sandbox.credentials(),
				baseUrl: sandbox.appBaseUrl,
			});
			const [lookupBeside] = await beside();
			expect(result.status).toBe('OK');
			const expected = `Could not confirm the Base URL or the access token: ${sandbox.appBaseUrl}/order/get_single_bulk answered 404; ${origin()}${lookupBeside}, a path nothing serves, answered the same.${said} If the node's calls fail, check the Base URL.`;
			expect(result.message.slice(0, expected.length)).toBe(expected);
			expect(result.message).toContain(` ${APP_ANSWERS}`);
		},
	);

	test('the path nothing serves answered 503 (no answer to compare with): passes, saying what it could not confirm', async () => {
		gateway.answers.push({
			path: /^\/api\/order\/(?!get_single_bulk)/,
			status: 503,
			body: '{"error":{"message":"upstream down"}}',
		});
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 400,
			body: { error: { message: 'order must not be empty' } },
		});
		const result = await testCredential(viaGateway(sandbox.credentials()));
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^Could not confirm the Base URL or the access token: http:\/\/127\.0\.0\.1:\d+\/api\/order\/get_single_bulk answered 400; http:\/\/127\.0\.0\.1:\d+\/api\/order\/\S+, a path nothing serves, answered 503 \(nothing to compare with\)\. The service said: order must not be empty\. If the node's calls fail, check the Base URL\. The App Base URL answers /,
		);
	});
	test.each([
		['429 beyond the bounded retries', 429, '429', { 'retry-after': '0' }],
		['500', 500, '500', {}],
		['no answer (the connection dropped)', 'no answer', 'nothing', {}],
	])(
		'the path nothing serves answered %s (no answer to compare with): passes, saying what it could not confirm',
		async (_, status, answered, headers) => {
			gateway.answers.push({
				path: /^\/api\/order\/(?!get_single_bulk)/,
				status,
				body: '{"error":{"message":"not here"}}',
				headers,
			});
			await sandbox.fault({
				route: BULK,
				count: 1,
				status: 400,
				body: { error: { message: 'order must not be empty' } },
			});
			const result = await testCredential(viaGateway(sandbox.credentials()));
			expect(result.status).toBe('OK');
			expect(result.message).toMatch(
				new RegExp(
					`^Could not confirm the Base URL or the access token: http://127\\.0\\.0\\.1:\\d+/api/order/get_single_bulk answered 400; http://127\\.0\\.0\\.1:\\d+/api/order/\\S+, a path nothing serves, answered ${answered} \\(nothing to compare with\\)\\. The service said: order must not be empty\\. If the node's calls fail, check the Base URL\\. ${APP_ANSWERS}`,
				),
			);
		},
	);

	test('401 whose path beside answered 503 (nothing to compare with): the service refused the token', async () => {
		gateway.answers.push({
			path: /^\/api\/order\/(?!get_single_bulk)/,
			status: 503,
			body: '{"error":{"message":"upstream down"}}',
		});
		const result = await testCredential(viaGateway(sandbox.credentials('not-a-valid-token')));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service refused the access token \(401\)\./);
	});

	test('5xx with a Retry-After: the service failed, with no word of a rate limit', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 503, retryAfter: 7 });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(/^The service failed \(503\)/);
		expect(result.message).not.toMatch(/Retry-After|Rate limited/);
	});

	test('300 with text: compared with the path nothing serves, not called a wrong Base URL', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 300, body: 'Multiple Choices' });
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^Something at the Base URL serves the order lookup: \S+ answered 300; \S+, a path nothing serves, answered differently /,
		);
	});

	test('a 1xx answer (101 without an upgrade asked for) to both paths: passes, saying what it could not confirm, never that the token works', async () => {
		// A raw server: the sandbox answers no 1xx, and a 101 is the only 1xx that reaches the request
		// helper as an answer.
		const server = net.createServer((socket) =>
			socket.once('data', () =>
				socket.end('HTTP/1.1 101 Switching Protocols\r\ncontent-length: 0\r\n\r\n'),
			),
		);
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		const at = `http://127.0.0.1:${server.address().port}`;
		try {
			const result = await testCredential({
				...sandbox.credentials(),
				baseUrl: `${at}/api`,
				appBaseUrl: `${at}/s`,
			});
			expect(result.status).toBe('OK');
			expect(result.message).toMatch(
				new RegExp(
					`^Could not confirm the Base URL or the access token: ${at}/api/order/get_single_bulk answered 101; ${at}/api/order/\\S+, a path nothing serves, answered the same\\. If the node's calls fail, check the Base URL\\.`,
				),
			);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('the App Base URL check: only the path beside the restore path, which no operation serves', () => {
	const appBeside = (credentials) =>
		`${credentials.appBaseUrl}/ship/shipping/no-such-operation-n8n-path-check`;

	test('no connection: nothing was sent, check the App Base URL; what the Base URL check proved follows', async () => {
		const result = await testCredential({
			...sandbox.credentials(),
			appBaseUrl: `http://127.0.0.1:${await closedPort()}/s`,
		});
		expect(result.message).toMatch(
			/^Could not connect to the service: \S+\/s\/ship\/shipping\/no-such-operation-n8n-path-check was not sent\. Nothing was sent \(ECONNREFUSED\), so nothing changed: check the App Base URL in the credential, and that n8n can reach the service\. The access token works: the service accepted an empty order lookup at \S+\.$/,
		);
	});

	// Once the lookup proved the token (issue 58): a gateway may answer so for any path it does not
	// route, so the App Base URL could not be checked, and the test passes; the first restore proves
	// it (inventoryOpsApi.gateway.test.js).
	test.each([401, 403])(
		'%s at a path nothing serves, after the lookup proved the token: passes, the App Base URL could not be checked',
		async (status) => {
			gateway.answers.push({ path: /^\/s\//, status, body: '{"error":{"message":"not yours"}}' });
			const credentials = viaGateway(sandbox.credentials());
			const result = await testCredential(credentials);
			expect(result).toEqual({
				status: 'OK',
				message: `The access token works: the service accepted an empty order lookup at ${credentials.baseUrl}/order/get_single_bulk. The App Base URL could not be checked: ${appBeside(credentials)}, a path beside the restore path that no operation serves, answered ${status}, which a gateway gives for a path it does not route, or a rate limit. The service said: not yours. The first restore proves the App Base URL; if it fails there, its error says what to check.`,
			});
		},
	);

	test.each([401, 403])(
		'%s at a path nothing serves, when the lookup did not prove the token (the same answer as its path beside): not confirmed, an error',
		async (status) => {
			// The lookup's 404 in words naming no path, the same as its path beside's: it proves nothing
			// ('unconfirmed').
			await sandbox.fault({
				route: BULK,
				count: 1,
				status: 404,
				body: { error: { message: 'Not Found' } },
			});
			await sandbox.fault({
				route: 'unserved',
				count: 1,
				status: 404,
				body: { error: { message: 'Not Found' } },
			});
			gateway.answers.push({ path: /^\/s\//, status, body: '{"error":{"message":"not yours"}}' });
			const credentials = viaGateway(sandbox.credentials());
			const result = await testCredential(credentials);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(
					`^The access token is not confirmed: \\S+/s/ship/shipping/no-such-operation-n8n-path-check answered ${status}, not the service refusing it\\. The service said: not yours\\. A gateway or proxy may answer at that address: check the App Base URL, then the Access Token in the credential\\. Could not confirm the Base URL or the access token: `,
				),
			);
		},
	);

	test('429 beyond the bounded retries, after the lookup proved the token: passes, the App Base URL could not be checked', async () => {
		const answer = { path: /^\/s\//, status: 429, headers: { 'retry-after': '0' }, times: 100 };
		gateway.answers.push(answer);
		const result = await testCredential(viaGateway(sandbox.credentials()));
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^The access token works: .* The App Base URL could not be checked: \S+no-such-operation-n8n-path-check, a path beside the restore path that no operation serves, answered 429, /,
		);
		// The first try and 3 retries.
		expect(100 - answer.times).toBe(4);
	});

	test('429 beyond the bounded retries, when the lookup did not prove the token: rate limited, an error', async () => {
		await sandbox.fault({
			route: BULK,
			count: 1,
			status: 404,
			body: { error: { message: 'Not Found' } },
		});
		await sandbox.fault({
			route: 'unserved',
			count: 1,
			status: 404,
			body: { error: { message: 'Not Found' } },
		});
		gateway.answers.push({ path: /^\/s\//, status: 429, headers: { 'retry-after': '0' } });
		const result = await testCredential(viaGateway(sandbox.credentials()));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The service is rate limiting \(429\) \S+no-such-operation-n8n-path-check, still after the retries allowed\. .*Test again soon: this says nothing about the credential\. Rate limited \(429\): waited 0 s of the 5 s allowed; the service asked for Retry-After: 0\. Could not confirm the Base URL or the access token: /,
		);
	});

	test('5xx: the App Base URL could not be checked', async () => {
		gateway.answers.push({
			path: /^\/s\//,
			status: 502,
			body: '{"error":{"message":"upstream down"}}',
		});
		const result = await testCredential(viaGateway(sandbox.credentials()));
		expect(result.message).toMatch(
			/^The service failed \(502\) during \S+no-such-operation-n8n-path-check\. The service said: upstream down\. This call only reads data: run it again later\. The access token works: /,
		);
	});

	test.each([
		[
			"the service's own error shape",
			{},
			"404 in the service's error shape. The service said: No route POST /s/ship/shipping/no-such-operation-n8n-path-check.",
		],
		[
			'web pages (a gateway)',
			{ errorBodies: 'html' },
			'404. The answer was a web page titled "404 Not found", from a gateway or proxy.',
		],
		[
			'the error object bare',
			{ errorBodies: 'bare' },
			'404. The service said: No route POST /s/ship/shipping/no-such-operation-n8n-path-check.',
		],
		[
			'plain text',
			{ errorBodies: 'text' },
			'404. The service said: NOT_FOUND: No route POST /s/ship/shipping/no-such-operation-n8n-path-check.',
		],
		[
			'unknown paths in its own error shape, without a code',
			{ unknownPaths: 'service-error' },
			"404 in the service's error shape. The service said: Not Found.",
		],
	])(
		'any other answer (%s): passes, saying what answered and that only a first real restore proves restores',
		async (_, switches, answered) => {
			await sandbox.config(switches);
			const result = await testCredential(sandbox.credentials());
			expect(result.status).toBe('OK');
			// The code and trace id, where the answer has them, come last.
			const expected = `The access token works: the service accepted an empty order lookup at ${sandbox.baseUrl}/order/get_single_bulk. ${APP_ANSWERS}${appBeside(sandbox.credentials())}, a path beside the restore path that no operation serves, answered ${answered} ${ONLY_A_RESTORE}`;
			expect(result.message.slice(0, expected.length)).toBe(expected);
			expect(await calls()).toEqual([`${BULK} 200`, `${APP_BESIDE} 404`]);
		},
	);

	test.each([
		['more slashes after the Base URL', '//', '/'],
		['more slashes after the App Base URL', '/', '//'],
	])(
		'the Base URL given as App Base URL with %s: the same address all the same',
		async (_, afterBase, afterApp) => {
			const result = await testCredential({
				...sandbox.credentials(),
				baseUrl: `${sandbox.baseUrl}${afterBase}`,
				appBaseUrl: `${sandbox.baseUrl}${afterApp}`,
			});
			expect(result.status).toBe('OK');
			expect(
				result.message.endsWith(
					` It is the same address as the Base URL: an account's App Base URL usually differs, ending in /s.`,
				),
			).toBe(true);
		},
	);

	test('the Base URL given as App Base URL: it answers there too, so the test passes, naming the slip', async () => {
		const result = await testCredential({ ...sandbox.credentials(), appBaseUrl: sandbox.baseUrl });
		expect(result.status).toBe('OK');
		expect(result.message).toContain(ONLY_A_RESTORE);
		expect(
			result.message.endsWith(
				` It is the same address as the Base URL: an account's App Base URL usually differs, ending in /s.`,
			),
		).toBe(true);
	});
});
