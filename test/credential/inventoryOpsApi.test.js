// The credential's own test request, run the way n8n's credential tester runs it: a declarative node whose only
// property routes the test request, executed by the engine's RoutingNode, against the sandbox over HTTP.
const path = require('node:path');

const { createEngine } = require('../helpers/engine');
const { startSandbox } = require('../helpers/sandbox');

const { InventoryOpsApi } = require(path.resolve(__dirname, '../../dist/credentials/InventoryOpsApi.credentials.js'));

const credentialType = new InventoryOpsApi();
const credentialTestNode = {
	description: {
		displayName: 'Credential test',
		name: 'credentialTest',
		group: ['transform'],
		version: 1,
		description: 'The node n8n builds to run a credential test request',
		defaults: { name: 'Credential test' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'inventoryOpsApi', required: true }],
		properties: [
			{
				displayName: 'Temp',
				name: 'temp',
				type: 'string',
				routing: { request: credentialType.test.request },
				default: '',
			},
		],
	},
};

let sandbox;
let engine;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 20 });
	engine = createEngine({ nodeTypes: { credentialTest: credentialTestNode } });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const testCredential = (credentials) => engine.run({ node: { type: 'credentialTest' }, credentials });

test('declares bearer auth from the access token and three fields with sandbox defaults', () => {
	expect(credentialType.authenticate).toEqual({
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
	});
	const fields = Object.fromEntries(credentialType.properties.map((field) => [field.name, field]));
	expect(fields.accessToken.typeOptions).toEqual({ password: true });
	expect(fields.baseUrl.default).toBe('http://127.0.0.1:5680/api');
	expect(fields.appBaseUrl.default).toMatch(/\/s$/);
});

test('a valid token passes with one harmless read and changes nothing', async () => {
	const before = { kits: await sandbox.kits(), handlers: await sandbox.handlers() };
	const result = await testCredential(sandbox.credentials());
	expect(result.error).toBeUndefined();
	expect((await sandbox.calls()).map(({ route, status, body }) => ({ route, status, body }))).toEqual([
		{ route: '/api/order/get_single_bulk', status: 200, body: { order: [] } },
	]);
	expect({ kits: await sandbox.kits(), handlers: await sandbox.handlers() }).toEqual(before);
});

test('a Base URL with a trailing slash still works', async () => {
	const result = await testCredential({ ...sandbox.credentials(), baseUrl: `${sandbox.baseUrl}/` });
	expect(result.error).toBeUndefined();
});

// n8n's credential tester shows its own words (or the service's) for a failed test request: the package's
// expired-token message is for node runs and is tested in test/action/serviceFailures.test.js.
test('an expired token fails the test with a 401, and the token appears nowhere', async () => {
	const token = await sandbox.token({ expiresInSeconds: -300 });
	const result = await testCredential(sandbox.credentials(token));
	expect(result.error.httpCode).toBe('401');
	const everything = JSON.stringify(result.run, (key, value) =>
		value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
	);
	expect(everything).not.toContain(token.split('.')[2]);
});

test('a wrong Base URL fails the test', async () => {
	const result = await testCredential({
		...sandbox.credentials(),
		baseUrl: `${sandbox.server.origin}/nope`,
	});
	expect(result.error.httpCode).toBe('404');
});
