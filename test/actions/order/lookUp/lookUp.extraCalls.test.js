// Order -> Get Many at the edges of "Batches the service refuses" (README): the cap of 200 extra
// calls per run, shared by halving refused batches and by asking apart the references of orders
// without store_id, and the batch size the run learns only when both halves of a refused batch went
// through. Over HTTP to the sandbox, one call at a time where the order of calls decides which
// batch meets the cap.
const { useInventoryOps, jsonOf } = require('../../../helpers/inventoryOps');

const ROUTE = '/api/order/get_single_bulk';
const BY_LIST = {
	resource: 'order',
	operation: 'lookUp',
	lookUpBy: 'list',
	references: '={{ [$json] }}',
};
const NO_STORE_ID_MESSAGE =
	"The service answered /order/get_single_bulk with orders without a store_id for an order_number asked in several stores, and this run's 200 extra calls to ask them apart are used up, so the node cannot tell whose order it is.";

// The switches each test counts calls under (the profile's others do not change them); a reference
// whose order_number is not all digits makes its whole batch 400 (a malformed reference).
const COUNTED = {
	bulkMaxLength: 500,
	bulkTooLongStatus: 400,
	bulkOrderFields: 'all',
	bulkOrder: 'request',
	bulkUnmatched: 'omit',
	bulkReferencePattern: '^[0-9]+$',
	errorBodies: 'spec',
	retryAfter: 'seconds',
	latencyMs: 0,
	latencyPerKbMs: 0,
};

const ctx = useInventoryOps({ orders: 400 });
let known; // seeded orders: order i is store 1001 + i % 4, number 1000 + floor(i / 4)
let idOf; // 'store_id/order_number' -> the order's _id

beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 400 });
	known = orders.map(({ store_id, order_number }) => ({ store_id, order_number }));
	idOf = new Map(orders.map((order) => [`${order.store_id}/${order.order_number}`, order._id]));
});

const malformed = (n) => ({ store_id: '1001', order_number: `A-${n}` });
const keyOf = (reference) => `${reference.store_id}/${reference.order_number}`;
const hintsOf = (result) =>
	result.run.data.resultData.runData[Object.keys(result.run.data.resultData.runData).at(-1)][0]
		.hints ?? [];
// The service's message for a batch with a malformed reference names the reference's place in the
// call's body; the error quotes it after the node's conclusion.
const MALFORMED =
	/^The service refused \/order\/get_single_bulk as invalid \(400\)\. The service said: body\.order\[\d+\]\.order_number is not a valid order number\.$/;
const REFUSED = 'refused: malformed reference';

/**
 * Each output item, by its input item: REFUSED (the service's 400), another error, or the _id of
 * its order.
 */
function outcomes(result) {
	return jsonOf(result.items).map((json) => {
		if (json.error !== undefined)
			return MALFORMED.test(json.error) && json.details?.httpCode === '400' ? REFUSED : json.error;
		return json._id === undefined ? JSON.stringify(json) : `order ${json._id}`;
	});
}

test('after 200 extra calls a refused batch is no longer halved: its items fail with the service message', async () => {
	await ctx.sandbox.config(COUNTED);
	// 102 batches of [an order, a malformed reference]: each is refused, and halving it costs 2 extra
	// calls, so the first 100 are halved (200 extra calls) and the last 2 fail whole, their orders
	// included.
	const input = known.slice(0, 102).flatMap((reference, n) => [reference, malformed(n)]);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 2, callsInFlight: 1 } },
		{ items: input, continueOnFail: true },
	);
	expect(result.error).toBeUndefined();
	const expected = input.map((reference, index) =>
		index % 2 === 1 || index >= 200 ? REFUSED : `order ${idOf.get(keyOf(reference))}`,
	);
	expect(outcomes(result)).toEqual(expected);
	expect(jsonOf(result.items)[200].details).toMatchObject({ httpCode: '400' });

	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls).toHaveLength(100 * 3 + 2);
	// The last two batches were sent once each, whole, and never again.
	expect(calls.slice(-2).map((call) => call.body.order)).toEqual([
		input.slice(200, 202),
		input.slice(202, 204),
	]);
});

test('orders without store_id: asking apart may use the last of the 200 extra calls, and then halving stops', async () => {
	await ctx.sandbox.config({ ...COUNTED, bulkOrderFields: 'noStoreId' });
	// 99 batches of two malformed references (198 extra calls), then order number 1000 in stores 1001
	// and 1002 (asked apart: the last 2 extra calls), then an order with a malformed reference
	// (refused, not halved).
	const input = [
		...Array.from({ length: 198 }, (_, n) => malformed(n)),
		known[0],
		known[1],
		known[4],
		malformed(198),
	];
	expect([known[0], known[1], known[4]].map(keyOf)).toEqual([
		'1001/1000',
		'1002/1000',
		'1001/1001',
	]);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 2, callsInFlight: 1 } },
		{ items: input, continueOnFail: true },
	);
	expect(result.error).toBeUndefined();
	const output = outcomes(result);
	expect(output.slice(0, 198).every((outcome) => outcome === REFUSED)).toBe(true);
	expect(output.slice(198)).toEqual([
		`order ${idOf.get('1001/1000')}`,
		`order ${idOf.get('1002/1000')}`,
		REFUSED,
		REFUSED,
	]);
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls.slice(-4).map((call) => call.body.order)).toEqual([
		[known[0], known[1]],
		[known[0]],
		[known[1]],
		[known[4], malformed(198)],
	]);
	expect(calls).toHaveLength(99 * 3 + 4);
});

test('orders without store_id past the 200 extra calls: the references of a shared number fail saying why, the others keep their order', async () => {
	await ctx.sandbox.config({ ...COUNTED, bulkOrderFields: 'noStoreId' });
	// 50 batches of three malformed references: 4 extra calls each (3 -> 2 + 1, 2 -> 1 + 1), 200 in
	// all. Then one batch asks for number 1000 in two stores and 1001 in one: the order of 1001 is
	// placed, the two of 1000 cannot be, and no extra call is left to ask them apart.
	const input = [
		...Array.from({ length: 150 }, (_, n) => malformed(n)),
		known[0],
		known[1],
		known[4],
	];
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 3, callsInFlight: 1 } },
		{ items: input, continueOnFail: true },
	);
	expect(result.error).toBeUndefined();
	const output = outcomes(result);
	expect(output.slice(0, 150).every((outcome) => outcome === REFUSED)).toBe(true);
	expect(output.slice(150)).toEqual([
		NO_STORE_ID_MESSAGE,
		NO_STORE_ID_MESSAGE,
		`order ${idOf.get('1001/1001')}`,
	]);
	expect(jsonOf(result.items)[150]).toMatchObject({
		error: NO_STORE_ID_MESSAGE,
		details: {
			outcome: 'unreadable',
			endpoint: '/order/get_single_bulk',
			description: 'This call only reads data; nothing was changed.',
		},
	});

	const calls = await ctx.sandbox.calls(ROUTE);
	expect(calls).toHaveLength(50 * 5 + 1);
	expect(calls.at(-1).body.order).toEqual([known[0], known[1], known[4]]);
});

test('orders without store_id: only the references of a shared number are asked again, each apart', async () => {
	await ctx.sandbox.config({ ...COUNTED, bulkOrderFields: 'noStoreId' });
	const input = [known[0], known[1], known[4]];
	const result = await ctx.run({ ...BY_LIST, options: { callsInFlight: 1 } }, { items: input });
	expect(result.error).toBeUndefined();
	expect(outcomes(result)).toEqual(input.map((reference) => `order ${idOf.get(keyOf(reference))}`));
	const lists = (await ctx.sandbox.calls(ROUTE)).map((call) => call.body.order);
	expect(lists).toEqual([input, [known[0]], [known[1]]]);
});

describe('the batch size is learnt only when both halves of a refused batch went through', () => {
	// Batch Size 20 against a limit of 10, orders without store_id: the first half's answer shows
	// that, so the second half (whose numbers repeat across stores) is sent in parts, one per store,
	// with no number twice.
	test('halves sent in parts, every part accepted: the size of the half is used and the run says so', async () => {
		await ctx.sandbox.config({ ...COUNTED, bulkOrderFields: 'noStoreId', bulkMaxLength: 10 });
		const input = known.slice(0, 20);
		const result = await ctx.run(
			{ ...BY_LIST, options: { batchSize: 20, callsInFlight: 1 } },
			{ items: input },
		);
		expect(result.error).toBeUndefined();
		expect(outcomes(result)).toEqual(
			input.map((reference) => `order ${idOf.get(keyOf(reference))}`),
		);
		const calls = await ctx.sandbox.calls(ROUTE);
		// The second half went as parts with no order number twice.
		const secondHalf = calls.filter((call) =>
			call.body.order.every((ref) => input.slice(10).some((asked) => keyOf(asked) === keyOf(ref))),
		);
		expect(secondHalf.length).toBeGreaterThan(1);
		expect(hintsOf(result)).toEqual([
			{
				message:
					'The service refused batches of 20 order references; batches of 10 went through. Set Batch Size (in Options) to 10 to save the refused calls.',
				type: 'warning',
				location: 'outputPane',
			},
		]);
	});

	test('halves sent in parts, one part refused for a malformed reference: no size is learnt or reported', async () => {
		await ctx.sandbox.config({ ...COUNTED, bulkOrderFields: 'noStoreId', bulkMaxLength: 10 });
		const input = [...known.slice(0, 19), malformed(0)];
		const result = await ctx.run(
			{ ...BY_LIST, options: { batchSize: 20, callsInFlight: 1 } },
			{ items: input, continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(outcomes(result)).toEqual([
			...input.slice(0, 19).map((reference) => `order ${idOf.get(keyOf(reference))}`),
			REFUSED,
		]);
		expect(hintsOf(result)).toEqual([]);
	});
});

test('a size learnt by another batch in flight is not raised again by a batch refused earlier', async () => {
	// Two batches of 20 in flight against a limit of 5: the first call to arrive is held back, so the
	// other batch learns 5 (20 and 10 refused, 5 accepted) before the held one is refused; its halves
	// of 10 then go as 5s.
	await ctx.sandbox.config({ ...COUNTED, bulkMaxLength: 5 });
	await ctx.sandbox.fault({ route: ROUTE, count: 1, delayMs: 1500 });
	const input = known.slice(0, 40);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 20, callsInFlight: 2 } },
		{ items: input },
	);
	expect(result.error).toBeUndefined();
	expect(outcomes(result)).toEqual(input.map((reference) => `order ${idOf.get(keyOf(reference))}`));
	const calls = await ctx.sandbox.calls(ROUTE);
	expect(
		calls.filter((call) => call.status === 200).every((call) => call.body.order.length === 5),
	).toBe(true);
	expect(hintsOf(result)).toEqual([
		expect.objectContaining({
			message: expect.stringMatching(
				/^The service refused batches of 20 order references; batches of 5 went through/,
			),
		}),
	]);
});

test('a size learnt while orders come without store_id: the parts keep to it (no number asked twice to split by)', async () => {
	// As above, with answers that lack store_id and references whose numbers all differ: asking apart
	// has nothing to split, so a half longer than the size learnt goes in parts of that size, never
	// whole.
	await ctx.sandbox.config({ ...COUNTED, bulkOrderFields: 'noStoreId', bulkMaxLength: 5 });
	await ctx.sandbox.fault({ route: ROUTE, count: 1, delayMs: 1500 });
	const input = Array.from({ length: 40 }, (_, n) => known[n * 4]);
	const result = await ctx.run(
		{ ...BY_LIST, options: { batchSize: 20, callsInFlight: 2 } },
		{ items: input },
	);
	expect(result.error).toBeUndefined();
	expect(outcomes(result)).toEqual(input.map((reference) => `order ${idOf.get(keyOf(reference))}`));
	const lengths = (await ctx.sandbox.calls(ROUTE)).map((call) => call.body.order.length);
	// The first half of the batch that taught the size is the one call of 10; every later half goes
	// as two of 5.
	expect(lengths.filter((length) => length === 10)).toHaveLength(1);
	expect(lengths.filter((length) => length > 10)).toHaveLength(2);
});
