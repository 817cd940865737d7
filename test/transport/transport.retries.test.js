// What the transport retries and what it reports, through the action node in n8n's engine against
// the sandbox: a read repeated once after a dropped connection (not twice), a 3xx that is no
// success, the rate-limit words only on a 429, Retry-After values in the forms a service may send,
// and the request as it reaches the service. The switches that shape error answers and Retry-After
// are fixed here, so every profile gives the same words.
const vm = require('node:vm');

const { useRecordingProxy } = require('../helpers/recordingProxy');
const { useInventoryOps } = require('../helpers/inventoryOps');

const KIT = '/api/kit/create';
const BULK = '/api/order/get_single_bulk';
const ctx = useInventoryOps({
	orders: 20,
	config: { errorBodies: 'spec', retryAfter: 'seconds', refusals: 'status' },
});

const kit = (sku = 'KIT-RETRY-1') => ({ resource: 'kit', operation: 'create', name: 'Kit', sku });
const lookup = { resource: 'order', operation: 'lookUp', storeId: '1001', orderNumber: '1000' };
const statuses = async (route) => (await ctx.sandbox.calls(route)).map((call) => call.status);

test('a lookup whose connection drops twice is read again once, not more: two calls, then the error', async () => {
	await ctx.sandbox.fault({ route: BULK, count: 2, drop: 'before' });
	const result = await ctx.run(lookup);
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'noAnswer',
		sent: true,
		endpoint: '/order/get_single_bulk',
	});
	// The wording of a lost answer, checked here once.
	expect(result.error.message).toBe(
		'The connection to the service was lost during /order/get_single_bulk before an answer arrived.',
	);
	expect(result.error.description).toBe('No answer came. This call only reads data: run it again.');
	// No status came, so none is given to n8n (its httpCode stays null, not the text "undefined").
	expect(result.error.httpCode).toBeNull();
	// A read changes nothing: its error has no changeApplied at all, nor a handlerGone (only a
	// removal's has).
	expect(
		Object.keys(result.error.errorResponse).filter((key) =>
			['changeApplied', 'handlerGone'].includes(key),
		),
	).toEqual([]);
	expect((await ctx.sandbox.calls(BULK)).map((call) => call.dropped)).toEqual(['before', 'before']);
});

test('the one repeat after a lost connection is per call: a drop after a 429 that followed it is not repeated', async () => {
	await ctx.sandbox.fault({ route: BULK, count: 1, drop: 'before' });
	await ctx.sandbox.fault({ route: BULK, count: 1, status: 429, retryAfter: 0 });
	await ctx.sandbox.fault({ route: BULK, count: 1, drop: 'before' });
	const result = await ctx.run(lookup);
	expect(result.error.errorResponse).toMatchObject({ outcome: 'noAnswer', sent: true });
	expect((await ctx.sandbox.calls(BULK)).map((call) => call.dropped ?? call.status)).toEqual([
		'before',
		429,
		'before',
	]);
});

// The status decides before the body: a `success: false` is a refusal only in a 2xx answer.
test.each([300, 400])(
	'a %i whose body also says success: false is read by its status',
	async (status) => {
		await ctx.sandbox.fault({
			route: KIT,
			count: 1,
			status,
			body: { success: false, error: { message: 'not now', code: 'NOPE' } },
		});
		const result = await ctx.run(kit());
		expect(result.error).toMatchObject({
			httpCode: String(status),
			errorResponse: { statusCode: status, outcome: 'refused', code: 'NOPE' },
		});
		expect(await ctx.sandbox.kits()).toEqual([]);
	},
);

test('a 300 is not a success: the item fails with the status and what the service said, and no kit is made', async () => {
	await ctx.sandbox.fault({
		route: KIT,
		count: 1,
		status: 300,
		body: { error: { message: 'pick one of several', code: 'MULTIPLE' } },
	});
	const result = await ctx.run(kit());
	expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '300' });
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'refused',
		changeApplied: 'no',
		message: 'pick one of several',
		code: 'MULTIPLE',
	});
	expect(await statuses(KIT)).toEqual([300]);
	expect(await ctx.sandbox.kits()).toEqual([]);
});

test('an error other than 429 says nothing about rate-limit waits', async () => {
	await ctx.sandbox.fault({
		route: KIT,
		count: 1,
		status: 500,
		body: { error: { message: 'disk full' } },
	});
	const result = await ctx.run(kit());
	expect(result.error.httpCode).toBe('500');
	expect(result.error.description).not.toMatch(/Rate limited|waited|Retry-After/);
});

test('a 429 that lasts: the description starts with the service overview, trimmed, and ends with the wait', async () => {
	await ctx.sandbox.fault({
		route: KIT,
		count: 10,
		status: 429,
		retryAfter: 0,
		body: { error: { message: 'Too many calls', overview: '   Slow down, please.' } },
	});
	const result = await ctx.run(kit());
	expect(result.error.httpCode).toBe('429');
	expect(result.error.description).toMatch(/^Slow down, please\. /);
	expect(result.error.description).toMatch(
		/ Rate limited \(429\): waited 0 s of the 30 s allowed; the service asked for Retry-After: 0\.$/,
	);
	expect(await statuses(KIT)).toEqual([429, 429, 429, 429]);
});

describe('Retry-After in the forms a service may send', () => {
	test('"1e3" is neither seconds nor a date: the usual short backoff, then the retry succeeds', async () => {
		await ctx.sandbox.fault({ route: KIT, count: 1, status: 429, retryAfter: '1e3' });
		const result = await ctx.run(kit());
		expect(result.error).toBeUndefined();
		expect(await statuses(KIT)).toEqual([429, 200]);
	});

	test('"0.25": a quarter of a second per retry, so three retries wait under a second in all', async () => {
		const retryAfter = '0.25';
		await ctx.sandbox.fault({ route: KIT, count: 10, status: 429, retryAfter });
		const result = await ctx.run(kit());
		expect(result.error.httpCode).toBe('429');
		expect(result.error.description).toContain(
			`Rate limited (429): waited 0.8 s of the 30 s allowed; the service asked for Retry-After: ${retryAfter}.`,
		);
		expect(await statuses(KIT)).toEqual([429, 429, 429, 429]);
	});
});

test('a run sets no wait longer than a Node timer can hold (Node would print a TimeoutOverflowWarning)', async () => {
	// Node emits its warnings on the process itself; jest gives a test a stand-in `process` that
	// never hears them.
	const nodeProcess = vm.runInThisContext('process');
	const warnings = [];
	const record = (warning) => {
		if (warning.name === 'TimeoutOverflowWarning') warnings.push(warning.message);
	};
	nodeProcess.on('warning', record);
	try {
		await ctx.sandbox.fault({ route: KIT, count: 1, status: 429, retryAfter: 0 });
		const result = await ctx.run(kit());
		expect(result.error).toBeUndefined();
		await new Promise((resolve) => setImmediate(resolve));
	} finally {
		nodeProcess.off('warning', record);
	}
	expect(warnings).toEqual([]);
});

describe('what reaches the service (through a recording proxy in front of the sandbox)', () => {
	const proxy = useRecordingProxy(() => ctx.sandbox);

	test('a call sends JSON, asks for JSON and carries the token as a bearer', async () => {
		const credentials = proxy.credentials(ctx.sandbox.credentials());
		const result = await ctx.run(kit(), { credentials });
		expect(result.error).toBeUndefined();
		expect(
			proxy.seen.map(({ url, headers }) => [
				url,
				headers['content-type'],
				headers.accept,
				headers.authorization,
			]),
		).toEqual([[KIT, 'application/json', 'application/json', `Bearer ${ctx.sandbox.demoToken}`]]);
	});
});
