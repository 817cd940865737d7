// The whole description of an API error, word for word, through n8n's engine against the sandbox: what the service
// said (its overview, when it says more than the status's name), the node's hint for the status, then the code and
// the trace id, one space apart and nothing else; whether a failed call may have changed data; and which answers
// are about the access token. Each answer is given by the sandbox's `fault`, so it is the same under every profile.
const { useInventoryOps } = require('../helpers/inventoryOps');

const KIT = '/api/kit/create';
const BULK = '/api/order/get_single_bulk';
const ADD = '/api/webhook/add_handler';
const INVALID = 'The service rejected the request as invalid. Check the fields named in the message.';
const MAY_HAVE_APPLIED =
	'Nothing here can tell whether the change was applied, so it was not sent again; check the service before running this item again.';
const ctx = useInventoryOps({ orders: 5 });

const kit = { resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-DESCRIBED' };
const lookup = { resource: 'order', operation: 'lookUp', storeId: '1001', orderNumber: '1000' };
const answer = (route, status, error, extra = {}) => ctx.sandbox.fault({ route, count: 1, status, body: { error }, ...extra });
/** A JWT-shaped token (not signed by the sandbox, so it answers 401) with this payload. */
const tokenWith = (payload, parts = 3) =>
	['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'c2ln', 'c2ln'].slice(0, parts).join('.');

describe('the parts of the description', () => {
	test('overview, hint, code and trace id, in that order, one space apart', async () => {
		await answer(KIT, 400, {
			message: 'Quantity must be positive',
			overview: 'A component quantity is below 1.',
			code: 'INVALID_QUANTITY',
			serviceTraceId: 'trace-7',
		});
		const { error } = await ctx.run(kit);
		expect(error.message).toBe('Quantity must be positive');
		expect(error.description).toBe(`A component quantity is below 1. ${INVALID} Code: INVALID_QUANTITY. Trace id: trace-7.`);
	});

	test('without overview, code or trace id: the hint alone, nothing in their place', async () => {
		await answer(KIT, 400, { message: 'Quantity must be positive' });
		const { error } = await ctx.run(kit);
		expect(error.description).toBe(INVALID);
	});

	test.each([
		['with a full stop', 'Bad Request.'],
		['with spaces around it', '  bad request '],
	])('an overview that is only the status name (%s) is left out', async (_, overview) => {
		await answer(KIT, 400, { message: 'Quantity must be positive', overview, code: 'BAD_REQUEST' });
		const { error } = await ctx.run(kit);
		expect(error.description).toBe(`${INVALID} Code: BAD_REQUEST.`);
	});

	test("an overview with a full stop inside a status name is the service's own text, and is kept", async () => {
		await answer(KIT, 400, { message: 'Quantity must be positive', overview: 'Bad. Request' });
		const { error } = await ctx.run(kit);
		expect(error.description).toBe(`Bad. Request ${INVALID}`);
	});
});

describe('whether the change may have been applied', () => {
	test('a 400 on a write: refused, so no word about a change that may have been applied', async () => {
		await answer(KIT, 400, { message: 'Quantity must be positive', code: 'INVALID_QUANTITY' });
		const { error } = await ctx.run(kit);
		expect(error.description).toBe(`${INVALID} Code: INVALID_QUANTITY.`);
	});

	test('a 502 on a write: the service failed, and the change may have been applied', async () => {
		await answer(KIT, 502, { message: 'Upstream failed' });
		const { error } = await ctx.run(kit);
		expect(error.httpCode).toBe('502');
		expect(error.description).toBe(`The service failed internally. ${MAY_HAVE_APPLIED}`);
		expect(await ctx.sandbox.calls(KIT)).toHaveLength(1);
	});

	test('a 500 on the read-only lookup: the service failed, and nothing is said about a change', async () => {
		await answer(BULK, 500, { message: 'Lookup failed', code: 'INTERNAL' }, { count: 5 });
		const { error } = await ctx.run(lookup);
		expect(error.httpCode).toBe('500');
		expect(error.description).toBe('The service failed internally. Code: INTERNAL.');
	});

	test('a 422 on a write: no hint the node does not have (not "failed internally")', async () => {
		await answer(KIT, 422, { message: 'Kit has no components', code: 'NO_COMPONENTS' });
		const { error } = await ctx.run(kit);
		expect(error.httpCode).toBe('422');
		expect(error.description).toBe('Code: NO_COMPONENTS.');
	});

	test('a 200 with success: false: the description says the change was not made', async () => {
		await ctx.sandbox.fault({ route: KIT, count: 1, status: 200, body: { success: false, message: 'SKU reserved' } });
		const { error } = await ctx.run(kit);
		expect(error.message).toBe('The service refused /kit/create: SKU reserved');
		expect(error.description).toBe('It answered 200 with success: false, which says the change was not made.');
	});

	test('a lookup answered with what it cannot read: the description says nothing was changed', async () => {
		await ctx.sandbox.fault({ route: BULK, count: 5, status: 200, body: { orders: [] } });
		const { error } = await ctx.run(lookup);
		expect(error.message).toMatch(/^The service answered \/order\/get_single_bulk with /);
		expect(error.description).toBe('This call only reads data; nothing was changed.');
	});

	test('a lookup that gets no answer: the description says it only reads and can be run again', async () => {
		await ctx.sandbox.fault({ route: BULK, count: 5, drop: 'before' });
		const { error } = await ctx.run(lookup);
		expect(error.message).toBe('The connection to the service was lost during /order/get_single_bulk before an answer arrived');
		expect(error.description).toBe('No answer was received. This call only reads data and can be run again safely.');
	});
});

describe('hints for 404 and 409', () => {
	test('a 409 on an operation without conflict words of its own: the general conflict hint', async () => {
		await answer(ADD, 409, { message: 'A handler with this name exists', code: 'HANDLER_EXISTS' });
		const { error } = await ctx.run({
			resource: 'webhookHandler',
			operation: 'add',
			eventType: 'order.shipped',
			name: 'Described',
			url: 'https://example.com/hooks/described',
			method: 'POST',
		});
		expect(error.httpCode).toBe('409');
		expect(error.description).toBe('The request conflicts with data already on the service. Code: HANDLER_EXISTS.');
	});

	test('a 404 whose code only starts with NOT_FOUND names no record: the Base URL is named', async () => {
		await answer(KIT, 404, { message: 'No such route', code: 'NOT_FOUND_ROUTE' });
		const { error } = await ctx.run(kit);
		expect(error.description).toBe(
			'The service has no such address or record. Check the Base URL in the credential, and the identifiers sent. Code: NOT_FOUND_ROUTE.',
		);
	});
});

describe('what is said about the access token', () => {
	test('an expired token with an answer other than 401: the service message, not the token', async () => {
		const token = await ctx.sandbox.token({ expiresInSeconds: -120 });
		await answer(KIT, 503, { message: 'Down for maintenance' });
		const { error } = await ctx.run(kit, { accessToken: token });
		expect(error.httpCode).toBe('503');
		expect(error.message).toBe('Down for maintenance');
	});

	test.each([
		['an exp given as text', tokenWith({ exp: '1700000000' })],
		['four parts', tokenWith({ exp: 1_700_000_000 }, 4)],
		['two parts', tokenWith({ exp: 1_700_000_000 }, 2)],
	])('a 401 for a token that is not a readable JWT (%s) never says it expired', async (_, token) => {
		const { error } = await ctx.run(kit, { accessToken: token });
		expect(error.httpCode).toBe('401');
		expect(error.message).not.toMatch(/expired/);
		expect(error.description).toMatch(/^The access token was missing or rejected\. Check the Access Token/);
	});
});

describe('the address', () => {
	test('a Base URL with trailing slashes still reaches the service', async () => {
		const credentials = { ...ctx.sandbox.credentials(), baseUrl: `${ctx.sandbox.baseUrl}//` };
		const { error, items } = await ctx.run(kit, { credentials });
		expect(error).toBeUndefined();
		expect(items[0].json.success).toBe(true);
		expect((await ctx.sandbox.calls()).map((call) => call.route)).toEqual([KIT]);
	});
});
