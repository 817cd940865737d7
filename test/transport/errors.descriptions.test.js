// The words of an API error, whole, through n8n's engine against the sandbox. The message: what the
// node concluded from the status (never from the error's code, which the service may or may not
// send), then "The service said:" and its message (or overview). The description: the overview when
// it says more than the status's name, what to do, the service's code and trace id when sent, one
// space apart and nothing else; which answers are about the access token. Whether a failed call may
// have changed data is read from the error's details, not its words. Each answer is given by the
// sandbox's `fault`, so it is the same under every profile.
const { useInventoryOps } = require('../helpers/inventoryOps');

const KIT = '/api/kit/create';
const BULK = '/api/order/get_single_bulk';
const ADD = '/api/webhook/add_handler';
const RESTORE = '/s/ship/shipping/restore_inventory';
const INVALID_KIT = 'The service refused /kit/create as invalid (400).';
const CHECK_FIELDS = 'Check the fields the service names.';
const ctx = useInventoryOps({ orders: 5 });

const kit = { resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-DESCRIBED' };
const lookup = { resource: 'order', operation: 'lookUp', storeId: '1001', orderNumber: '1000' };
const restore = {
	resource: 'shipment',
	operation: 'restoreInventory',
	storeId: '1001',
	orderNumber: '1000',
	shipmentId: 's-1',
};
const answer = (route, status, error, extra = {}) =>
	ctx.sandbox.fault({ route, count: 1, status, body: { error }, ...extra });
/** A JWT-shaped token (not signed by the sandbox, so it answers 401) with this payload. */
const tokenWith = (payload, parts = 3) =>
	['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'c2ln', 'c2ln']
		.slice(0, parts)
		.join('.');

describe('the message: what the node concluded from the status, then what the service said', () => {
	test('the conclusion and the service message, quoted whole; the description: overview, advice, code, trace id', async () => {
		await answer(KIT, 400, {
			message: 'Quantity must be positive',
			overview: 'A component quantity is below 1.',
			code: 'INVALID_QUANTITY',
			serviceTraceId: 'trace-7',
		});
		const { error } = await ctx.run(kit);
		expect(error.message).toBe(`${INVALID_KIT} The service said: Quantity must be positive.`);
		expect(error.description).toBe(
			`A component quantity is below 1. ${CHECK_FIELDS} The service's code: INVALID_QUANTITY. Trace id: trace-7.`,
		);
	});

	test('the same answer without a code reads the same; only the code is missing from the description', async () => {
		await answer(KIT, 400, {
			message: 'Quantity must be positive',
			overview: 'A component quantity is below 1.',
			serviceTraceId: 'trace-7',
		});
		const { error } = await ctx.run(kit);
		expect(error.message).toBe(`${INVALID_KIT} The service said: Quantity must be positive.`);
		expect(error.description).toBe(
			`A component quantity is below 1. ${CHECK_FIELDS} Trace id: trace-7.`,
		);
	});

	test.each([
		['a code the sandbox uses', 'ALREADY_RESTORED'],
		['a code of another service', 'E_RESTORE_TWICE'],
		['no code', undefined],
	])('a 409 of the restore with %s: one message, one advice', async (_, code) => {
		await answer(RESTORE, 409, {
			message: 'Shipment s-1 was restored on Monday',
			...(code ? { code } : {}),
		});
		const { error } = await ctx.run(restore);
		expect(error.message).toBe(
			'The service refused the restore as a conflict (409), so nothing was restored. The service said: Shipment s-1 was restored on Monday.',
		);
		expect(error.description).toBe(
			`It may be already restored, or never have deducted stock: check the shipment in Inventory Ops.${code ? ` The service's code: ${code}.` : ''}`,
		);
	});

	test('a message that ends in its own punctuation gets no second full stop', async () => {
		await answer(KIT, 400, { message: 'Is the quantity right?' });
		expect((await ctx.run(kit)).error.message).toBe(
			`${INVALID_KIT} The service said: Is the quantity right?`,
		);
	});

	test('without a message, the overview is what the service said, and is not repeated below', async () => {
		await answer(KIT, 400, { overview: 'A component quantity is below 1.' });
		const { error } = await ctx.run(kit);
		expect(error.message).toBe(`${INVALID_KIT} The service said: A component quantity is below 1.`);
		expect(error.description).toBe(CHECK_FIELDS);
	});

	test('the service message is quoted without the spaces around it; spaces alone are no message', async () => {
		await answer(KIT, 400, { message: '  Quantity must be positive \n' });
		expect((await ctx.run(kit)).error.message).toBe(
			`${INVALID_KIT} The service said: Quantity must be positive.`,
		);
		await answer(KIT, 400, { message: '   ' });
		expect((await ctx.run(kit)).error.message).toBe(INVALID_KIT);
	});

	test('an overview that repeats the message is not said again in the description', async () => {
		await answer(KIT, 400, {
			message: 'A component quantity is below 1.',
			overview: 'A component quantity is below 1.',
		});
		const { error } = await ctx.run(kit);
		expect(error.message).toBe(`${INVALID_KIT} The service said: A component quantity is below 1.`);
		expect(error.description).toBe(CHECK_FIELDS);
	});

	test('an error without message or overview: the conclusion alone', async () => {
		await answer(KIT, 400, {});
		const { error } = await ctx.run(kit);
		expect(error.message).toBe('The service refused /kit/create as invalid (400).');
		expect(error.description).toBe(CHECK_FIELDS);
	});

	test.each([
		['with a full stop', 'Bad Request.'],
		['with spaces around it', '  bad request '],
	])('an overview that is only the status name (%s) is left out', async (_, overview) => {
		await answer(KIT, 400, { message: 'Quantity must be positive', overview, code: 'BAD_REQUEST' });
		const { error } = await ctx.run(kit);
		expect(error.description).toBe(`${CHECK_FIELDS} The service's code: BAD_REQUEST.`);
	});

	test("an overview with a full stop inside a status name is the service's own text, and is kept", async () => {
		await answer(KIT, 400, { message: 'Quantity must be positive', overview: 'Bad. Request' });
		const { error } = await ctx.run(kit);
		expect(error.description).toBe(`Bad. Request ${CHECK_FIELDS}`);
	});

	test('a URL with a password in the service message is quoted without the password', async () => {
		await answer(KIT, 400, { message: 'Cannot fetch https://user:s3cret@example.com/image.png' });
		const { error } = await ctx.run(kit);
		expect(error.message).toMatch(
			/^The service refused \/kit\/create as invalid \(400\)\. The service said: Cannot fetch https:\/\/.*example\.com\/image\.png\.$/,
		);
		expect(JSON.stringify(error)).not.toContain('s3cret');
	});
});

describe('whether the change may have been applied', () => {
	// Here the reading, as data; its words for each kind: render.test.js.
	test('a 400 on a write: refused, so the change was not applied', async () => {
		await answer(KIT, 400, { message: 'Quantity must be positive', code: 'INVALID_QUANTITY' });
		const { error } = await ctx.run(kit);
		expect(error.errorResponse).toMatchObject({
			outcome: 'refused',
			changeApplied: 'no',
			statusCode: 400,
			code: 'INVALID_QUANTITY',
		});
	});

	test('a 502 on a write: the service failed, and the change may have been applied', async () => {
		await answer(KIT, 502, { message: 'Upstream failed' });
		const { error } = await ctx.run(kit);
		expect(error.httpCode).toBe('502');
		expect(error.errorResponse).toMatchObject({
			outcome: 'failed',
			changeApplied: 'maybe',
			message: 'Upstream failed',
		});
		expect(await ctx.sandbox.calls(KIT)).toHaveLength(1);
	});

	test('a 500 on the read-only lookup: the service failed, and no verdict on a change', async () => {
		await answer(BULK, 500, { message: 'Lookup failed', code: 'INTERNAL' }, { count: 5 });
		const { error } = await ctx.run(lookup);
		expect(error.httpCode).toBe('500');
		expect(error.errorResponse).toMatchObject({
			outcome: 'failed',
			endpoint: '/order/get_single_bulk',
			code: 'INTERNAL',
		});
		expect(error.errorResponse).not.toHaveProperty('changeApplied');
	});

	test('a 422 on a write: no advice the node does not have (not "failed"), the status and the words', async () => {
		await answer(KIT, 422, { message: 'Kit has no components', code: 'NO_COMPONENTS' });
		const { error } = await ctx.run(kit);
		expect(error.httpCode).toBe('422');
		expect(error.message).toBe(
			'The service answered 422 to /kit/create. The service said: Kit has no components.',
		);
		expect(error.description).toBe("The service's code: NO_COMPONENTS.");
	});

	test('a 200 with success: false: the service refused, so the change was not made; with only a code, the code is quoted', async () => {
		await ctx.sandbox.fault({
			route: KIT,
			count: 1,
			status: 200,
			body: { success: false, message: 'SKU reserved' },
		});
		const { error } = await ctx.run(kit);
		expect(error.errorResponse).toMatchObject({
			outcome: 'refused',
			changeApplied: 'no',
			statusCode: 200,
			message: 'SKU reserved',
		});
		await ctx.sandbox.fault({
			route: KIT,
			count: 1,
			status: 200,
			body: { success: false, code: 'SKU_RESERVED' },
		});
		const coded = (await ctx.run(kit)).error;
		expect(coded.message).toBe('The service refused /kit/create with success: false.');
		expect(coded.description).toBe(
			"Its success: false says the change was not made. The service's code: SKU_RESERVED.",
		);
	});

	test('a lookup answered with what it cannot read: unreadable, and no verdict on a change', async () => {
		await ctx.sandbox.fault({ route: BULK, count: 5, status: 200, body: { orders: [] } });
		const { error } = await ctx.run(lookup);
		expect(error.errorResponse).toMatchObject({
			outcome: 'unreadable',
			endpoint: '/order/get_single_bulk',
		});
		expect(error.errorResponse).not.toHaveProperty('changeApplied');
	});

	test('a lookup that gets no answer: sent, not answered, and no verdict on a change', async () => {
		await ctx.sandbox.fault({ route: BULK, count: 5, drop: 'before' });
		const { error } = await ctx.run(lookup);
		expect(error.errorResponse).toMatchObject({
			outcome: 'noAnswer',
			sent: true,
			timedOut: false,
			changesData: false,
		});
		expect(error.errorResponse).not.toHaveProperty('changeApplied');
	});
});

describe('404 and 409: read from the status, never from the code', () => {
	const add = {
		resource: 'webhookHandler',
		operation: 'add',
		eventType: 'order.shipped',
		name: 'Described',
		url: 'https://example.com/hooks/described',
		method: 'POST',
	};

	test('a 409 on an operation without conflict words of its own: the general conflict reading', async () => {
		await answer(ADD, 409, { message: 'A handler with this name exists', code: 'HANDLER_EXISTS' });
		const { error } = await ctx.run(add);
		expect(error.httpCode).toBe('409');
		expect(error.message).toBe(
			'The service refused /webhook/add_handler as a conflict (409). The service said: A handler with this name exists.',
		);
		expect(error.description).toBe(
			"Check the request against the data on the service. The service's code: HANDLER_EXISTS.",
		);
	});

	test.each([['NOT_FOUND_ROUTE'], ['SHIPMENT_NOT_FOUND'], [undefined]])(
		'a 404 with code %s: the same advice, naming the identifiers and the Base URL',
		async (code) => {
			await answer(KIT, 404, { message: 'No such thing', ...(code ? { code } : {}) });
			const { error } = await ctx.run(kit);
			expect(error.message).toBe(
				'The service answered /kit/create with 404 (not found). The service said: No such thing.',
			);
			expect(error.description).toBe(
				`Check the identifiers sent and the Base URL.${code ? ` The service's code: ${code}.` : ''}`,
			);
		},
	);

	test('a 404 of the restore names its own fields and the App Base URL', async () => {
		await answer(RESTORE, 404, { message: 'No order 77' });
		const { error } = await ctx.run(restore);
		expect(error.message).toBe(
			'The service answered /ship/shipping/restore_inventory with 404 (not found). The service said: No order 77.',
		);
		expect(error.description).toBe(
			'Check Store ID, Order Number, the shipment identifiers and the App Base URL.',
		);
	});
});

describe('what is said about the access token', () => {
	test('an expired token with an answer other than 401: the service message, not the token', async () => {
		const token = await ctx.sandbox.token({ expiresInSeconds: -120 });
		await answer(KIT, 503, { message: 'Down for maintenance' });
		const { error } = await ctx.run(kit, { accessToken: token });
		expect(error.httpCode).toBe('503');
		expect(error.errorResponse).toMatchObject({
			outcome: 'failed',
			changeApplied: 'maybe',
			message: 'Down for maintenance',
		});
		// No field says what the node made of the token: its words do.
		expect(error.message).not.toMatch(/token/);
	});

	test.each([
		['an exp given as text', tokenWith({ exp: '1700000000' })],
		['four parts', tokenWith({ exp: 1_700_000_000 }, 4)],
		['two parts', tokenWith({ exp: 1_700_000_000 }, 2)],
	])(
		'a 401 for a token that is not a readable JWT (%s) never says it expired',
		async (_, token) => {
			// The sandbox's own 401 in its error shape under every profile (a web page, the gateway
			// profile's, shows no service refusing the token: errors.wording.test.js and the credential
			// tests read that).
			await ctx.sandbox.config({ errorBodies: 'spec' });
			const { error } = await ctx.run(kit, { accessToken: token });
			expect(error.httpCode).toBe('401');
			expect(error.message).toMatch(
				/^The service refused the access token \(401\)\. The service said: /,
			);
			expect(error.message).not.toMatch(/expired/);
			expect(error.description).toMatch(/^Check the Access Token in the credential\./);
		},
	);
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
