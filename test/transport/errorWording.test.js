// The words of an API error's description, through n8n's engine against the sandbox: no generic status text glued
// before the hint, no SKU talk for a shipment, "Nothing was changed" where the service's code says so, and an
// unknown handler id that does not blame the Base URL. Where the profile's service sends no error code (web-page
// errors), only what the node can know is checked.
const { useInventoryOps } = require('../helpers/inventoryOps');
const { errorSeen, refusalSeen } = require('../helpers/profile');

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

test('a shipment restored twice: the second error says nothing was changed, with no "Conflict" and no SKU', async () => {
	expect((await ctx.run(restore())).error).toBeUndefined();
	const again = await ctx.run(restore());
	expect(again.error.httpCode).toBe('409');
	const { description } = again.error;
	expect(description).not.toMatch(/^Conflict\b/);
	expect(description).not.toMatch(/SKU/);
	if (errorSeen(409).code) {
		expect(description).toMatch(/^The inventory of this shipment was already restored\. Nothing was changed\. Code: ALREADY_RESTORED\./);
	} else {
		// A 409 without a code (a gateway's page) is still a refusal of the restore.
		expect(description).toMatch(/^The service refused the restore as a conflict .*already restored.* Nothing was changed\./);
	}
});

test('an unknown handler id (answered 404): the error speaks of the id, not of the Base URL', async () => {
	await ctx.sandbox.config({ removeUnknown: 404 });
	const result = await ctx.run({ resource: 'webhookHandler', operation: 'remove', handlerId: '000000000000000000000000' });
	expect(result.error.httpCode).toBe('404');
	if (errorSeen(404).code) {
		expect(result.error.description).toMatch(/^The service knows no webhook handler with this ID/);
		expect(result.error.description).not.toMatch(/Base URL/);
	}
});

test('a Base URL without the service still names the Base URL (no code naming a record)', async () => {
	const credentials = { ...ctx.sandbox.credentials(), baseUrl: `${ctx.sandbox.server.origin}/wrong` };
	const result = await ctx.run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-1' }, { credentials });
	expect(result.error.httpCode).toBe('404');
	expect(result.error.description).toMatch(/Check the Base URL in the credential/);
	expect(result.error.description).not.toMatch(/^Not found\b/i);
});

test("a kit whose SKU is taken (409): the error says a kit's SKU must not be used by another item or kit", async () => {
	const kit = { resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-TAKEN' };
	expect((await ctx.run(kit)).error).toBeUndefined();
	const again = await ctx.run(kit);
	expect(again.error.description).not.toMatch(/restore/i);
	if (refusalSeen(409).httpCode === '200') {
		// The profile's service refuses with 200 success: false, in its own words.
		expect(again.error.message).toMatch(/SKU "KIT-WORDS-TAKEN" is already used/);
		return;
	}
	expect(again.error.httpCode).toBe('409');
	expect(again.error.description).toMatch(/A kit's SKU must not be used by another item or kit\./);
});

test('a 404 whose code names a record no operation has its own words for: the record, not the address', async () => {
	await ctx.sandbox.fault({
		route: '/api/kit/create',
		count: 1,
		status: 404,
		body: { error: { code: 'ITEM_NOT_FOUND', message: 'No item 77' } },
	});
	const result = await ctx.run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-404', items: [] });
	expect(result.error.message).toBe('No item 77');
	expect(result.error.description).toMatch(/^The service does not know the record named in the message\. Check the identifiers sent\./);
});

test('an error without a message: the status and the address stand in for it', async () => {
	await ctx.sandbox.fault({ route: '/api/kit/create', count: 1, status: 400, body: {} });
	const result = await ctx.run({ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-400' });
	expect(result.error.message).toBe('The service answered 400 to /kit/create');
});
