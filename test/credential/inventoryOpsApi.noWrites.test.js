// The credential test sends nothing to an operation that may change data (issue 47): against every
// sandbox profile (sandbox/profiles.js), with a working credential and with each kind of slip a
// user makes, the sandbox's calls are counted by route, and none may reach a route whose endpoint
// has `changesData` (transport/endpoints.ts, as built).
const path = require('node:path');

const { PROFILES } = require('../../sandbox/profiles');
const { closedPort } = require('../helpers/closedPort');
const { credentialTester } = require('../helpers/engine');
const { startSandbox } = require('../helpers/sandbox');

const { ENDPOINTS } = require(
	path.resolve(__dirname, '../../dist/nodes/InventoryOps/transport/endpoints.js'),
);

// The sandbox serves {base_url} under /api and {app_base_url} under /s (sandbox/README.md).
const PREFIX = { baseUrl: '/api', appBaseUrl: '/s' };
const WRITES = Object.values(ENDPOINTS).filter((endpoint) => endpoint.changesData);

let sandbox;
let testCredential;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 20 });
	testCredential = credentialTester();
});
afterAll(() => sandbox.close());

/** Each slip a user makes, and the working credential: every call the test can send. */
const CREDENTIALS = {
	working: () => sandbox.credentials(),
	'refused token': () => sandbox.credentials('not-a-jwt'),
	'token without the scope': async () =>
		sandbox.credentials(await sandbox.token({ scopes: ['platformUser'] })),
	'Base URL given for both': () => ({ ...sandbox.credentials(), appBaseUrl: sandbox.baseUrl }),
	'App Base URL given for both': () => ({ ...sandbox.credentials(), baseUrl: sandbox.appBaseUrl }),
	'the addresses swapped': () => ({
		...sandbox.credentials(),
		baseUrl: sandbox.appBaseUrl,
		appBaseUrl: sandbox.baseUrl,
	}),
	'the origin alone for both': () => ({
		...sandbox.credentials(),
		baseUrl: sandbox.server.origin,
		appBaseUrl: sandbox.server.origin,
	}),
	'an App Base URL where nothing listens': async () => ({
		...sandbox.credentials(),
		appBaseUrl: `http://127.0.0.1:${await closedPort()}/s`,
	}),
};

test('the endpoints that may change data are the four writes, each under its base URL', () => {
	expect(WRITES.map(({ base, path: route }) => `${PREFIX[base]}${route}`).sort()).toEqual([
		'/api/kit/create',
		'/api/webhook/add_handler',
		'/api/webhook/remove_handler',
		'/s/ship/shipping/restore_inventory',
	]);
});

describe.each(Object.keys(PROFILES))('sandbox profile %s', (profile) => {
	test.each(Object.keys(CREDENTIALS))(
		'%s: no call reaches an endpoint that may change data',
		async (which) => {
			await sandbox.reset();
			await sandbox.config(PROFILES[profile]);
			const result = await testCredential(await CREDENTIALS[which]());
			expect(['OK', 'Error']).toContain(result.status);
			const routes = (await sandbox.calls()).map(({ route }) => route);
			expect(routes.length).toBeGreaterThan(0);
			// Wherever the base URL points, no route may end in the path of an operation that changes
			// data.
			const writes = routes.filter((route) =>
				WRITES.some((endpoint) => route.endsWith(endpoint.path)),
			);
			expect(writes).toEqual([]);
		},
	);
});
