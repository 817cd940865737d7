// Every item gets exactly one explicit outcome, whatever shape a 200 answer has (issue 23, items 1
// and 2): an answer the node cannot read is an error naming what arrived, never `found: false` or a
// dropped item; a write the service applied always leaves an item, saying what its answer lacks.
// Each answer is given by the sandbox's `fault` with a 200 body, over real HTTP through n8n's
// engine.
const { useInventoryOps, jsonOf } = require('../helpers/inventoryOps');

const BULK = '/api/order/get_single_bulk';
const KIT = '/api/kit/create';
const RESTORE = '/s/ship/shipping/restore_inventory';
const REMOVE = '/api/webhook/remove_handler';
const ctx = useInventoryOps({ orders: 20 });

const answer = (route, body) => ctx.sandbox.fault({ route, count: 1, status: 200, body });

describe('Order -> Get Many', () => {
	const lookUp = (references, extra = {}) =>
		ctx.run(
			{
				resource: 'order',
				operation: 'lookUp',
				lookUpBy: 'list',
				references: JSON.stringify(references),
				...extra,
			},
			{ continueOnFail: true },
		);

	test('an entry whose order is not an object fails the references left without an order, naming what arrived', async () => {
		const [first, second] = await ctx.sandbox.orders({ limit: 2 });
		const wanted = [first, second].map(({ store_id, order_number }) => ({
			store_id,
			order_number,
		}));
		await answer(BULK, [{ order: first }, { order: 'ORDER-TEXT' }]);
		const result = await lookUp(wanted);
		const [item] = jsonOf(result.items);
		// Never `found: false` for the second pair: the text entry may well be its order.
		expect(item.error).toBe(
			'The service answered /order/get_single_bulk with 1 entry the node cannot read (entry 1 has as its order text "ORDER-TEXT"), so it cannot tell which references were not found.',
		);
		expect(result.items.some((output) => output.json.found === false)).toBe(false);
	});

	test('an entry that is not an object, and an order without order_number, are named too', async () => {
		const [order] = await ctx.sandbox.orders({ limit: 1 });
		await answer(BULK, [42, { order: { store_id: order.store_id } }]);
		const result = await lookUp([{ store_id: order.store_id, order_number: order.order_number }]);
		expect(jsonOf(result.items)[0].error).toMatch(
			/with 2 entries the node cannot read \(entry 0 is number 42; entry 1 has an order without an order_number\)/,
		);
	});

	test('an unreadable entry fails only the references left without an order; the ones answered keep theirs', async () => {
		const [first, second] = await ctx.sandbox.orders({ limit: 2 });
		const items = [first, second].map(({ store_id, order_number }) => ({ store_id, order_number }));
		await answer(BULK, [{ order: first }, 42]);
		const result = await ctx.run(
			{ resource: 'order', operation: 'lookUp', lookUpBy: 'list', references: '={{ [$json] }}' },
			{ items, continueOnFail: true },
		);
		const [answered, unanswered] = jsonOf(result.items);
		expect(answered._id).toBe(first._id);
		expect(unanswered.error).toMatch(/with 1 entry the node cannot read \(entry 1 is number 42\)/);
	});

	test("without Continue On Fail, the run stops naming the item whose reference got no order, not the batch's first", async () => {
		const [first, second] = await ctx.sandbox.orders({ limit: 2 });
		const items = [first, second].map(({ store_id, order_number }) => ({ store_id, order_number }));
		await answer(BULK, [{ order: first }, 42]);
		const result = await ctx.run(
			{ resource: 'order', operation: 'lookUp', lookUpBy: 'list', references: '={{ [$json] }}' },
			{ items },
		);
		expect(result.error.message).toMatch(
			/with 1 entry the node cannot read \(entry 1 is number 42\)/,
		);
		// Item 0 was answered; item 1 is the one without an order (n8n shows "item 1" in the editor).
		expect(result.error.context.itemIndex).toBe(1);
	});

	// The answer's shape is checked after success: false is read: a bare one is the service refusing
	// the lookup (as from every operation but remove_handler), not an object where a list was
	// expected.
	test('a bare success: false is the service refusing the lookup, named as such, and every item fails with it', async () => {
		const orders = await ctx.sandbox.orders({ limit: 2 });
		await answer(BULK, { success: false });
		const result = await lookUp(
			orders.map(({ store_id, order_number }) => ({ store_id, order_number })),
		);
		const errors = jsonOf(result.items).map((item) => item.error);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(/refused \/order\/get_single_bulk/);
		expect(errors[0]).not.toMatch(/was expected/);
	});

	test('Output: Whole Result Entry keeps an entry that has a field named json as the item, whole', async () => {
		const [order] = await ctx.sandbox.orders({ limit: 1 });
		await answer(BULK, [{ order, json: { note: 'kept' } }]);
		const result = await lookUp([{ store_id: order.store_id, order_number: order.order_number }], {
			simplify: false,
			options: { output: 'entry' },
		});
		const [item] = jsonOf(result.items);
		expect(item.order._id).toBe(order._id);
		expect(item.json).toEqual({ note: 'kept' });
	});

	test('an item with one reference not found and a later one without an answer fails with the missing answer', async () => {
		// "Not found" would be a claim about the second reference too; its call's answer could not be
		// read.
		const [order] = await ctx.sandbox.orders({ limit: 1 });
		const answered = { store_id: order.store_id, order_number: order.order_number };
		const missing = { store_id: order.store_id, order_number: 'NO-SUCH-ORDER' };
		await answer(BULK, [42]);
		const result = await ctx.run(
			{
				resource: 'order',
				operation: 'lookUp',
				lookUpBy: 'list',
				references: '={{ $json.refs }}',
				options: { batchSize: 1, callsInFlight: 1, unmatched: 'error' },
			},
			{ items: [{ refs: [answered] }, { refs: [missing, answered] }], continueOnFail: true },
		);
		const [, second] = jsonOf(result.items);
		expect(second.error).toMatch(/with 1 entry the node cannot read \(entry 0 is number 42\)/);
	});

	describe('orders without store_id', () => {
		const withoutStoreId = ({ store_id: _storeId, ...order }) => order;
		const referenceOf = ({ store_id, order_number }) => ({ store_id, order_number });
		const byList = {
			resource: 'order',
			operation: 'lookUp',
			lookUpBy: 'list',
			references: '={{ [$json] }}',
		};

		test('one order back for a number asked in two stores: both asked again apart, never given to the first', async () => {
			const orders = await ctx.sandbox.orders({ limit: 20 });
			const [a, b] = orders.filter((order) => order.order_number === orders[0].order_number);
			expect(b).toBeDefined();
			await ctx.sandbox.config({ bulkOrderFields: 'noStoreId' });
			await answer(BULK, [{ order: withoutStoreId(b) }]);
			const result = await ctx.run(byList, {
				items: [referenceOf(a), referenceOf(b)],
				continueOnFail: true,
			});
			expect(jsonOf(result.items).map((item) => item._id)).toEqual([a._id, b._id]);
		});

		test('a copy of an order whose number only one reference has: the first copy kept, nothing asked again', async () => {
			const [order] = await ctx.sandbox.orders({ limit: 1 });
			await ctx.sandbox.config({ bulkOrderFields: 'noStoreId' });
			await answer(BULK, [
				{ order: withoutStoreId(order) },
				{ order: { ...withoutStoreId(order), _id: 'second-copy' } },
			]);
			const result = await ctx.run(byList, { items: [referenceOf(order)], continueOnFail: true });
			expect(jsonOf(result.items).map((item) => item._id)).toEqual([order._id]);
			expect(await ctx.sandbox.calls(BULK)).toHaveLength(1);
		});
	});

	test('unreadable entries: the first three are named, more are marked with an ellipsis', async () => {
		const [order] = await ctx.sandbox.orders({ limit: 1 });
		const wanted = [{ store_id: order.store_id, order_number: order.order_number }];
		await answer(BULK, [1, 2, 3]);
		expect(jsonOf((await lookUp(wanted)).items)[0].error).toMatch(
			/with 3 entries the node cannot read \(entry 0 is number 1; entry 1 is number 2; entry 2 is number 3\), so/,
		);
		await answer(BULK, [1, 2, 3, 4]);
		expect(jsonOf((await lookUp(wanted)).items)[0].error).toMatch(
			/with 4 entries the node cannot read \(entry 0 is number 1; entry 1 is number 2; entry 2 is number 3; …\), so/,
		);
	});

	test('an order returned twice: the first copy is kept; an order no reference of the batch asked for: given to no one', async () => {
		const [first] = await ctx.sandbox.orders({ limit: 1 });
		const missing = { store_id: first.store_id, order_number: 'NO-SUCH-ORDER' };
		// The first call (first's batch) also returns a copy of first and an order for the reference of
		// the next batch, which the service then says it does not have.
		await answer(BULK, [
			{ order: first },
			{ order: { ...first, _id: 'second-copy' } },
			{ order: { ...first, ...missing, _id: 'stray' } },
		]);
		const result = await lookUp(
			[{ store_id: first.store_id, order_number: first.order_number }, missing],
			{
				options: { batchSize: 1, callsInFlight: 1 },
			},
		);
		const [kept, notFound] = jsonOf(result.items);
		expect(kept._id).toBe(first._id);
		expect(notFound).toEqual({ found: false, ...missing });
	});

	test('an entry without an order (or with an empty one) still says "not found", as documented', async () => {
		const [order] = await ctx.sandbox.orders({ limit: 1 });
		await answer(BULK, [{ order: {} }]);
		const result = await lookUp([{ store_id: order.store_id, order_number: 'NO-SUCH' }]);
		expect(jsonOf(result.items)).toEqual([
			{ found: false, store_id: order.store_id, order_number: 'NO-SUCH' },
		]);
	});

	test('an answer that is not a list fails the items of the batch, naming what arrived', async () => {
		const [order] = await ctx.sandbox.orders({ limit: 1 });
		await answer(BULK, { orders: [order] });
		const result = await lookUp([{ store_id: order.store_id, order_number: order.order_number }]);
		expect(jsonOf(result.items)[0].error).toBe(
			'The service answered /order/get_single_bulk with an object with orders where a list was expected.',
		);
	});

	test('a refusal with a reason (success: false) is a failed item with the service message', async () => {
		const [order] = await ctx.sandbox.orders({ limit: 1 });
		await answer(BULK, { success: false, message: 'Store is archived' });
		const result = await lookUp([{ store_id: order.store_id, order_number: order.order_number }]);
		expect(jsonOf(result.items)[0].error).toBe(
			'The service refused /order/get_single_bulk with success: false. The service said: Store is archived.',
		);
	});

	describe('entries that are the order records themselves (no { order } wrapper)', () => {
		const pairOf = ({ store_id, order_number }) => ({ store_id, order_number });
		const modes = [
			['Order Only', { simplify: false, options: { output: 'order' } }],
			['Whole Result Entry', { simplify: false, options: { output: 'entry' } }],
			['Simplify', { simplify: true }],
		];

		test.each(modes)(
			'the sandbox answering bare (bulkEntries): %s gives the same items as wrapped',
			async (_, extra) => {
				const orders = await ctx.sandbox.orders({ limit: 20 });
				const wanted = [orders[0], orders[5]]
					.map(pairOf)
					.concat([{ store_id: orders[0].store_id, order_number: 'NO-SUCH' }]);
				await ctx.sandbox.config({ bulkEntries: 'wrapped' });
				const wrapped = jsonOf((await lookUp(wanted, extra)).items);
				await ctx.sandbox.config({ bulkEntries: 'bare' });
				const bare = jsonOf((await lookUp(wanted, extra)).items);
				expect(bare).toEqual(
					extra.options?.output === 'entry'
						? wrapped.map(({ metrics: _metrics, ...rest }) => rest)
						: wrapped,
				);
				// The bare records' metrics (the sandbox sends none) are all that differs; both found the
				// two orders.
				expect(bare.map((item) => item.found)).toEqual([undefined, undefined, false]);
			},
		);

		test('a barcode failure at the top of a bare record is output where a wrapped entry puts it', async () => {
			const [order] = await ctx.sandbox.orders({ limit: 1 });
			const failure = { message: 'Barcode service down', code: 'B1' };
			await answer(BULK, [{ ...order, barcode_generation_failed: failure }]);
			const [entryItem] = jsonOf(
				(await lookUp([pairOf(order)], { simplify: false, options: { output: 'entry' } })).items,
			);
			expect(entryItem).toEqual({ order, barcode_generation_failed: failure });
			await answer(BULK, [{ ...order, barcode_generation_failed: failure }]);
			const [orderItem] = jsonOf((await lookUp([pairOf(order)], { simplify: false })).items);
			expect(orderItem).toEqual({ ...order, barcode_generation_failed: failure });
		});

		test.each([
			['metrics alone', { metrics: { matched: true, score: 1 } }],
			[
				'a barcode failure alone',
				{ barcode_generation_failed: { message: 'Barcode service down' } },
			],
			[
				'both',
				{
					metrics: { matched: true },
					barcode_generation_failed: { message: 'Barcode service down' },
				},
			],
		])(
			'a bare record with %s: the whole entry gives them beside the order, and no other field',
			async (_, beside) => {
				const [order] = await ctx.sandbox.orders({ limit: 1 });
				await answer(BULK, [{ ...order, ...beside }]);
				const [entryItem] = jsonOf(
					(await lookUp([pairOf(order)], { simplify: false, options: { output: 'entry' } })).items,
				);
				// Field names, not toEqual, which would take a field holding undefined for one that is
				// absent.
				expect(Object.keys(entryItem).sort()).toEqual(['order', ...Object.keys(beside)].sort());
				expect(entryItem).toEqual({ order, ...beside });
			},
		);

		test('a mixed answer: each entry read on its own, wrapped or bare, and an unmatched pair still not found', async () => {
			const [first, second] = await ctx.sandbox.orders({ limit: 2 });
			const missing = { store_id: first.store_id, order_number: 'NO-SUCH' };
			await answer(BULK, [
				{ order: first, metrics: {} },
				second,
				{ ...missing, metrics: { matched: false } },
			]);
			const items = jsonOf(
				(await lookUp([pairOf(first), pairOf(second), missing], { simplify: false })).items,
			);
			expect(items.map((item) => item._id ?? item.found)).toEqual([first._id, second._id, false]);
		});

		test('bare records without store_id are placed by their order number', async () => {
			const [order] = await ctx.sandbox.orders({ limit: 1 });
			const { store_id: _storeId, ...withoutStoreId } = order;
			await answer(BULK, [withoutStoreId]);
			const [item] = jsonOf((await lookUp([pairOf(order)], { simplify: false })).items);
			expect(item).toEqual(withoutStoreId);
		});

		test('a bare record without an order_number is named, and its batch is not called not found', async () => {
			const [order] = await ctx.sandbox.orders({ limit: 1 });
			const { order_number: _number, ...withoutNumber } = order;
			await answer(BULK, [withoutNumber]);
			const [item] = jsonOf(
				(await lookUp([pairOf(order)], { options: { unmatched: 'foundFalse' } })).items,
			);
			expect(item.error).toMatch(
				/with 1 entry the node cannot read \(entry 0 is an order without an order_number\)/,
			);
		});

		test.each([
			['order: null', (pair) => ({ order: null, ...pair })],
			['an empty object', () => ({})],
			['the pair alone, with metrics', (pair) => ({ ...pair, metrics: { matched: false } })],
		])('an entry of %s is "not found", as the option says', async (_, entryOf) => {
			const [order] = await ctx.sandbox.orders({ limit: 1 });
			const missing = { store_id: order.store_id, order_number: 'NO-SUCH' };
			await answer(BULK, [entryOf(missing)]);
			expect(jsonOf((await lookUp([missing])).items)).toEqual([{ found: false, ...missing }]);
			await answer(BULK, [entryOf(missing)]);
			const failed = await lookUp([missing], { options: { unmatched: 'error' } });
			expect(jsonOf(failed.items)[0].error).toMatch(
				/no order found for store_id '\d+' and order_number 'NO-SUCH'/,
			);
		});
	});
});

describe('Shipment -> Restore Inventory: the restore was applied, so there is always an item', () => {
	const restore = (options = {}) =>
		ctx.run(
			{
				resource: 'shipment',
				operation: 'restoreInventory',
				storeId: 'S1',
				orderNumber: 'O1',
				shipmentId: 'ship-2',
				options,
			},
			{ continueOnFail: true },
		);
	const record = (id, tracking, quantity) => ({
		_id: id,
		response: { tracking_number: tracking, shipment_id: `carrier-${id}` },
		request: { order_items: [{ sku: 'SKU-1', item_id: 'item-1', quantity, location_id: 'loc-1' }] },
		deducted: false,
	});

	test('an answer with a field named json is output whole, not unwrapped to that field', async () => {
		// n8n's returnJsonArray takes any object with a truthy `json` for an item and keeps only that
		// field.
		await answer(RESTORE, {
			_id: 'order-1',
			json: { note: 'kept' },
			shipments: [record('ship-2', 'T2', 3)],
		});
		const [item] = jsonOf((await restore()).items);
		expect(item).toMatchObject({ restored: true, _id: 'order-1', json: { note: 'kept' } });
	});

	test('the output says restored, which shipment and the quantities put back', async () => {
		await answer(RESTORE, {
			_id: 'order-1',
			shipments: [record('ship-1', 'T1', 1), record('ship-2', 'T2', 3)],
		});
		const [item] = jsonOf((await restore()).items);
		expect(item).toEqual({
			restored: true,
			_id: 'order-1',
			shipments: [record('ship-1', 'T1', 1), record('ship-2', 'T2', 3)],
			restoredShipment: record('ship-2', 'T2', 3),
			restoredItems: [{ sku: 'SKU-1', item_id: 'item-1', quantity: 3, location_id: 'loc-1' }],
		});
	});

	test('split: one item per record, restored true on the restored one only', async () => {
		await answer(RESTORE, {
			_id: 'order-1',
			shipments: [record('ship-1', 'T1', 1), record('ship-2', 'T2', 3)],
		});
		const result = await restore({ splitShipments: true });
		expect(jsonOf(result.items).map((item) => [item._id, item.restored])).toEqual([
			['ship-1', false],
			['ship-2', true],
		]);
	});

	test('split, and the answer has no shipments: one item that stands for the restore, saying what is missing', async () => {
		await answer(RESTORE, { _id: 'order-1' });
		const result = await restore({ splitShipments: true });
		expect(jsonOf(result.items)).toEqual([
			{
				restored: true,
				_id: 'order-1',
				missingFromAnswer: ['shipments (got nothing)'],
				notice: expect.stringMatching(
					/^The service restored the inventory, but its answer lacks: shipments/,
				),
			},
		]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('split, and an empty shipments list: one item saying there was nothing to split into', async () => {
		await answer(RESTORE, { _id: 'order-1', shipments: [] });
		const result = await restore({ splitShipments: true });
		expect(jsonOf(result.items)).toEqual([
			expect.objectContaining({
				restored: true,
				notice: expect.stringMatching(/no shipment records to split into/),
			}),
		]);
	});

	test('split, an empty shipments list: the notice names everything else the answer lacks', async () => {
		await answer(RESTORE, { _id: 'order-1', shipments: [] });
		const [item] = jsonOf((await restore({ splitShipments: true })).items);
		expect(item.notice).toBe(
			'The service restored the inventory, but its answer lacks: the restored shipment (got no record matching the shipment asked for). It holds no shipment records to split into: this item stands for the restore. Do not run this item again.',
		);
		await answer(RESTORE, { shipments: [] });
		const [lacking] = jsonOf((await restore({ splitShipments: true })).items);
		expect(lacking.missingFromAnswer).toEqual([
			'_id (got nothing)',
			'the restored shipment (got no record matching the shipment asked for)',
		]);
	});

	test('the restored record without request.order_items: no restoredItems, and the output says they are missing', async () => {
		const bare = { ...record('ship-2', 'T2', 3), request: {} };
		await answer(RESTORE, { _id: 'order-1', shipments: [record('ship-1', 'T1', 1), bare] });
		const [item] = jsonOf((await restore()).items);
		expect(item.restoredShipment).toEqual(bare);
		expect(item.restoredItems).toBeUndefined();
		expect(item.missingFromAnswer).toEqual(["the restored shipment's request.order_items"]);
	});

	test('_id alone, or shipments without the one restored: the output lists what the answer lacks', async () => {
		await answer(RESTORE, { shipments: [record('ship-1', 'T1', 1)] });
		const [item] = jsonOf((await restore()).items);
		expect(item.missingFromAnswer).toEqual([
			'_id (got nothing)',
			'the restored shipment (got no record matching the shipment asked for)',
		]);
		expect(item.restored).toBe(true);
	});

	test('an answer that is not an object is an error naming it, and says the restore was probably applied', async () => {
		await answer(RESTORE, 'OK');
		const result = await restore();
		expect(jsonOf(result.items)[0]).toEqual({
			error:
				'The service answered /ship/shipping/restore_inventory with text "OK" where an object was expected. The success status says the change was probably applied, so it was not sent again: check the service before trying again.',
			// The details name the call and what arrived, beside the doubt (a write has no advice of its
			// own here).
			details: expect.objectContaining({
				description:
					'The success status says the change was probably applied, so it was not sent again: check the service before trying again.',
				endpoint: '/ship/shipping/restore_inventory',
				unexpectedAnswer: 'text "OK" where an object was expected',
				outcome: 'unreadable',
				changeApplied: 'probably',
			}),
		});
		expect(await ctx.sandbox.calls(RESTORE)).toHaveLength(1);
	});
});

describe('Kit -> Create: the kit was made, so the item stays, saying which id is missing', () => {
	test.each([
		[{ success: true, _id: 'k-1' }, ['new_kit_id']],
		[{ success: true, new_kit_id: 'nk-1' }, ['_id']],
		[{ success: true }, ['_id', 'new_kit_id']],
	])('answer %j', async (body, missing) => {
		await answer(KIT, body);
		const result = await ctx.run({
			resource: 'kit',
			operation: 'create',
			name: 'Kit',
			sku: 'KIT-SHAPES',
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			{
				...body,
				missingFromAnswer: missing,
				notice: `The service created the kit, but its answer lacks: ${missing.join('; ')}. Find it by its SKU (KIT-SHAPES). Do not run this item again.`,
			},
		]);
	});

	test('the documented answer has no notice', async () => {
		const result = await ctx.run({
			resource: 'kit',
			operation: 'create',
			name: 'Kit',
			sku: 'KIT-SHAPES-OK',
		});
		expect(Object.keys(result.items[0].json).sort()).toEqual(['_id', 'new_kit_id', 'success']);
	});
});

describe('Webhook Handler -> Add', () => {
	const add = () =>
		ctx.run(
			{
				resource: 'webhookHandler',
				operation: 'add',
				eventType: 'order.shipped',
				name: 'N',
				url: 'https://example.com/h',
				method: 'POST',
				headers: {},
			},
			{ continueOnFail: true },
		);

	test('an answer that is not an object is an error naming it, never an item spread from text', async () => {
		await answer('/api/webhook/add_handler', 'created');
		expect(jsonOf((await add()).items)[0].error).toBe(
			'The service answered /webhook/add_handler with text "created" where an object was expected. The success status says the change was probably applied, so it was not sent again: check the service before trying again.',
		);
	});

	test('text of 80 characters is named whole, without the mark of a cut', async () => {
		const text = `${'queued '.repeat(11)}ok!`;
		await answer('/api/webhook/add_handler', text);
		expect(jsonOf((await add()).items)[0].error).toBe(
			`The service answered /webhook/add_handler with text "${text}" where an object was expected. The success status says the change was probably applied, so it was not sent again: check the service before trying again.`,
		);
	});

	test('the id one level down is found in a later place when an earlier one holds an object without it', async () => {
		await answer('/api/webhook/add_handler', {
			success: true,
			handler: { name: 'N' },
			data: { _id: 'h-in-data' },
		});
		expect(jsonOf((await add()).items)[0]).toMatchObject({ _id: 'h-in-data', idReturned: true });
	});
});

describe('Webhook Handler -> Remove: one reading with the trigger (transport/answers.ts)', () => {
	const remove = () =>
		ctx.run(
			{ resource: 'webhookHandler', operation: 'remove', handlerId: 'h-1' },
			{ continueOnFail: true },
		);

	// Not proof that the handler is gone (issues 51, 58): the service may not know it, or may have
	// refused.
	test('a bare success: false is a failed item: the service refused, and nothing says the handler is gone', async () => {
		await answer(REMOVE, { success: false });
		const [item] = jsonOf((await remove()).items);
		expect(item.error).toBe(
			'The service refused /webhook/remove_handler with success: false. Nothing shows that the service does not know the handler: the answer held nothing to tell it apart. The handler may still exist: check it in Inventory Ops.',
		);
		expect(item.details).toMatchObject({ handlerGone: false });
		expect(item.details).toMatchObject({ httpCode: '200' });
		expect(item).not.toHaveProperty('removed');
	});

	// Whatever the reason says (here words of an unknown handler): words never prove it gone.
	test.each(['Handler is locked', 'Handler not found'])(
		'success: false with a reason (%s) is a failed item with the reason, and nothing says the handler is gone',
		async (reason) => {
			await answer(REMOVE, { success: false, message: reason });
			const [item] = jsonOf((await remove()).items);
			expect(item.error).toBe(
				`The service refused /webhook/remove_handler with success: false. The service said: ${reason}. Nothing shows that the service does not know the handler: no answer to an unknown id is learnt at this Base URL yet. The handler may still exist: check it in Inventory Ops.`,
			);
			expect(item.details).toMatchObject({ handlerGone: false });
		},
	);

	test('success: true says removed', async () => {
		await answer(REMOVE, { success: true });
		expect(jsonOf((await remove()).items)).toEqual([{ _id: 'h-1', success: true, removed: true }]);
	});

	test('an answer without success true or false is an error naming it', async () => {
		await answer(REMOVE, { ok: 1 });
		expect(jsonOf((await remove()).items)[0].error).toBe(
			'The service answered /webhook/remove_handler with an object with ok, without success true or false. The success status says the change was probably applied, so it was not sent again: check the service before trying again.',
		);
	});

	test('an answer of eight fields, none of them success, is named with all eight', async () => {
		const fields = ['ok', 'id', 'type', 'name', 'url', 'method', 'headers', 'created_at'];
		await answer(REMOVE, Object.fromEntries(fields.map((field) => [field, 1])));
		expect(jsonOf((await remove()).items)[0].error).toBe(
			`The service answered /webhook/remove_handler with an object with ${fields.join(', ')}, without success true or false. The success status says the change was probably applied, so it was not sent again: check the service before trying again.`,
		);
	});
});

describe('settings that hold for the whole run are never taken from item 0 alone', () => {
	// n8n 1.1xx and later (the engine of these tests) pass an expression on as text where the setting
	// takes none.
	test.each([
		[{ lookUpBy: '={{ $json.by }}' }, 'Look Up By'],
		[{ storeIdField: '={{ $json.by }}', lookUpBy: 'itemFields' }, 'Store ID Field'],
		[{ options: { unmatched: '={{ $json.by }}' } }, 'If an Order Is Not Found'],
		[{ options: { batchSize: '={{ $json.by }}' } }, 'Batch Size'],
		[{ options: { timeout: '={{ $json.by }}' } }, 'Timeout (Milliseconds)'],
	])(
		'%j as an expression stops the run naming %s, before any call',
		async (parameters, setting) => {
			const result = await ctx.run(
				{ resource: 'order', operation: 'lookUp', storeId: 'S1', orderNumber: 'O1', ...parameters },
				{ items: [{ json: { by: 'list' } }, { json: { by: 'skip' } }], continueOnFail: true },
			);
			expect(result.error.message).toBe(
				`'${setting}' takes no expression: it holds for the whole run, and n8n passed "{{ $json.by }}" on as text`,
			);
			expect(await ctx.sandbox.calls(BULK)).toHaveLength(0);
		},
	);

	// The value is shown as JSON (quotes included) up to 60 characters; a longer one is cut there and
	// marked with "…".
	test.each([
		['of 60 characters is shown whole', 58, (text) => JSON.stringify(text)],
		[
			'of 61 characters is cut to its first 60 and "…"',
			59,
			(text) => `${JSON.stringify(text).slice(0, 60)}…`,
		],
	])('the expression passed on as text: a value %s in the message', async (_, length, shownAs) => {
		const expression = `{{ $json.by }}${'x'.repeat(length - 14)}`;
		expect(expression).toHaveLength(length);
		const result = await ctx.run(
			{
				resource: 'order',
				operation: 'lookUp',
				storeId: 'S1',
				orderNumber: 'O1',
				lookUpBy: `=${expression}`,
			},
			{ items: [{ json: { by: 'list' } }] },
		);
		expect(result.error).toMatchObject({
			message: `'Look Up By' takes no expression: it holds for the whole run, and n8n passed ${shownAs(expression)} on as text`,
			description: "Choose a value for 'Look Up By' instead of an expression.",
		});
		expect(await ctx.sandbox.calls(BULK)).toHaveLength(0);
	});

	test('the editor offers no expression for them', () => {
		const { InventoryOps } = require('../../dist/nodes/InventoryOps/InventoryOps.node.js');
		const properties = new InventoryOps().description.properties.filter((property) =>
			property.displayOptions?.show?.operation?.includes('lookUp'),
		);
		const forAllItems = ['lookUpBy', 'storeIdField', 'orderNumberField', 'simplify'].map((name) =>
			properties.find((p) => p.name === name),
		);
		expect(forAllItems.map((property) => property.noDataExpression)).toEqual([
			true,
			true,
			true,
			true,
		]);
		const options = properties.find((property) => property.name === 'options').options;
		expect(options.length).toBeGreaterThan(5);
		expect(
			options.filter((option) => !option.noDataExpression).map((option) => option.name),
		).toEqual([]);
	});
});
