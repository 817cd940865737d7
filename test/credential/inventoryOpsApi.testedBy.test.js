// The credential's Test button as n8n finds it: the node type whose `credentials` entry for
// inventoryOpsApi names a `testedBy` gives `methods.credentialTest[testedBy]`. n8n takes the first
// node type it meets with such an entry, so the action node's own lookup has to work too (not only
// the trigger's). Run against the sandbox over HTTP, in n8n-core's real CredentialTestContext.
const path = require('node:path');

const { CredentialTestContext } = require('n8n-core');

const { createEngine } = require('../helpers/engine');
const { answers } = require('../helpers/profile');
const { startSandbox } = require('../helpers/sandbox');

const DIST = path.resolve(__dirname, '../../dist');
const BULK = '/api/order/get_single_bulk';

let sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ orders: 10 });
	// n8n's DI container, as n8n's server has it. Not credentialTester(): it would throw here, in a
	// hook, when the lookup fails, and a mutation run skips the tests after a failed hook
	// (mutation/bailEnvironment.js).
	createEngine();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

/**
 * The test function the action node offers for the credential, looked up as n8n does: by testedBy.
 */
function actionNodeCredentialTest() {
	const { InventoryOps } = require(path.join(DIST, 'nodes/InventoryOps/InventoryOps.node.js'));
	const node = new InventoryOps();
	const entry = node.description.credentials.find(
		(credential) => credential.name === 'inventoryOpsApi',
	);
	expect(entry.testedBy).toBe('inventoryOpsApiTest');
	return node.methods?.credentialTest?.[entry.testedBy];
}

const run = async (method, data) =>
	await method.call(new CredentialTestContext({}), {
		id: 'test',
		name: 'test',
		type: 'inventoryOpsApi',
		data,
	});

test("the action node's testedBy method passes a working credential and fails a bad token", async () => {
	const method = actionNodeCredentialTest();
	expect(typeof method).toBe('function');

	const good = await run(method, sandbox.credentials());
	expect(good.status).toBe('OK');
	expect(good.message).toMatch(/^The access token works/);
	// Then only the path beside the restore, which no operation serves: a restore changes data.
	expect((await sandbox.calls()).map(({ route, status }) => [route, status])).toEqual([
		[BULK, 200],
		['/s/ship/shipping/no-such-operation-n8n-path-check', 404],
	]);

	await sandbox.reset();
	const bad = await run(method, { ...sandbox.credentials(), accessToken: 'not-a-token' });
	expect(bad.status).toBe('Error');
	// The path beside, which nothing serves, is asked whether the 401 is the service's; a web page
	// never is.
	const beside =
		answers.errorBodies === 'html' ? [] : [['/api/order/no-such-operation-n8n-path-check', 404]];
	expect((await sandbox.calls()).map(({ route, status }) => [route, status])).toEqual([
		[BULK, 401],
		...beside,
	]);
});
