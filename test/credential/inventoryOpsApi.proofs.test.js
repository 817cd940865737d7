// What each answer proves, one test per row of the table in docs/service-interface.md (Authentication, the
// credential test): the Base URL check (an empty order lookup) and the App Base URL check (a restore naming nothing),
// each compared, where its answer alone proves nothing, with the answer of the path beside it that nothing serves.
// Run as n8n runs it (test/helpers/engine.js credentialTester) against the sandbox over HTTP; the switches that
// shape error answers are fixed here so every profile gives the same words. Rows whose answers the sandbox cannot
// give (a 405 or a 503 for the path nothing serves) go through a small gateway in front of it (`gateway` below).
// The rows "no answer within 15 s" are test/credential/inventoryOpsApi.timeouts.test.js.
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const { closedPort } = require('../helpers/closedPort');
const { credentialTester } = require('../helpers/engine');
const { startSandbox } = require('../helpers/sandbox');

const BULK = '/api/order/get_single_bulk';
const RESTORE = '/s/ship/shipping/restore_inventory';
const SHAPES = { errorBodies: 'spec', errorCodes: 'sandbox', refusals: 'status', retryAfter: 'seconds', restoreChecks: 'request-first', unknownPaths: 'plain' };

let sandbox;
let testCredential;
let gateway;
let gatewayAnswers;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 20, config: SHAPES });
	testCredential = credentialTester();
	// A gateway in front of the sandbox: answers a path it is told to itself, passes every other call on.
	gateway = http.createServer((request, response) => {
		const own = gatewayAnswers.find(([pattern]) => pattern.test(request.url));
		if (own) {
			// 'no answer': the connection is dropped without one (a network error).
			if (own[1] === 'no answer') return request.socket.destroy();
			request.resume();
			response.writeHead(own[1], { 'content-type': 'application/json', ...own[3] });
			return response.end(own[2] ?? '');
		}
		const target = new URL(sandbox.baseUrl);
		const forwarded = http.request({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers }, (answer) => {
			response.writeHead(answer.statusCode, answer.headers);
			answer.pipe(response);
		});
		request.pipe(forwarded);
	});
	await new Promise((resolve) => gateway.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	await new Promise((resolve) => gateway.close(resolve));
	await sandbox.close();
});
beforeEach(async () => {
	gatewayAnswers = [];
	await sandbox.reset();
});

const origin = () => sandbox.server.origin;
const viaGateway = (credentials) => {
	const at = `http://127.0.0.1:${gateway.address().port}`;
	return { ...credentials, baseUrl: credentials.baseUrl.replace(origin(), at), appBaseUrl: credentials.appBaseUrl.replace(origin(), at) };
};
/** Every call the sandbox received: route and status. */
const calls = async () => (await sandbox.calls()).map(({ route, status }) => `${route} ${status}`);
/** The paths nothing serves that the test compared with, as the sandbox saw them. */
const beside = async () => (await sandbox.calls()).map(({ route }) => route).filter((route) => !/\/(get_single_bulk|restore_inventory)$/.test(route));
const BASE_ADVICE = "Use your account's API address (usually ending in /api), without the operation path.";
const APP_ADVICE = "Use your account's shipping address (usually ending in /s), without the operation path. The Base URL and the access token work.";

describe('the Base URL check: an empty order lookup', () => {
	test('no connection: wrong Base URL, could not be reached', async () => {
		const result = await testCredential({ ...sandbox.credentials(), baseUrl: `http://127.0.0.1:${await closedPort()}/api` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Wrong Base URL: .*\/api\/order\/get_single_bulk could not be reached \(ECONNREFUSED\)/);
	});

	test("n8n's SSRF protection refused the address: its words, nothing was sent, the settings to allow it; not a wrong Base URL", async () => {
		// n8n 2.x's SSRF check (@n8n/backend-network, SsrfBlockedIpError) cannot run here without n8n's backend: a
		// credential-test context whose request helper throws an error of that name before sending stands in for it.
		const { InventoryOps } = require(path.resolve(__dirname, '../../dist/nodes/InventoryOps/InventoryOps.node.js'));
		const blocked = Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), { name: 'SsrfBlockedIpError' });
		const request = jest.fn(async () => {
			throw blocked;
		});
		const data = { ...sandbox.credentials(), baseUrl: 'http://10.0.0.5/api', appBaseUrl: 'http://10.0.0.5/s' };
		const result = await new InventoryOps().methods.credentialTest.inventoryOpsApiTest.call({ helpers: { request } }, { id: 'test', name: 'test', type: 'inventoryOpsApi', data });
		expect(result).toEqual({
			status: 'Error',
			message:
				"The request was blocked because it resolves to a restricted IP address (http://10.0.0.5/api/order/get_single_bulk). n8n's SSRF protection refused it: nothing was sent. Add the host to N8N_SSRF_ALLOWED_HOSTNAMES (an IP address: to N8N_SSRF_ALLOWED_IP_RANGES) and restart n8n.",
		});
		expect(request).toHaveBeenCalledTimes(1);
	});

	test('401: the token refused', async () => {
		const result = await testCredential(sandbox.credentials('not-a-jwt'));
		expect(result.message).toMatch(/^The service refused the access token \(401\)/);
		expect(await calls()).toEqual([`${BULK} 401`]);
	});

	test('403: the token lacks the permission', async () => {
		const result = await testCredential(sandbox.credentials(await sandbox.token({ scopes: ['platformUser'] })));
		expect(result.message).toMatch(/^The access token is valid but lacks the permission \(scope\) for the order lookup \(403\)/);
	});

	test('429 beyond the bounded retries: rate limited, nothing said about the token', async () => {
		await sandbox.fault({ route: BULK, count: 10, status: 429, retryAfter: 0 });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(/^The service is rate limiting \(429\) \S+, still after 4 answer\(s\) 429/);
		expect(await calls()).toEqual(Array(4).fill(`${BULK} 429`));
	});

	test('5xx: the service failed, test again later', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 503 });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(/get_single_bulk failed \(503\): the Base URL and the access token could not be checked\. Test again later, or check the Base URL\. The service said: SERVICE_UNAVAILABLE: /);
	});

	test('2xx JSON: the token works, with nothing compared', async () => {
		const result = await testCredential(sandbox.credentials());
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/^The access token works: the service accepted an empty order lookup at /);
		expect(await calls()).toEqual([`${BULK} 200`, `${RESTORE} 400`, expect.stringMatching(/^\/s\/ship\/shipping\/\S+ 404$/)]);
	});

	test('2xx that is not JSON: wrong Base URL', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 200, body: 'OK' });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(/^Wrong Base URL: .* answered 200 with text, not the service's JSON\./);
	});

	test('another answer, unlike the one of the path nothing serves: something serves the lookup, the token is not confirmed; the App Base URL is still checked', async () => {
		await sandbox.fault({ route: BULK, count: 1, status: 404, body: { error: { message: 'no orders found' } } });
		const result = await testCredential(sandbox.credentials());
		const [lookupBeside] = await beside();
		expect(lookupBeside).toMatch(/^\/api\/order\/[^/]+$/);
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			new RegExp(
				`^Something at the Base URL serves the order lookup: ${sandbox.baseUrl}/order/get_single_bulk answered 404, unlike ${origin()}${lookupBeside}, a path nothing serves \\(404\\)\\. It refused an empty lookup, so the access token is not confirmed\\. The service said: no orders found\\. The App Base URL takes restore requests: `,
			),
		);
	});

	test('the same answer as the path nothing serves, naming the path: wrong Base URL', async () => {
		const result = await testCredential({ ...sandbox.credentials(), baseUrl: sandbox.appBaseUrl });
		const [lookupBeside] = await beside();
		expect(result).toEqual({
			status: 'Error',
			message: `Wrong Base URL: ${sandbox.appBaseUrl}/order/get_single_bulk answered 404 just as ${origin()}${lookupBeside}, a path nothing serves, does, naming the path: the service has no order lookup there. The service said: NOT_FOUND: No route POST /s/order/get_single_bulk. ${BASE_ADVICE}`,
		});
		expect(await calls()).toEqual([`/s/order/get_single_bulk 404`, `${lookupBeside} 404`]);
	});

	test.each([
		['web pages (a gateway)', { errorBodies: 'html' }, '404 with a web page titled "404 Not found"', ''],
		["the service's own error shape for paths it does not serve", { unknownPaths: 'service-error' }, '404', ' The service said: Not Found.'],
	])('the same answer as the path nothing serves, naming no path (%s): passes, saying what it could not confirm', async (_, switches, answered, said) => {
		await sandbox.config(switches);
		const result = await testCredential({ ...sandbox.credentials(), baseUrl: sandbox.appBaseUrl });
		const [lookupBeside] = await beside();
		expect(result.status).toBe('OK');
		const expected = `Could not confirm the Base URL or the access token: ${sandbox.appBaseUrl}/order/get_single_bulk answered ${answered} just as ${origin()}${lookupBeside}, a path nothing serves, does. If the node's calls fail, check the Base URL.${said} The App Base URL takes restore requests: `;
		expect(result.message.slice(0, expected.length)).toBe(expected);
	});

	test('the path nothing serves answered 503 (no answer to compare with): passes, saying what it could not confirm', async () => {
		gatewayAnswers = [[/^\/api\/order\/(?!get_single_bulk)/, 503, '{"error":{"message":"upstream down"}}']];
		await sandbox.fault({ route: BULK, count: 1, status: 400, body: { error: { message: 'order must not be empty' } } });
		const result = await testCredential(viaGateway(sandbox.credentials()));
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			/^Could not confirm the Base URL or the access token: http:\/\/127\.0\.0\.1:\d+\/api\/order\/get_single_bulk answered 400; http:\/\/127\.0\.0\.1:\d+\/api\/order\/\S+, a path nothing serves, answered 503 \(nothing to compare with\)\. If the node's calls fail, check the Base URL\. The service said: order must not be empty\. The App Base URL takes restore requests: /,
		);
	});
	test.each([
		['429 beyond the bounded retries', 429, '429', { 'retry-after': '0' }],
		['500', 500, '500', {}],
		['no answer (the connection dropped)', 'no answer', 'nothing', {}],
	])('the path nothing serves answered %s (no answer to compare with): passes, saying what it could not confirm', async (_, status, answered, headers) => {
		gatewayAnswers = [[/^\/api\/order\/(?!get_single_bulk)/, status, '{"error":{"message":"not here"}}', headers]];
		await sandbox.fault({ route: BULK, count: 1, status: 400, body: { error: { message: 'order must not be empty' } } });
		const result = await testCredential(viaGateway(sandbox.credentials()));
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			new RegExp(
				`^Could not confirm the Base URL or the access token: http://127\\.0\\.0\\.1:\\d+/api/order/get_single_bulk answered 400; http://127\\.0\\.0\\.1:\\d+/api/order/\\S+, a path nothing serves, answered ${answered} \\(nothing to compare with\\)\\. If the node's calls fail, check the Base URL\\. The service said: order must not be empty\\. The App Base URL takes restore requests: `,
			),
		);
	});

	test('a 1xx answer (101 without an upgrade asked for) to both paths: passes, saying what it could not confirm, never that the token works', async () => {
		// A raw server: the sandbox answers no 1xx, and a 101 is the only 1xx that reaches the request helper as an answer.
		const server = net.createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 101 Switching Protocols\r\ncontent-length: 0\r\n\r\n')));
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		const at = `http://127.0.0.1:${server.address().port}`;
		try {
			const result = await testCredential({ ...sandbox.credentials(), baseUrl: `${at}/api`, appBaseUrl: `${at}/s` });
			expect(result.status).toBe('OK');
			expect(result.message).toMatch(
				new RegExp(`^Could not confirm the Base URL or the access token: ${at}/api/order/get_single_bulk answered 101 just as ${at}/api/order/\\S+, a path nothing serves, does\\. If the node's calls fail, check the Base URL\\.`),
			);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('the App Base URL check: a restore naming no order and no shipment', () => {
	test('no connection: wrong App Base URL, could not be reached', async () => {
		const result = await testCredential({ ...sandbox.credentials(), appBaseUrl: `http://127.0.0.1:${await closedPort()}/s` });
		expect(result.message).toMatch(/^Wrong App Base URL: .* could not be reached \(ECONNREFUSED\).* The Base URL and the access token work\.$/);
	});

	test('401 or 403: the App Base URL refused the token the Base URL accepted', async () => {
		await sandbox.fault({ route: RESTORE, count: 1, status: 403, body: { error: { message: 'not yours' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(/^The Base URL accepted the access token, but the App Base URL .* refused it \(403\)\..* The service said: not yours\.$/);
	});

	test('429 beyond the bounded retries: rate limited', async () => {
		await sandbox.fault({ route: RESTORE, count: 10, status: 429, retryAfter: 0 });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(/^The service is rate limiting \(429\) \S+restore_inventory, /);
	});

	test('5xx: the App Base URL could not be checked', async () => {
		await sandbox.fault({ route: RESTORE, count: 1, status: 502, body: { error: { message: 'upstream down' } } });
		const result = await testCredential(sandbox.credentials());
		expect(result.message).toMatch(/restore_inventory failed \(502\): the App Base URL could not be checked\. .* The service said: upstream down\.$/);
	});

	test.each([
		['a service that checks the request first: 400', { restoreChecks: 'request-first' }, 400, 'MISSING_FIELD: body.store_id is required'],
		['a service that looks the order up first: 404 order not found', { restoreChecks: 'order-first' }, 404, 'order not found'],
		['one that looks the order up first, its unknown paths in its own error shape', { restoreChecks: 'order-first', unknownPaths: 'service-error' }, 404, 'order not found'],
	])('an answer unlike the one of the path nothing serves (%s): the App Base URL takes restore requests', async (_, switches, status, said) => {
		await sandbox.config(switches);
		const result = await testCredential(sandbox.credentials());
		const [restoreBeside] = await beside();
		expect(restoreBeside).toMatch(/^\/s\/ship\/shipping\/[^/]+$/);
		expect(result).toEqual({
			status: 'OK',
			message: `The access token works: the service accepted an empty order lookup at ${sandbox.baseUrl}/order/get_single_bulk. The App Base URL takes restore requests: ${sandbox.appBaseUrl}/ship/shipping/restore_inventory answered ${status}, unlike ${origin()}${restoreBeside}, a path nothing serves (404); the restore named no shipment, so nothing was restored. The service said: ${said}.`,
		});
		expect(await calls()).toEqual([`${BULK} 200`, `${RESTORE} ${status}`, `${restoreBeside} 404`]);
	});

	test('an answer unlike the one of the path nothing serves, where the path nothing serves answers 405: takes restore requests', async () => {
		gatewayAnswers = [[/^\/s\/ship\/shipping\/(?!restore_inventory)/, 405]];
		await sandbox.config({ restoreChecks: 'order-first' });
		const result = await testCredential(viaGateway(sandbox.credentials()));
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/The App Base URL takes restore requests: .*restore_inventory answered 404, unlike .*, a path nothing serves \(405\);.* The service said: order not found\.$/);
	});

	test('the same answer as the path nothing serves, naming the path: wrong App Base URL', async () => {
		const result = await testCredential({ ...sandbox.credentials(), appBaseUrl: sandbox.baseUrl });
		const [restoreBeside] = await beside();
		expect(result).toEqual({
			status: 'Error',
			message: `Wrong App Base URL: ${sandbox.baseUrl}/ship/shipping/restore_inventory answered 404 just as ${origin()}${restoreBeside}, a path nothing serves, does, naming the path: the service has no restore operation there. The service said: NOT_FOUND: No route POST /api/ship/shipping/restore_inventory. ${APP_ADVICE}`,
		});
	});

	test.each([
		['web pages (a gateway), the order looked up first', { errorBodies: 'html', restoreChecks: 'order-first' }, 'credentials', '404 with a web page titled "404 Not found"', ''],
		["a wrong App Base URL whose service answers unknown paths in its own error shape", { unknownPaths: 'service-error' }, 'wrong', '404', ' The service said: Not Found.'],
	])('the same answer as the path nothing serves, naming no path (%s): passes, saying what it could not confirm', async (_, switches, which, answered, said) => {
		await sandbox.config(switches);
		const credentials = which === 'wrong' ? { ...sandbox.credentials(), appBaseUrl: sandbox.baseUrl } : sandbox.credentials();
		const result = await testCredential(credentials);
		const [restoreBeside] = await beside();
		expect(result.status).toBe('OK');
		const expected = ` Could not confirm the App Base URL: ${credentials.appBaseUrl}/ship/shipping/restore_inventory answered ${answered} just as ${origin()}${restoreBeside}, a path nothing serves, does. If the node's calls fail, check the App Base URL.${said}`;
		expect(result.message.slice(-expected.length)).toBe(expected);
	});
});
