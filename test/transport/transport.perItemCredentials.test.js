// A credential field set by an expression ({{ $json.baseUrl }}) is resolved by n8n for the item the
// call is made for. n8n's server does that in its CredentialsHelper
// (n8n/dist/credentials-helper.js, applyDefaultsAndOverwrites:
// workflow.expression.getParameterValue with the item index n8n-core hands over); the test engine's
// stand-in hands out the credential as given, so this file makes it resolve expressions the same
// way for its own runs.
const { packageCredentialsHelper } = require('../helpers/engine');
const { useInventoryOps } = require('../helpers/inventoryOps');

const KIT = '/api/kit/create';
const ctx = useInventoryOps({ orders: 20, config: { errorBodies: 'spec', refusals: 'status' } });

const helperPrototype = Object.getPrototypeOf(packageCredentialsHelper({}));
const asGiven = helperPrototype.getDecrypted;
beforeAll(() => {
	helperPrototype.getDecrypted = async function (
		additionalData,
		nodeCredentials,
		type,
		mode,
		executeData,
		raw,
		resolve,
	) {
		const data = await asGiven.call(this, additionalData, nodeCredentials, type);
		if (resolve === undefined) return data;
		return resolve.workflow.expression.getParameterValue(
			data,
			resolve.runExecutionData,
			resolve.runIndex,
			resolve.itemIndex,
			resolve.node.name,
			resolve.connectionInputData,
			mode,
			{},
			executeData,
			false,
			data,
		);
	};
});
afterAll(() => {
	helperPrototype.getDecrypted = asGiven;
});

test('a Base URL taken from each item: every call goes to the address of its own item', async () => {
	const items = [
		{ baseUrl: `${ctx.sandbox.server.origin}/wrong`, sku: 'KIT-PER-ITEM-1' },
		{ baseUrl: ctx.sandbox.baseUrl, sku: 'KIT-PER-ITEM-2' },
	];
	const credentials = { ...ctx.sandbox.credentials(), baseUrl: '={{ $json.baseUrl }}' };
	const parameters = { resource: 'kit', operation: 'create', name: 'Kit', sku: '={{ $json.sku }}' };
	const result = await ctx.run(parameters, { items, credentials, continueOnFail: true });
	expect(result.items[0].json.details).toMatchObject({ httpCode: '404', endpoint: '/kit/create' });
	expect(result.items[1].json).toMatchObject({ success: true });
	expect((await ctx.sandbox.calls()).map((call) => [call.route, call.status])).toEqual([
		['/wrong/kit/create', 404],
		[KIT, 200],
	]);
	expect((await ctx.sandbox.kits()).map((kit) => kit.sku)).toEqual(['KIT-PER-ITEM-2']);
});

test("an access token taken from each item: every call carries its own item's token, with its own item's address", async () => {
	// n8n's httpRequestWithAuthentication would read the credential again without the item (n8n-core,
	// request-helpers/authentication.js), so the token would be item 0's; the node hands it the
	// credential it read for the call's item.
	const goodToken = ctx.sandbox.credentials().accessToken;
	const items = [
		{ token: 'not-a-valid-token', sku: 'KIT-TOKEN-1' },
		{ token: goodToken, sku: 'KIT-TOKEN-2' },
	];
	const credentials = { ...ctx.sandbox.credentials(), accessToken: '={{ $json.token }}' };
	const parameters = { resource: 'kit', operation: 'create', name: 'Kit', sku: '={{ $json.sku }}' };
	const result = await ctx.run(parameters, { items, credentials, continueOnFail: true });
	expect(result.items[0].json.details).toMatchObject({ httpCode: '401' });
	expect(result.items[1].json).toMatchObject({ success: true });
	expect((await ctx.sandbox.calls(KIT)).map((call) => call.status)).toEqual([401, 200]);
	expect((await ctx.sandbox.kits()).map((kit) => kit.sku)).toEqual(['KIT-TOKEN-2']);
});
