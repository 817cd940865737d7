// Every operation of the Inventory Ops node, run in a real workflow ("Execute workflow" through
// n8n's REST API), checked in the sandbox's own tables rather than only in the node's output.
const { MANUAL_TRIGGER, actionWorkflow, errorOf, outputOf } = require('../lib/workflows');

/** The sandbox records calls to the app base URL under `/s` (sandbox/README.md). */
const RESTORE_ROUTE = '/s/ship/shipping/restore_inventory';

module.exports = (getContext) => {
	describe('Inventory Ops node: every operation in a workflow', () => {
		/** Creates the workflow, runs it once, and returns the output of its last node. */
		const run = async (name, steps) => {
			const { n8n, credential } = getContext();
			const workflow = await n8n.createWorkflow(actionWorkflow(name, credential, steps));
			const execution = await n8n.runManually(workflow.id, MANUAL_TRIGGER);
			expect(errorOf(execution)).toBeUndefined();
			expect(execution.status).toBe('success');
			return { workflow, execution, output: outputOf(execution, steps[steps.length - 1].name) };
		};

		test('order Get Many (lookUp): one batched lookup returns the seeded orders, and found: false for a missing one', async () => {
			const context = getContext();
			const { orders } = await context.admin('GET', '/orders?limit=3');
			const references = [
				...orders.map(({ store_id, order_number }) => ({ store_id, order_number })),
				{ store_id: orders[0].store_id, order_number: 'NO-SUCH-ORDER' },
			];
			const before = (await context.calls('/api/order/get_single_bulk')).length;
			const { output } = await run('e2e order lookUp', [
				{
					name: 'Look Up Orders',
					parameters: {
						resource: 'order',
						operation: 'lookUp',
						lookUpBy: 'list',
						references: JSON.stringify(references),
						simplify: false,
					},
				},
			]);
			const found = output.filter((item) => item.found !== false);
			// A service that leaves store_id out of its orders (profile switch bulkOrderFields): the same
			// orders, by _id.
			const withoutStoreId = context.answers.bulkOrderFields === 'noStoreId';
			const storeOf = (order) => (withoutStoreId ? undefined : order.store_id);
			expect(found.map((order) => [order._id, order.store_id, order.order_number])).toEqual(
				orders.map((order) => [order._id, storeOf(order), order.order_number]),
			);
			expect(found[0].shipments).toEqual(orders[0].shipments);
			expect(output.filter((item) => item.found === false)).toEqual([
				expect.objectContaining({
					found: false,
					store_id: orders[0].store_id,
					order_number: 'NO-SUCH-ORDER',
				}),
			]);
			const calls = (await context.calls('/api/order/get_single_bulk')).slice(before);
			expect(calls[0]).toMatchObject({ status: 200, body: { order: references } });
			// The three seeded orders share one order number in three stores: without store_id they are
			// asked apart.
			expect(calls).toHaveLength(withoutStoreId ? 1 + orders.length : 1);
		});

		test('kit create: the kit with its components exists in the sandbox', async () => {
			const context = getContext();
			const { items } = await context.admin('GET', '/items');
			const sku = `KIT-E2E-${Date.now()}`;
			const { output } = await run('e2e kit create', [
				{
					name: 'Create Kit',
					parameters: {
						resource: 'kit',
						operation: 'create',
						name: 'E2E gift set',
						sku,
						kitItems: {
							item: [
								{ itemId: items[0].item_id, sku: items[0].sku, quantity: 2, type: 'item' },
								{ itemId: items[1].item_id, sku: items[1].sku, quantity: 1, type: 'item' },
							],
						},
						additionalFields: { retail: 19.5, active: true },
					},
				},
			]);
			expect(output).toHaveLength(1);
			expect(output[0]).toMatchObject({ success: true });
			const { kits } = await context.admin('GET', '/kits');
			const kit = kits.find((candidate) => candidate.sku === sku);
			expect(kit).toMatchObject({
				_id: output[0]._id,
				new_kit_id: output[0].new_kit_id,
				name: 'E2E gift set',
				retail: 19.5,
			});
			expect(kit.items.map((component) => [component.item_id, component.quantity])).toEqual([
				[items[0].item_id, 2],
				[items[1].item_id, 1],
			]);
		});

		test('shipment restoreInventory: the shipment is no longer deducted and on_hand grew by its quantities', async () => {
			const context = getContext();
			const { orders } = await context.admin('GET', '/orders?limit=200');
			const order = orders.find((candidate) =>
				candidate.shipments.some((s) => s.deducted && !s.voided),
			);
			const shipment = order.shipments.find((s) => s.deducted && !s.voided);
			const onHand = async (itemId) => {
				const { items } = await context.admin('GET', `/items?item_id=${itemId}`);
				return items[0].inventory.reduce((sum, place) => sum + place.on_hand, 0);
			};
			const quantities = {};
			for (const line of shipment.request.order_items) {
				quantities[line.item_id] = (quantities[line.item_id] ?? 0) + line.quantity;
			}
			const before = {};
			for (const itemId of Object.keys(quantities)) before[itemId] = await onHand(itemId);

			const { output } = await run('e2e shipment restoreInventory', [
				{
					name: 'Restore Inventory',
					parameters: {
						resource: 'shipment',
						operation: 'restoreInventory',
						storeId: order.store_id,
						orderNumber: order.order_number,
						trackingNumber: shipment.response.tracking_number,
					},
				},
			]);
			expect(output).toHaveLength(1);
			const [after] = (
				await context.admin(
					'GET',
					`/orders?store_id=${order.store_id}&order_number=${order.order_number}`,
				)
			).orders;
			expect(after.shipments.find((s) => s._id === shipment._id).deducted).toBe(false);
			for (const [itemId, quantity] of Object.entries(quantities)) {
				expect(await onHand(itemId)).toBe(before[itemId] + quantity);
			}
		});

		test('shipment restoreInventory: an answer holding a field named json reaches the output whole', async () => {
			// n8n's returnJsonArray takes any object with a truthy `json` for an item and keeps only that
			// field: the node builds its items itself, and this shows the host keeps them as built.
			const shipment = {
				_id: 'ship-e2e-json',
				response: { tracking_number: 'TRK-E2E-JSON' },
				request: {
					order_items: [{ sku: 'SKU-1', item_id: 'item-1', quantity: 2, location_id: 'loc-1' }],
				},
				deducted: false,
			};
			const answered = { _id: 'order-e2e-json', json: { note: 'kept' }, shipments: [shipment] };
			await getContext().admin('POST', '/faults', {
				route: RESTORE_ROUTE,
				count: 1,
				status: 200,
				body: answered,
			});
			const { output } = await run('e2e shipment restoreInventory json field', [
				{
					name: 'Restore Inventory',
					parameters: {
						resource: 'shipment',
						operation: 'restoreInventory',
						storeId: 'S1',
						orderNumber: 'O1',
						shipmentId: shipment._id,
					},
				},
			]);
			expect(output).toEqual([
				expect.objectContaining({
					restored: true,
					_id: 'order-e2e-json',
					json: { note: 'kept' },
					restoredShipment: shipment,
				}),
			]);
		});

		test('webhookHandler add: the handler exists with its type, URL, method and headers', async () => {
			const context = getContext();
			const url = `https://example.com/e2e/${Date.now()}`;
			const { output } = await run('e2e webhookHandler add', [
				{
					name: 'Add Handler',
					parameters: {
						resource: 'webhookHandler',
						operation: 'add',
						eventType: 'item.inventory',
						name: 'E2E handler',
						url,
						method: 'POST',
						headers: { header: [{ name: 'x-e2e', value: 'yes' }] },
					},
				},
			]);
			expect(output).toHaveLength(1);
			const { handlers } = await context.admin('GET', '/handlers');
			const handler = handlers.find((candidate) => candidate.handler.url === url);
			expect(handler).toMatchObject({
				_id: output[0]._id,
				type: 'item.inventory',
				name: 'E2E handler',
				handler: { url, method: 'POST', headers: { 'x-e2e': 'yes' } },
			});
		});

		test('webhookHandler add: a password in the URL reaches the service but not the output; a CR/LF header value stops before any call', async () => {
			const context = getContext();
			const url = `https://e2e-user:e2e-pw-${Date.now()}@example.com/e2e/credentials`;
			const { output } = await run('e2e webhookHandler add with credentials', [
				{
					name: 'Add Handler',
					parameters: {
						resource: 'webhookHandler',
						operation: 'add',
						eventType: 'order.shipped',
						name: 'E2E creds',
						url,
					},
				},
			]);
			expect(output).toEqual([
				expect.objectContaining({
					url: 'https://example.com/e2e/credentials',
					urlCredentialsRemoved: true,
					warning: expect.any(String),
				}),
			]);
			expect(JSON.stringify(output)).not.toContain('e2e-pw-');
			const { handlers } = await context.admin('GET', '/handlers');
			expect(handlers.filter((candidate) => candidate.handler.url === url)).toHaveLength(1);

			const before = (await context.calls('/api/webhook/add_handler')).length;
			const { n8n, credential } = context;
			const workflow = await n8n.createWorkflow(
				actionWorkflow('e2e webhookHandler add with a CR/LF header value', credential, [
					{
						name: 'Add Handler',
						parameters: {
							resource: 'webhookHandler',
							operation: 'add',
							eventType: 'order.shipped',
							name: 'E2E bad header',
							url: 'https://example.com/e2e/bad-header',
							headers: { header: [{ name: 'X-Secret', value: 'a\r\nX-Injected: 1' }] },
						},
					},
				]),
			);
			const execution = await n8n.runManually(workflow.id, MANUAL_TRIGGER);
			expect(errorOf(execution).message).toMatch(
				/^Item 0: 'Headers\[0\]\.value' must not contain line breaks/,
			);
			expect((await context.calls('/api/webhook/add_handler')).length).toBe(before);
		});

		test('a credential whose Base URL expression n8n cannot resolve for the item: it fails naming the field and the item, nothing sent', async () => {
			const context = getContext();
			const { n8n } = context;
			// An expression in a credential field is resolved for each item; this one needs a field the
			// item does not have.
			const credential = await context.createCredentialWith(
				`e2e unreadable credential ${Date.now()}`,
				{ baseUrl: '={{ $json.region.baseUrl }}' },
			);
			const before = (await context.calls('/api/order/get_single_bulk')).length;
			const workflow = await n8n.createWorkflow(
				actionWorkflow('e2e unreadable credential', credential, [
					{
						name: 'Look Up Orders',
						parameters: {
							resource: 'order',
							operation: 'lookUp',
							lookUpBy: 'list',
							references: '[{"store_id":"1001","order_number":"1000"}]',
						},
					},
				]),
			);
			const execution = await n8n.runManually(workflow.id, MANUAL_TRIGGER);
			expect(execution.status).toBe('error');
			// n8n leaves a credential field whose expression it cannot resolve empty (1.123.81 and 2.41.1
			// alike).
			expect(errorOf(execution).message).toBe(
				"The credential's Base URL is empty for item 0: nothing was sent to /order/get_single_bulk.",
			);
			expect(errorOf(execution).description).toMatch(
				/If it is an expression, it must give that address for every item\.$/,
			);
			expect((await context.calls('/api/order/get_single_bulk')).length).toBe(before);
		});

		test('webhookHandler remove: add then remove in one workflow leaves no handler behind', async () => {
			const context = getContext();
			const url = `https://example.com/e2e/remove/${Date.now()}`;
			const before = (await context.calls('/api/webhook/remove_handler')).length;
			const { output } = await run('e2e webhookHandler remove', [
				{
					name: 'Add Handler',
					parameters: {
						resource: 'webhookHandler',
						operation: 'add',
						eventType: 'order.shipped',
						name: 'E2E temporary',
						url,
					},
				},
				{
					name: 'Remove Handler',
					parameters: {
						resource: 'webhookHandler',
						operation: 'remove',
						handlerId: '={{ $json._id }}',
					},
				},
			]);
			expect(output).toHaveLength(1);
			expect(output[0]).toMatchObject({ success: true });
			const { handlers } = await context.admin('GET', '/handlers');
			expect(handlers.filter((candidate) => candidate.handler.url === url)).toEqual([]);
			// Then it removes the same id once more, to learn the service's answer to an id it does not
			// know (issue 58): a 404 HANDLER_NOT_FOUND, or a 200 success: false where the profile answers
			// so.
			const removals = (await context.calls('/api/webhook/remove_handler')).slice(before);
			expect(removals.map((call) => [call.body._id, call.status])).toEqual([
				[output[0]._id, 200],
				[output[0]._id, context.answers.removeUnknown === 404 ? 404 : 200],
			]);
		});
	});
};
