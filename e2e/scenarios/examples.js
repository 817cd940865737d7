// Every workflow in examples/ imported into a real n8n and run against the sandbox, so that none of
// them rots: a renamed parameter, a node of n8n that changed, or an event shape the examples
// misread fails here.
const { DEFAULT_SWITCHES } = require('../../sandbox/switches');
const { profileSwitches } = require('../../sandbox/profiles');
const { sandboxProfile } = require('../lib/context');
const { exampleWorkflows, readExamples } = require('../lib/examples');
const { errorOf, outputOf, MANUAL_TRIGGER, TRIGGER_TYPE } = require('../lib/workflows');

module.exports = (getContext) => {
	describe('examples/: each imports into n8n and runs against the sandbox', () => {
		const tested = new Set();

		// The examples are written for the answers docs/service-interface.md describes (an order's
		// store_id, an event's exact type): under another sandbox profile they run with those answers,
		// and the profile is put back after.
		beforeAll(async () => {
			await getContext().admin('POST', '/config', DEFAULT_SWITCHES);
		});
		afterAll(async () => {
			await getContext().admin('POST', '/config', {
				...DEFAULT_SWITCHES,
				...profileSwitches(sandboxProfile()),
			});
		});

		/**
		 * Imports one example as a user would (own credential, own sandbox) and returns the saved
		 * workflow.
		 */
		const importExample = async (file) => {
			const { n8n, sandbox, credential } = getContext();
			const example = exampleWorkflows(sandbox, credential).find(
				(candidate) => candidate.file === file,
			);
			expect(example).toBeDefined();
			tested.add(file);
			const workflow = await n8n.createWorkflow(example.workflow);
			return { workflow, trigger: workflow.nodes.find((node) => node.type === TRIGGER_TYPE) };
		};

		const runOnce = async (file) => {
			const { workflow } = await importExample(file);
			const execution = await getContext().n8n.runManually(workflow.id, MANUAL_TRIGGER);
			expect(errorOf(execution)).toBeUndefined();
			expect(execution.status).toBe('success');
			return execution;
		};

		/**
		 * Publishes a trigger example and waits for its handlers; `send` emits the events; then
		 * unpublishes.
		 */
		const whilePublished = async (file, types, send) => {
			const context = getContext();
			const { workflow, trigger } = await importExample(file);
			await context.publish(workflow, trigger, types);
			try {
				await send(workflow);
			} finally {
				await context.unpublish(workflow, trigger);
			}
		};

		test('look up orders from a sheet: found rows summarised, the missing one flagged, one bulk call', async () => {
			const context = getContext();
			const before = (await context.calls('/api/order/get_single_bulk')).length;
			const execution = await runOnce('look-up-orders-and-flag-missing.json');

			const seeded = async (storeId, orderNumber) =>
				(await context.admin('GET', `/orders?store_id=${storeId}&order_number=${orderNumber}`))
					.orders[0];
			const expected = [
				await seeded('1001', '1000'),
				await seeded('1002', '1000'),
				await seeded('1003', '1001'),
			];
			expect(outputOf(execution, 'Found Order Summary')).toEqual(
				expected.map((order) => ({
					store_id: order.store_id,
					order_number: order.order_number,
					status: order.status,
					// Get Many's Simplify (on by default) gives tracking_numbers of the shipments not voided.
					tracking_numbers: order.shipments
						.filter((shipment) => !shipment.voided)
						.map((shipment) => shipment.response?.tracking_number)
						.filter((number) => typeof number === 'string' && number !== '')
						.join(', '),
				})),
			);
			expect(outputOf(execution, 'Flag Missing Order')).toEqual([
				{
					store_id: '1004',
					order_number: '987654',
					problem: 'Order 987654 of store 1004 is not in Inventory Ops',
				},
			]);
			const calls = (await context.calls('/api/order/get_single_bulk')).slice(before);
			expect(calls).toHaveLength(1);
			expect(calls[0].body.order).toHaveLength(4);
		});

		test('create a kit from rows: one kit whose components are the rows', async () => {
			const context = getContext();
			const execution = await runOnce('create-kit-from-rows.json');
			const [created] = outputOf(execution, 'Create Kit');
			expect(created).toMatchObject({
				success: true,
				_id: expect.any(String),
				new_kit_id: expect.any(String),
			});

			const kit = (await context.admin('GET', '/kits')).kits.find(
				(candidate) => candidate._id === created._id,
			);
			expect(kit).toMatchObject({
				name: 'Mug gift set',
				sku: expect.stringMatching(/^KIT-MUGS-\d+$/),
				retail: 24.9,
			});
			expect(kit.items.map((component) => [component.sku, component.quantity])).toEqual([
				['SKU-0001', 2],
				['SKU-0002', 1],
			]);
		});

		test('add and remove a webhook handler by hand: added, then removed, none left', async () => {
			const context = getContext();
			const execution = await runOnce('manage-webhook-handlers-by-hand.json');
			const [added] = outputOf(execution, 'Add Handler');
			expect(added._id).toEqual(expect.any(String));
			expect(outputOf(execution, 'Remove Handler')).toEqual([
				expect.objectContaining({ success: true }),
			]);
			const { handlers } = await context.admin('GET', '/handlers');
			expect(handlers.filter((handler) => handler._id === added._id)).toEqual([]);
			const removeCalls = await context.calls('/api/webhook/remove_handler');
			// Removed once; then once more, for the service's answer to an id it no longer knows, which
			// Remove learns (issue 58).
			expect(
				removeCalls.filter((call) => call.body._id === added._id).map((call) => call.status),
			).toEqual([200, 404]);
		});

		test('restore inventory when a shipment is voided: stock back once, a repeat goes to Not Restored', async () => {
			const context = getContext();
			const [shipment] = (await context.admin('GET', '/shipments?deducted=true&limit=1')).shipments;
			const [line] = shipment.request.order_items;
			const stockOf = async () =>
				(await context.admin('GET', `/items?item_id=${line.item_id}`)).items[0].inventory.find(
					(entry) => entry.location_id === line.location_id,
				).on_hand;
			const onHandBefore = await stockOf();
			const voided = {
				store_id: shipment.store_id,
				order_number: shipment.order_number,
				shipment_id: shipment._id,
				tracking_number: shipment.response.tracking_number,
			};

			await whilePublished(
				'restore-inventory-when-shipment-voided.json',
				['shipment.voided'],
				async (workflow) => {
					await context.emit('shipment.voided', voided);
					const [first] = await context.waitForExecutions(workflow.id, 1);
					expect(first.status).toBe('success');
					expect(outputOf(first, 'Restored')).toEqual([
						expect.objectContaining({ _id: expect.any(String) }),
					]);
					expect(outputOf(first, 'Not Restored')).toBeUndefined();
					const after = (
						await context.admin(
							'GET',
							`/shipments?store_id=${shipment.store_id}&order_number=${shipment.order_number}`,
						)
					).shipments.find((candidate) => candidate._id === shipment._id);
					expect(after.deducted).toBe(false);
					const quantity = shipment.request.order_items
						.filter(
							(other) => other.item_id === line.item_id && other.location_id === line.location_id,
						)
						.reduce((sum, other) => sum + other.quantity, 0);
					expect(await stockOf()).toBe(onHandBefore + quantity);

					// A second void event for the same shipment (a new event, so the trigger does not drop it
					// as a repeat).
					await context.emit('shipment.voided', voided);
					const executions = await context.waitForExecutions(workflow.id, 2);
					const second = executions.find((execution) => execution.id !== first.id);
					expect(second.status).toBe('success');
					expect(outputOf(second, 'Restored')).toBeUndefined();
					expect(outputOf(second, 'Not Restored')).toEqual([
						{
							store_id: shipment.store_id,
							order_number: shipment.order_number,
							reason: expect.stringMatching(/already/i),
						},
					]);
					expect(await stockOf()).toBe(onHandBefore + quantity);
				},
			);
		});

		test('notify on order.status.*: one message per status change in the inbox, other events ignored', async () => {
			const context = getContext();
			const inboxBefore = (await context.admin('GET', '/inbox')).messages.length;
			await whilePublished('notify-on-order-status.json', ['order.status.*'], async (workflow) => {
				const shipped = await context.emit('order.status.shipped', {
					store_id: '1002',
					order_number: '1000',
				});
				const cancelled = await context.emit('order.status.cancelled', {
					store_id: '1003',
					order_number: '1001',
				});
				await context.emit('order.tags', { store_id: '1002', order_number: '1000', tags: ['vip'] });
				const executions = await context.waitForExecutions(workflow.id, 2);
				expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
				const messages = (await context.admin('GET', '/inbox')).messages
					.slice(inboxBefore)
					.map((message) => message.body);
				expect(messages.sort((a, b) => a.text.localeCompare(b.text))).toEqual([
					{
						channel: '#orders',
						text: 'Order 1000 of store 1002 is now shipped',
						event_id: shipped.event_id,
					},
					{
						channel: '#orders',
						text: 'Order 1001 of store 1003 is now cancelled',
						event_id: cancelled.event_id,
					},
				]);
			});
		});

		test('every example in examples/ was imported and run above', () => {
			expect([...tested].sort()).toEqual(readExamples().map(({ file }) => file));
		});
	});
};
