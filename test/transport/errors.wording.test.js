// The words of an API error through n8n's engine against the sandbox, under every profile: the node's conclusion
// from the status, then what the service said, in the message; no generic status text glued before the advice, no
// SKU talk for a shipment, "nothing was restored" for a refused restore whether or not a code arrives, and an
// unknown handler id that is named with the Base URL, since only the service's words tell which it was. Where the
// profile's service sends a web page, there are no service words to quote; what the node can know is checked.
const { useInventoryOps } = require('../helpers/inventoryOps');
const { errorSeen, refusalSeen, sandboxCode } = require('../helpers/profile');

const ctx = useInventoryOps({ orders: 50 });
let order;

beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 50 });
	order = orders.find((candidate) => candidate.shipments.some((shipment) => shipment.deducted && !shipment.voided));
});

const restore = () => ({
	resource: 'shipment',
	operation: 'restoreInventory',
	storeId: order.store_id,
	orderNumber: order.order_number,
	shipmentId: order.shipments.find((shipment) => shipment.deducted && !shipment.voided)._id,
});

test('a shipment restored twice: the second error says nothing was restored, quoting the service, with no SKU', async () => {
	expect((await ctx.run(restore())).error).toBeUndefined();
	const again = await ctx.run(restore());
	expect(again.error.httpCode).toBe('409');
	const { message, description } = again.error;
	expect(message).toMatch(/^The service refused the restore as a conflict \(409\), so nothing was restored\. /);
	expect(`${message} ${description}`).not.toMatch(/SKU/);
	expect(description).toMatch(/^It may be already restored, or never have deducted stock: check the shipment in Inventory Ops\./);
	const seen = errorSeen(409);
	if (seen.serviceMessage) expect(message).toMatch(/The service said: .*was already restored\.$/);
	else expect(message).toMatch(/The answer was a web page titled "409 Conflict"/);
	// The code is quoted as the service's when it sends one, and changes none of the words before it.
	if (seen.code) expect(description).toContain(`The service's code: ${sandboxCode('ALREADY_RESTORED')}.`);
	else expect(description).not.toMatch(/code/);
});

test('an unknown handler id (answered 404): the error quotes the service, and says what the answer beside it proves', async () => {
	await ctx.sandbox.config({ removeUnknown: 404 });
	const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: '000000000000000000000000' });
	expect(result.error.httpCode).toBe('404');
	expect(result.error.message).toMatch(/^The service answered \/webhook\/remove_handler with 404 \(not found\)\. /);
	if (errorSeen(404).serviceMessage) expect(result.error.message).toContain('000000000000000000000000');
	if (errorSeen(404).serviceMessage) {
		// Unlike the answer of the path beside it, which nothing serves: the service's own "no such handler".
		expect(result.error.description).toMatch(
			/^The service does not know this handler: its answer differs from that of http:\/\/\S+\/api\/webhook\/no-such-operation-n8n-path-check, a path nothing serves\. It is gone already, or the ID is wrong\./,
		);
	} else {
		// A web page proves nothing: a gateway gives one for any path.
		expect(result.error.message).toMatch(/ Nothing shows that the service does not know the handler: the answer was a web page, as a gateway gives for any path it does not know\. The handler may still exist: check the Base URL\.$/);
	}
});

test('a Base URL without the service names the Base URL', async () => {
	const credentials = { ...ctx.sandbox.credentials(), baseUrl: `${ctx.sandbox.server.origin}/wrong` };
	const result = await ctx.run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-1' }, { credentials });
	expect(result.error.httpCode).toBe('404');
	expect(result.error.description).toMatch(/Check the identifiers sent and the Base URL\./);
	expect(result.error.description).not.toMatch(/^Not found\b/i);
});

test('a kit whose SKU is taken (409): the service says so, and the advice names a SKU in use as an example', async () => {
	const kit = { resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-TAKEN' };
	expect((await ctx.run(kit)).error).toBeUndefined();
	const again = await ctx.run(kit);
	expect(again.error.description).not.toMatch(/restore/i);
	const seen = refusalSeen(409);
	if (seen.serviceMessage) expect(again.error.message).toMatch(/The service said: SKU "KIT-WORDS-TAKEN" is already used/);
	if (seen.httpCode === '200') {
		// The profile's service refuses with 200 success: false, in its own words.
		expect(again.error.message).toMatch(/^The service refused \/kit\/create with success: false\. /);
		return;
	}
	expect(again.error.httpCode).toBe('409');
	expect(again.error.message).toMatch(/^The service refused \/kit\/create as a conflict \(409\)\. /);
	expect(again.error.description).toMatch(/^Its SKU may be used by another item or kit already\./);
});

test('a 404 whose code names a record: read like any 404, the code only quoted', async () => {
	await ctx.sandbox.fault({
		route: '/api/kit/create',
		count: 1,
		status: 404,
		body: { error: { code: 'ITEM_NOT_FOUND', message: 'No item 77' } },
	});
	const result = await ctx.run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-404', items: [] });
	expect(result.error.message).toBe('The service answered /kit/create with 404 (not found). The service said: No item 77.');
	expect(result.error.description).toBe("Check the identifiers sent and the Base URL. The service's code: ITEM_NOT_FOUND.");
});

test('an error without a message: the conclusion from the status alone', async () => {
	await ctx.sandbox.fault({ route: '/api/kit/create', count: 1, status: 400, body: {} });
	const result = await ctx.run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-400' });
	expect(result.error.message).toBe('The service refused /kit/create as invalid (400).');
});
