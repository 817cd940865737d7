// The Inventory Ops Trigger's lifecycle as n8n really drives it: publish, unpublish, restart, kill
// -9, repeated cycles and "listen for test event", counted in the sandbox's handler table after
// each step.

const { triggerWorkflow, TRIGGER_VERSION } = require('../lib/workflows');
const { waitFor } = require('../lib/wait');

const TRIGGER = 'Inventory Ops Trigger';

/**
 * The event id an execution carries: the event's, unless the profile's service sends the changed
 * record alone.
 */
const carriedId = (context, event) =>
	context.answers.deliveryBody === 'record' ? null : event.event_id;

/** Handler counts per lifecycle sequence, printed at the end for the closing note. */
const observed = [];
const record = (sequence, handlers) => {
	const perType = {};
	for (const handler of handlers) perType[handler.type] = (perType[handler.type] ?? 0) + 1;
	observed.push({ sequence, total: handlers.length, perType });
};

module.exports = (getContext) => {
	describe('Inventory Ops Trigger: handler lifecycle in a real n8n', () => {
		afterAll(() => {
			if (!getContext() || observed.length === 0) return;
			const { n8n } = getContext();
			process.stdout.write(
				`handler counts observed on n8n ${n8n.host.version}:\n${observed
					.map((entry) => `  ${entry.sequence}: ${entry.total} ${JSON.stringify(entry.perType)}`)
					.join('\n')}\n`,
			);
		});

		/**
		 * A new trigger workflow (its own webhookId, so its handlers are told apart from every other
		 * test's).
		 */
		const newTriggerWorkflow = async (name, events) => {
			const { n8n, credential } = getContext();
			const definition = triggerWorkflow(name, credential, events, { triggerName: TRIGGER });
			const workflow = await n8n.createWorkflow(definition);
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			expect(triggerNode.webhookId).toBeTruthy();
			return { workflow, triggerNode };
		};

		const eventsOf = (executions) =>
			executions
				.map((execution) => execution.data.resultData.runData[TRIGGER][0].data.main[0][0].json)
				.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));

		test('a credential n8n cannot read at publish: the activation fails saying so, and nothing is sent', async () => {
			const context = getContext();
			const { n8n } = context;
			// The credential's Base URL is an expression that reads an input item, which an activation
			// does not have.
			const credential = await context.createCredentialWith(
				`e2e unreadable trigger credential ${Date.now()}`,
				{ baseUrl: '={{ $json.region.baseUrl }}' },
			);
			const workflow = await n8n.createWorkflow(
				triggerWorkflow('e2e trigger unreadable credential', credential, ['order.shipped'], {
					triggerName: TRIGGER,
				}),
			);
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			const before = (await context.calls('/api/webhook/add_handler')).length;
			const message = await n8n.publishRefused(workflow.id);
			// n8n's reason (1.123.81 and 2.41.1: "Node '' hasn't been executed"; 1.99.1: "No execution
			// data available"), then the advice, which the message keeps on every line.
			expect(message).toMatch(
				/^Publishing failed at the webhook handler for "order\.shipped" \(1 of 1\)\. Could not read the Inventory Ops API credential: .+\. Nothing was sent to \/webhook\/add_handler\. Check that the node has an Inventory Ops API credential, and that no expression reads an input item \(publishing has none\)\.$/s,
			);
			expect((await context.calls('/api/webhook/add_handler')).length).toBe(before);
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
		});

		test('published: exactly one handler per selected event type, each with its own secret header', async () => {
			const context = getContext();
			const types = ['order.shipped', 'item.inventory', 'order.status.*'];
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger publish', types);
			const handlers = await context.publish(workflow, triggerNode, types);
			record('published (3 types)', handlers);
			for (const handler of handlers) {
				expect(new URL(handler.handler.url).pathname).toBe(
					`/webhook/${triggerNode.webhookId}/webhook`,
				);
				expect(handler.handler.method).toBe('POST');
				expect(Object.keys(handler.handler.headers)).toContain('x-inventory-ops-webhook-secret');
			}
			expect((await context.handlersOf(triggerNode)).test).toEqual([]);

			record('published, then unpublished', await context.unpublish(workflow, triggerNode));
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
		});

		test('a sandbox event starts exactly one execution carrying the event; other types start none', async () => {
			const context = getContext();
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger event', [
				'order.shipped',
			]);
			expect(triggerNode.typeVersion).toBe(TRIGGER_VERSION);
			await context.publish(workflow, triggerNode, ['order.shipped']);

			const data = { store_id: '1001', order_number: '1000', tracking_number: 'TRK-E2E' };
			const event = await context.emit('order.shipped', data);
			expect(event.handlers).toBeGreaterThanOrEqual(1);
			const executions = await context.waitForExecutions(workflow.id, 1);
			expect(executions).toHaveLength(1);
			expect(executions[0].status).toBe('success');
			expect(eventsOf(executions)).toEqual([
				expect.objectContaining({
					eventId: carriedId(context, event),
					eventType: 'order.shipped',
					data,
				}),
			]);
			const deliveries = (await context.deliveries(event.event_id)).filter((d) =>
				d.url.includes(triggerNode.webhookId),
			);
			expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);

			const other = await context.emit('shipment.created', { shipment_id: 'x' });
			expect(
				(await context.deliveries(other.event_id)).filter((d) =>
					d.url.includes(triggerNode.webhookId),
				),
			).toEqual([]);
			expect(await context.waitForExecutions(workflow.id, 1)).toHaveLength(1);

			await context.unpublish(workflow, triggerNode);
		});

		test('a repeated event id starts one execution, with 1 and with 8 deliveries in flight; static data untouched', async () => {
			const context = getContext();
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger repeats', [
				'order.shipped',
			]);
			const [handler] = await context.publish(workflow, triggerNode, ['order.shipped']);
			const storedBefore = (await context.n8n.getWorkflow(workflow.id)).staticData;
			expect(JSON.stringify(storedBefore)).toContain(
				handler.handler.headers['x-inventory-ops-webhook-secret'],
			);
			const deliver = (id) =>
				fetch(handler.handler.url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...handler.handler.headers },
					body: JSON.stringify({
						id,
						type: 'order.shipped',
						created_at: new Date().toISOString(),
						data: { id },
					}),
				}).then((response) => response.status);

			const oneAtATime = [];
			for (let attempt = 0; attempt < 3; attempt += 1)
				oneAtATime.push(await deliver('evt_e2e_repeat_serial'));
			const eightInFlight = await Promise.all(
				Array.from({ length: 8 }, () => deliver('evt_e2e_repeat_parallel')),
			);
			expect([...oneAtATime, ...eightInFlight]).toEqual(Array(11).fill(200));

			const executions = await context.waitForExecutions(workflow.id, 2);
			expect(
				eventsOf(executions)
					.map((event) => event.eventId)
					.sort(),
			).toEqual(['evt_e2e_repeat_parallel', 'evt_e2e_repeat_serial']);
			// Only the lifecycle writes static data: after 11 deliveries it is what the activation
			// stored.
			expect((await context.n8n.getWorkflow(workflow.id)).staticData).toEqual(storedBefore);

			await context.unpublish(workflow, triggerNode);
		});

		test('a delivery with a wrong or missing secret gets 401 and starts no execution', async () => {
			const context = getContext();
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger secret', [
				'order.shipped',
			]);
			const [handler] = await context.publish(workflow, triggerNode, ['order.shipped']);
			const body = JSON.stringify({
				id: 'evt_forged',
				type: 'order.shipped',
				created_at: new Date().toISOString(),
				data: {},
			});
			const post = (headers) =>
				fetch(handler.handler.url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...headers },
					body,
				});

			expect((await post({})).status).toBe(401);
			expect((await post({ 'x-inventory-ops-webhook-secret': 'wrong' })).status).toBe(401);
			const secret = handler.handler.headers['x-inventory-ops-webhook-secret'];
			expect((await post({ 'x-inventory-ops-webhook-secret': `${secret}0` })).status).toBe(401);
			expect(await context.n8n.executions(workflow.id)).toEqual([]);

			// The same request with the right secret does start one: the 401s were about the secret
			// alone.
			expect((await post(handler.handler.headers)).status).toBe(200);
			expect(await context.waitForExecutions(workflow.id, 1)).toHaveLength(1);

			await context.unpublish(workflow, triggerNode);
		});

		test('a record delivered with an empty event-type header gets 400 like one without it; with the type it runs', async () => {
			const context = getContext();
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger empty type header', [
				'order.shipped',
			]);
			const [handler] = await context.publish(workflow, triggerNode, ['order.shipped']);
			// A record alone (no event envelope): only the header can name its type. The handler's own
			// headers carry the type it was added for, so only its secret is sent here.
			const body = JSON.stringify({ store_id: '1001', order_number: '1000' });
			const secret = {
				'x-inventory-ops-webhook-secret': handler.handler.headers['x-inventory-ops-webhook-secret'],
			};
			const post = (headers) =>
				fetch(handler.handler.url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...secret, ...headers },
					body,
				}).then((response) => response.status);

			expect(await post({ 'x-inventory-ops-event-type': '' })).toBe(400);
			expect(await post({})).toBe(400);
			expect(await context.n8n.executions(workflow.id)).toEqual([]);
			expect(await post({ 'x-inventory-ops-event-type': 'order.shipped' })).toBe(200);
			const executions = await context.waitForExecutions(workflow.id, 1);
			expect(eventsOf(executions)).toEqual([
				expect.objectContaining({ eventType: 'order.shipped', data: JSON.parse(body) }),
			]);

			await context.unpublish(workflow, triggerNode);
		});

		test('never published: zero handlers, and an event starts nothing', async () => {
			const context = getContext();
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger unpublished', [
				'order.tags',
			]);
			const event = await context.emit('order.tags', { tags: ['x'] });
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
			record('saved, never published', []);
			expect(
				(await context.deliveries(event.event_id)).filter((d) =>
					d.url.includes(triggerNode.webhookId),
				),
			).toEqual([]);
			expect(await context.n8n.executions(workflow.id)).toEqual([]);
		});

		test('five publish/unpublish cycles: zero handlers left and one execution per cycle, none lost', async () => {
			const context = getContext();
			const types = ['order.shipped', 'item.inventory'];
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger cycles', types);
			const sent = [];
			for (let cycle = 1; cycle <= 5; cycle += 1) {
				const handlers = await context.publish(workflow, triggerNode, types);
				expect(handlers).toHaveLength(2);
				const event = await context.emit('order.shipped', { cycle });
				sent.push(carriedId(context, event));
				expect(await context.waitForExecutions(workflow.id, cycle)).toHaveLength(cycle);
				await context.unpublish(workflow, triggerNode);
			}
			const left = (await context.handlersOf(triggerNode)).all;
			record('after 5 publish/unpublish cycles', left);
			expect(left).toEqual([]);
			const executions = await context.n8n.executions(workflow.id);
			expect(executions).toHaveLength(5);
			expect(eventsOf(executions).map((event) => event.eventId)).toEqual(sent);
		});

		test('"listen for test event" while published: the production handlers survive', async () => {
			const context = getContext();
			const types = ['order.shipped', 'shipment.voided'];
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger test event', types);
			/** Waits until the trigger has no test-URL handler left; resolves to all its handlers. */
			const testHandlersGone = (what) =>
				waitFor(
					async () => {
						const handlers = await context.handlersOf(triggerNode);
						return handlers.test.length === 0 ? handlers : undefined;
					},
					{ what },
				);
			const production = await context.publish(workflow, triggerNode, types);

			// The editor's "Execute workflow" on a workflow whose trigger waits for a webhook: n8n
			// registers the test webhook (the trigger's `create` with the test URL) and answers {
			// waitingForWebhook: true }.
			const listening = await context.n8n.listenForTestEvent(workflow.id, TRIGGER);
			expect(listening).toMatchObject({ waitingForWebhook: true });
			const { test: testHandlers } = await context.handlersOf(triggerNode);
			expect(testHandlers.map((handler) => handler.type).sort()).toEqual([...types].sort());
			record('published + listening for a test event (test URL handlers)', testHandlers);
			expect((await context.handlersOf(triggerNode)).production.map((h) => h._id).sort()).toEqual(
				production.map((h) => h._id).sort(),
			);

			// Closing the listener removes the test handlers only (n8n runs the `delete` in the
			// background).
			await context.n8n.stopListening(workflow.id);
			const after = await testHandlersGone('the test handlers to be removed');
			record('published, test listener closed (all handlers)', after.all);
			expect(after.test).toEqual([]);
			expect(after.production.map((h) => h._id).sort()).toEqual(
				production.map((h) => h._id).sort(),
			);

			// A test event that arrives while listening: n8n tears the test webhook down after it;
			// production stays.
			await context.n8n.listenForTestEvent(workflow.id, TRIGGER);
			await context.waitForProductionHandlers(triggerNode, types);
			const event = await context.emit('shipment.voided', { shipment_id: 'e2e' });
			const deliveredTo = (await context.deliveries(event.event_id)).filter((d) =>
				d.url.includes(triggerNode.webhookId),
			);
			expect(deliveredTo.filter((d) => d.status === 200).length).toBeGreaterThanOrEqual(1);
			// n8n removes a test webhook once it has received its event (in the background): no test
			// handler stays.
			const settled = await testHandlersGone(
				'the test handlers to be removed after the test event',
			);
			record('published, a test event received, listener done (all handlers)', settled.all);
			expect(settled.production.map((h) => h._id).sort()).toEqual(
				production.map((h) => h._id).sort(),
			);
			const executions = await context.waitForExecutions(workflow.id, 1);
			expect(executions.filter((execution) => execution.mode !== 'manual')).toHaveLength(1);

			await context.n8n.stopListening(workflow.id).catch(() => undefined);
			await context.unpublish(workflow, triggerNode);
		});

		test('published, then n8n restarted: still exactly one handler per type, and events still arrive', async () => {
			const context = getContext();
			const types = ['order.shipped', 'item.inventory'];
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger restart', types);
			const before = await context.publish(workflow, triggerNode, types);

			await context.n8n.restart();
			const after = await context.waitForProductionHandlers(triggerNode, types);
			record('published, n8n restarted (SIGTERM + start)', after);
			expect(after).toHaveLength(2);

			const event = await context.emit('item.inventory', { item_id: 'e2e' });
			const executions = await context.waitForExecutions(workflow.id, 1);
			expect(eventsOf(executions).map((e) => e.eventId)).toEqual([carriedId(context, event)]);

			record('restarted, then unpublished', await context.unpublish(workflow, triggerNode));
			expect(before).toHaveLength(2);
		});

		test('published, n8n killed -9 and started again, unpublished through the API: zero handlers', async () => {
			const context = getContext();
			const types = ['order.shipped', 'order.tracking'];
			const { workflow, triggerNode } = await newTriggerWorkflow('e2e trigger kill', types);
			await context.publish(workflow, triggerNode, types);

			await context.n8n.kill();
			record(
				'published, n8n killed -9 (before start)',
				(await context.handlersOf(triggerNode)).all,
			);
			await context.n8n.start();
			const afterStart = await context.waitForProductionHandlers(triggerNode, types);
			record('published, killed -9, started again', afterStart);

			const left = await context.unpublish(workflow, triggerNode);
			record(
				'killed -9, started, unpublished via API',
				(await context.handlersOf(triggerNode)).all,
			);
			expect(left).toEqual([]);
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
		});
	});
};
