// The words of an API error through n8n's engine against the sandbox, under every profile: the
// node's conclusion from the status, then what the service said, in the message; no generic status
// text glued before the advice, no SKU talk for a shipment, nothing restored (the reading) for a
// refused restore whether or not a code arrives, and an unknown handler id that is named with the
// Base URL, since only the service's words tell which it was. Where the profile's service sends a
// web page, there are no service words to quote; what the node can know is checked.
const { useInventoryOps } = require('../helpers/inventoryOps');
const { errorSeen, refusalSeen, sandboxCode } = require('../helpers/profile');

const ctx = useInventoryOps({ orders: 50 });
let order;

beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 50 });
	order = orders.find((candidate) =>
		candidate.shipments.some((shipment) => shipment.deducted && !shipment.voided),
	);
});

const restore = () => ({
	resource: 'shipment',
	operation: 'restoreInventory',
	storeId: order.store_id,
	orderNumber: order.order_number,
	shipmentId: order.shipments.find((shipment) => shipment.deducted && !shipment.voided)._id,
});

test('a shipment restored twice: the second is refused, nothing restored, quoting the service, with no SKU', async () => {
	expect((await ctx.run(restore())).error).toBeUndefined();
	const again = await ctx.run(restore());
	expect(again.error.httpCode).toBe('409');
	const { message, description, errorResponse } = again.error;
	// The restore's own words for a 409: errors.descriptions.test.js.
	expect(errorResponse).toMatchObject({ outcome: 'refused', changeApplied: 'no', statusCode: 409 });
	expect(`${message} ${description}`).not.toMatch(/SKU/);
	const seen = errorSeen(409);
	if (seen.serviceMessage) expect(message).toMatch(/The service said: .*was already restored\.$/);
	else expect(message).toMatch(/The answer was a web page titled "409 Conflict"/);
	// The code is quoted as the service's when it sends one, and changes none of the words before it.
	if (seen.code)
		expect(description).toContain(`The service's code: ${sandboxCode('ALREADY_RESTORED')}.`);
	else expect(description).not.toMatch(/code/);
});

test('an unknown handler id (answered 404) after a removal in the same run: the error quotes the service, and says what proves it gone', async () => {
	await ctx.sandbox.config({ removeUnknown: 404 });
	const live = await ctx.sandbox.addHandler();
	const result = await ctx.run(
		{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
		{ items: [{ id: live }, { id: '000000000000000000000000' }], continueOnFail: true },
	);
	const [, { json: unknown }] = result.items;
	expect(unknown.details.httpCode).toBe('404');
	const { serviceMessage } = errorSeen(404);
	// The service's own "no such handler", the same as its answer to the live id once removed (the
	// node sends it again to learn it) and unlike the answer of the path beside it, which nothing
	// serves; a web page proves nothing, as a gateway gives one for any path.
	expect(unknown.details).toMatchObject({
		outcome: 'refused',
		handlerGone: Boolean(serviceMessage),
	});
	if (serviceMessage) {
		expect(unknown.error).toContain('000000000000000000000000');
		// The path compared with, which only these words name.
		expect(unknown.details.description).toMatch(
			/^The service does not know this handler: it is the answer to an unknown id, and http:\/\/\S+\/api\/webhook\/no-such-operation-n8n-path-check, a path nothing serves, answered differently \(404\)\. It is gone already, or the ID is wrong\./,
		);
	} else {
		expect(unknown.error).toContain(
			'Nothing shows that the service does not know the handler: the answer was a web page',
		);
	}
});

test('a Base URL without the service: a 404 refusal, no status name before the advice', async () => {
	const credentials = {
		...ctx.sandbox.credentials(),
		baseUrl: `${ctx.sandbox.server.origin}/wrong`,
	};
	const result = await ctx.run(
		{ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-1' },
		{ credentials },
	);
	expect(result.error.httpCode).toBe('404');
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'refused',
		statusCode: 404,
		endpoint: '/kit/create',
	});
	// The advice's words (the Base URL named): errors.descriptions.test.js; no status name glued
	// before them.
	expect(result.error.description).not.toMatch(/^Not found\b/i);
});

test('a kit whose SKU is taken (409): the service says so, and the advice names a SKU in use as an example', async () => {
	const kit = { resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-WORDS-TAKEN' };
	expect((await ctx.run(kit)).error).toBeUndefined();
	const again = await ctx.run(kit);
	expect(again.error.description).not.toMatch(/restore/i);
	const seen = refusalSeen(409);
	if (seen.serviceMessage)
		expect(again.error.message).toMatch(/The service said: SKU "KIT-WORDS-TAKEN" is already used/);
	if (seen.httpCode === '200') {
		// The profile's service refuses with 200 success: false, in its own words.
		expect(again.error.message).toMatch(
			/^The service refused \/kit\/create with success: false\. /,
		);
		return;
	}
	expect(again.error.httpCode).toBe('409');
	expect(again.error.message).toMatch(
		/^The service refused \/kit\/create as a conflict \(409\)\. /,
	);
	expect(again.error.description).toMatch(/^Its SKU may be used by another item or kit already\./);
});

test('a 404 whose code names a record: read like any 404, the code only quoted', async () => {
	await ctx.sandbox.fault({
		route: '/api/kit/create',
		count: 1,
		status: 404,
		body: { error: { code: 'ITEM_NOT_FOUND', message: 'No item 77' } },
	});
	const result = await ctx.run({
		resource: 'kit',
		operation: 'create',
		name: 'Kit',
		sku: 'KIT-WORDS-404',
		items: [],
	});
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'refused',
		statusCode: 404,
		code: 'ITEM_NOT_FOUND',
		message: 'No item 77',
	});
	expect(result.error.description).toContain("The service's code: ITEM_NOT_FOUND.");
});

test('an error without a message: the conclusion from the status alone', async () => {
	await ctx.sandbox.fault({ route: '/api/kit/create', count: 1, status: 400, body: {} });
	const result = await ctx.run({
		resource: 'kit',
		operation: 'create',
		name: 'Kit',
		sku: 'KIT-WORDS-400',
	});
	expect(result.error.message).toBe('The service refused /kit/create as invalid (400).');
});
