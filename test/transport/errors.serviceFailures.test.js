// How the node reports the service's failures, through n8n's engine against the sandbox: 400, 401
// (expired token, without the token anywhere), 403, 404, 500, 429 then success, and the three ways
// a node can go on after errors.
const { useInventoryOps } = require('../helpers/inventoryOps');
const {
	answers,
	errorSeen,
	firstRetryWaitAtLeastMs,
	refusalSeen,
	sandboxCode,
} = require('../helpers/profile');

const KIT = '/api/kit/create';
const BULK = '/api/order/get_single_bulk';
const ctx = useInventoryOps({ orders: 20 });

const kit = (sku = 'KIT-ERR-1') => ({ resource: 'kit', operation: 'create', name: 'Kit', sku });
const lookup = { resource: 'order', operation: 'lookUp', storeId: '1001', orderNumber: '1000' };

/**
 * Everything the run produced (items, error, the whole IRun), as text. JSON.stringify skips an
 * Error's message and stack (not own enumerable properties), so they are written out here: a token
 * in them would otherwise go unseen.
 */
const everything = (result) =>
	JSON.stringify(result.run ?? result, (key, value) =>
		value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
	);

test("400: the service message, after the node's conclusion, and its code and trace id reach the error", async () => {
	const result = await ctx.run({
		...kit(),
		kitItems: { item: [{ itemId: 'no-such-item', quantity: 1 }] },
	});
	const seen = refusalSeen(400);
	expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: seen.httpCode });
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'refused',
		changeApplied: 'no',
		endpoint: '/kit/create',
	});
	expect(result.error.message).toMatch(
		/^The service refused \/kit\/create (as invalid \(400\)|with success: false)\./,
	);
	if (seen.serviceMessage)
		expect(result.error.message).toMatch(
			/ The service said: .*no item with item_id "no-such-item"/,
		);
	if (seen.code)
		expect(result.error.description).toContain(
			`The service's code: ${sandboxCode('UNKNOWN_COMPONENT')}.`,
		);
	else expect(result.error.description).not.toMatch(/code/);
	if (seen.traceId) expect(result.error.description).toMatch(/Trace id: \S+\./);
});

test('401 with an expired token: says it expired and when, and the token appears nowhere', async () => {
	const token = await ctx.sandbox.token({ expiresInSeconds: -120 });
	const expiry = new Date(
		JSON.parse(Buffer.from(token.split('.')[1], 'base64url')).exp * 1000,
	).toISOString();

	const failed = await ctx.run(kit(), { accessToken: token });
	expect(failed.error.httpCode).toBe('401');
	const said = errorSeen(401).serviceMessage
		? 'The service said: '
		: 'The answer was a web page titled ';
	const start = `The access token expired at ${expiry}. ${said}`;
	expect(failed.error.message.slice(0, start.length)).toBe(start);
	expect(failed.error.description).toMatch(/^Create a new token and put it in the credential\./);
	if (errorSeen(401).code)
		expect(failed.error.errorResponse.code).toBe(sandboxCode('TOKEN_EXPIRED'));
	expect(everything(failed)).not.toContain(token);

	const continued = await ctx.run(kit(), { accessToken: token, continueOnFail: true });
	expect(continued.items[0].json.error).toContain(`expired at ${expiry}`);
	expect(everything(continued)).not.toContain(token);
	expect(everything(continued)).not.toContain(token.split('.')[2]);
});

test('401 with a malformed token: the service message, and the token appears nowhere', async () => {
	const token = 'not-a-jwt-but-secret-looking-0123456789';
	const result = await ctx.run(lookup, { accessToken: token });
	expect(result.error.httpCode).toBe('401');
	if (errorSeen(401).code)
		expect(result.error.errorResponse.code).toBe(sandboxCode('UNAUTHORIZED'));
	if (errorSeen(401).serviceMessage) {
		expect(result.error.message).toMatch(/^The service refused the access token \(401\)\./);
		expect(result.error.description).toContain('Check the Access Token');
	} else {
		// A gateway's page does not show the service refusing the token: the address first, then the
		// token.
		expect(result.error.message).toMatch(
			/^The access token is not confirmed: \/order\/get_single_bulk answered 401, not the service refusing it\. The answer was a web page titled "401 Unauthorized"/,
		);
		expect(result.error.description).toBe(
			'A gateway or proxy may answer at that address: check the Base URL, then the Access Token in the credential.',
		);
	}
	expect(everything(result)).not.toContain(token);
});

test('403: a token without the needed scope', async () => {
	const token = await ctx.sandbox.token({ scopes: ['platformUser'] });
	const result = await ctx.run(kit(), { accessToken: token });
	expect(result.error.httpCode).toBe('403');
	if (errorSeen(403).code) expect(result.error.errorResponse.code).toBe(sandboxCode('FORBIDDEN'));
	if (errorSeen(403).serviceMessage) {
		expect(result.error.message).toMatch(
			/^The access token lacks the permission \(scope\) \/kit\/create needs \(403\)\./,
		);
		expect(result.error.description).toMatch(/^Use a token with that scope in the credential\./);
	} else {
		expect(result.error.message).toMatch(
			/^The access token is not confirmed: \/kit\/create answered 403, not the service refusing it\./,
		);
	}
	expect(await ctx.sandbox.kits()).toEqual([]);
});

test('404 on a lookup: refused, and no verdict on a change', async () => {
	const credentials = {
		...ctx.sandbox.credentials(),
		baseUrl: `${ctx.sandbox.server.origin}/wrong`,
	};
	const result = await ctx.run(lookup, { credentials });
	expect(result.error.httpCode).toBe('404');
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'refused',
		statusCode: 404,
		endpoint: '/order/get_single_bulk',
	});
	// A lookup only reads: no verdict on a change.
	expect(result.error.errorResponse).not.toHaveProperty('changeApplied');
	// The advice's words: errors.wording.test.js.
});

test('500 on a create: reported once, the change maybe applied', async () => {
	await ctx.sandbox.fault({ route: KIT, count: 1, status: 500 });
	const result = await ctx.run(kit());
	expect(result.error.httpCode).toBe('500');
	expect(result.error.errorResponse).toMatchObject({ outcome: 'failed', changeApplied: 'maybe' });
	expect(result.error.description).toContain('was not sent again');
	// The doubt says what to check; a read's advice ("run it again later") would contradict it.
	expect(result.error.description).not.toContain('run it again');
	expect(await ctx.sandbox.calls(KIT)).toHaveLength(1);
});

describe("n8n's Retry On Fail setting", () => {
	// n8n re-runs the whole node after any error; waitBetweenTries 0 keeps the engine's real retry
	// loop quick.
	const retrying = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

	test('on a call that changes data: refused before anything is sent, naming the setting', async () => {
		// The danger it prevents: the connection drops after the service created the kit, n8n tries
		// again.
		await ctx.sandbox.fault({ route: KIT, count: 1, drop: 'after' });
		const result = await ctx.run(kit('KIT-RETRY'), { settings: retrying });
		expect(result.error.message).toBe(
			"'Retry On Fail' is on, and /kit/create changes data: n8n would resend it after a time-out even if it was applied.",
		);
		expect(result.error.description).toContain("Turn off Retry On Fail in the node's Settings");
		expect(await ctx.sandbox.calls(KIT)).toEqual([]);
		expect(await ctx.sandbox.kits()).toEqual([]);
	});

	test('on the read-only lookup: allowed, and n8n retries a dropped call', async () => {
		await ctx.sandbox.fault({ route: BULK, count: 3, drop: 'before' });
		const result = await ctx.run(lookup, { settings: retrying });
		expect(result.error).toBeUndefined();
		const storeId = answers.bulkOrderFields === 'noStoreId' ? undefined : '1001';
		expect(result.items.map((item) => [item.json.store_id, item.json.order_number])).toEqual([
			[storeId, '1000'],
		]);
	});
});

test('429 then success: one retry after the Retry-After wait, and one kit', async () => {
	await ctx.sandbox.fault({ route: KIT, count: 1, status: 429, retryAfter: 1 });
	const result = await ctx.run(kit());
	expect(result.error).toBeUndefined();
	expect(result.items[0].json.success).toBe(true);
	const calls = await ctx.sandbox.calls(KIT);
	expect(calls.map((call) => call.status)).toEqual([429, 200]);
	// Behaviour, not speed: the retry must not come before the wait the service asked for (one
	// second).
	expect(Date.parse(calls[1].time) - Date.parse(calls[0].time)).toBeGreaterThanOrEqual(
		firstRetryWaitAtLeastMs(1),
	);
	expect(await ctx.sandbox.kits()).toHaveLength(1);
});

test('429 that does not end: a bounded number of retries, then the error', async () => {
	await ctx.sandbox.fault({ route: KIT, count: 10, status: 429, retryAfter: 0 });
	const result = await ctx.run(kit());
	expect(result.error.httpCode).toBe('429');
	expect(await ctx.sandbox.calls(KIT)).toHaveLength(4);
	expect(await ctx.sandbox.kits()).toHaveLength(0);
});

test('a lookup retries a 429 more often (its run shares one wait budget), still a bounded number of times', async () => {
	await ctx.sandbox.fault({ route: BULK, count: 20, status: 429, retryAfter: 0 });
	const absent = answers.retryAfter === 'absent';
	// Without Retry-After the node backs off 0.5, 1, 2, 4 s...: a 5 s wait budget stops that after
	// three retries.
	const result = await ctx.run(absent ? { ...lookup, options: { rateLimitWait: 5 } } : lookup);
	expect(result.error.httpCode).toBe('429');
	const calls = await ctx.sandbox.calls(BULK);
	if (absent) {
		expect(calls).toHaveLength(4);
	} else {
		expect(calls).toHaveLength(11);
	}
});

describe('going on after errors: every item comes out paired with its input item', () => {
	const items = [{ sku: 'KIT-A' }, { sku: '' }, { sku: 'KIT-A' }, { sku: 'KIT-B' }];
	const parameters = { ...kit('={{ $json.sku }}') };

	const expectErrorsInPlace = (output) => {
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output[0].json).toMatchObject({ success: true });
		expect(output[1].json.error).toBe("Item 1: 'sku' is required and must not be empty");
		const seen = refusalSeen(409);
		expect(output[2].json.details).toMatchObject({
			httpCode: seen.httpCode,
			outcome: 'refused',
			changeApplied: 'no',
		});
		if (seen.code) expect(output[2].json.details.code).toBe(sandboxCode('DUPLICATE_SKU'));
		if (seen.serviceMessage)
			expect(output[2].json.error).toMatch(/The service said: SKU "KIT-A" is already used/);
		expect(output[3].json).toMatchObject({ success: true });
	};

	test('continueOnFail (the old "Continue On Fail" setting)', async () => {
		const result = await ctx.run(parameters, { items, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expectErrorsInPlace(result.items);
	});

	test('onError: continueRegularOutput', async () => {
		const result = await ctx.run(parameters, { items, onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expectErrorsInPlace(result.items);
	});

	test('onError: continueErrorOutput sends the failed items to the error output', async () => {
		const result = await ctx.run(parameters, { items, onError: 'continueErrorOutput' });
		expect(result.error).toBeUndefined();
		expect(result.outputs[0].map((item) => item.pairedItem.item)).toEqual([0, 3]);
		expect(result.outputs[1].map((item) => item.pairedItem.item)).toEqual([1, 2]);
		// Error items carry the error itself, which n8n 1.x needs to route them (its json check does
		// not know `details`); n8n then keeps only the message in the json, on both lines.
		expect(result.outputs[1].map((item) => item.json)).toEqual([
			{ error: "Item 1: 'sku' is required and must not be empty" },
			{ error: expect.stringContaining('KIT-A') },
		]);
		expect(result.outputs[1].map((item) => item.error?.message)).toEqual(
			result.outputs[1].map((item) => item.json.error),
		);
		expect(result.outputs[0].map((item) => item.error)).toEqual([undefined, undefined]);
	});

	test('stopWorkflow (the default): the first failure stops the node, naming the item', async () => {
		const result = await ctx.run(parameters, { items });
		expect(result.items).toEqual([]);
		expect(result.error.message).toBe("Item 1: 'sku' is required and must not be empty");
		expect(result.error.context.itemIndex).toBe(1);
	});
});

test('two lookup calls in flight both fail: the run stops on the failure that came first, naming its item', async () => {
	// The first call is held back and fails later; the second fails at once. Items are output in
	// order, so an error taken from the output (item 0's) instead of the one that stopped the run
	// would name the wrong failure.
	await ctx.sandbox.fault({ route: BULK, count: 1, status: 404, delayMs: 400 });
	await ctx.sandbox.fault({ route: BULK, count: 1, status: 403 });
	const result = await ctx.run(
		{
			...lookup,
			storeId: '={{ $json.store }}',
			orderNumber: '={{ $json.number }}',
			options: { batchSize: 1, callsInFlight: 2 },
		},
		{
			items: [
				{ store: '1001', number: 'first' },
				{ store: '1001', number: 'second' },
			],
		},
	);
	const calls = await ctx.sandbox.calls(BULK);
	expect(calls.map((call) => call.status).sort()).toEqual([403, 404]);
	const fastFailure = calls.find((call) => call.status === 403);
	expect(result.error.httpCode).toBe('403');
	expect(result.error.context.itemIndex).toBe(
		fastFailure.body.order[0].order_number === 'first' ? 0 : 1,
	);
});
