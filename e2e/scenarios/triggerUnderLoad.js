// The trigger republished while events stream in, as users do all day: the registration must survive every save
// or publish (no delivery may put an old one back), and events refused or lost around each re-registration are
// counted and printed (README, "Republishing while events arrive").
const { triggerWorkflow } = require('../lib/workflows');
const { waitFor } = require('../lib/wait');

const TRIGGER = 'Inventory Ops Trigger';
const TYPES = ['order.shipped', 'item.inventory'];
const SENDERS = 4;
const SEND_EVERY_MS = 1000;
const REPUBLISHES = 4;
const SECRET_HEADER = 'x-inventory-ops-webhook-secret';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const step = (text) => process.stdout.write(`under load: ${text} (${new Date().toISOString()})\n`);

module.exports = (getContext) => {
	describe('Inventory Ops Trigger republished under a steady stream of events', () => {
		test('afterwards: one handler per type, the stored registration matches the service, nothing refused, one execution per fresh event', async () => {
			const context = getContext();
			const { n8n } = context;
			const created = await n8n.createWorkflow(triggerWorkflow('e2e trigger under load', context.credential, TYPES, { triggerName: TRIGGER }));
			const triggerNode = created.nodes.find((node) => node.name === TRIGGER);
			let handlers = await context.publish(created, triggerNode, TYPES);

			// The service's side: events emitted by the sandbox (it delivers with retries, as the real service would).
			const emitted = [];
			let streaming = true;
			const sender = async (index) => {
				for (let n = 0; streaming; n += 1) {
					const type = TYPES[(index + n) % TYPES.length];
					const { event_id: id, handlers: targets } = await context.admin('POST', '/events', { type, data: { index, n } });
					emitted.push({ id, type, targets, at: Date.now() });
					await sleep(SEND_EVERY_MS);
				}
			};
			const senders = Array.from({ length: SENDERS }, (_, index) => sender(index));

			/** The trigger node edited (1.x: saved while active; 2.x: saved, then published), as a user would. */
			const republish = async (round) => {
				const current = await n8n.getWorkflow(created.id);
				const nodes = current.nodes.map((node) =>
					node.name === TRIGGER
						? { ...node, parameters: { ...node.parameters, options: { includeHeaders: round % 2 === 1 } } }
						: node,
				);
				await n8n.updateWorkflow(created.id, { name: current.name, nodes, connections: current.connections });
				if (n8n.major >= 2) await n8n.publish(created.id);
				const before = new Set(handlers.map((handler) => handler._id));
				handlers = await waitFor(
					async () => {
						const { production } = await context.handlersOf(triggerNode);
						const fresh = production.filter((handler) => !before.has(handler._id));
						return production.length === TYPES.length && fresh.length === TYPES.length ? production : undefined;
					},
					{ what: `the handlers of republish ${round} to replace the old ones`, timeoutMs: 30_000 },
				);
			};

			step('streaming');
			await sleep(2000);
			for (let round = 1; round <= REPUBLISHES; round += 1) {
				await republish(round);
				step(`republished ${round}`);
				await sleep(2000);
			}
			await context.unpublish(created, triggerNode);
			await sleep(1000);
			handlers = await context.publish(created, triggerNode, TYPES);
			const lastPublishDone = Date.now();
			step('unpublished and published');
			await sleep(3000);
			streaming = false;
			await Promise.all(senders);
			step(`stream stopped after ${emitted.length} events`);
			await sleep(2500); // the sandbox's retries of the last events (4 attempts, 200 ms doubling)

			// Exactly one handler per type, and the trigger's stored registration is the one the service holds.
			const { production } = await context.handlersOf(triggerNode);
			expect(production.map((handler) => handler.type).sort()).toEqual([...TYPES].sort());
			const secrets = new Set(production.map((handler) => handler.handler.headers[SECRET_HEADER]));
			expect(secrets.size).toBe(1);
			const stored = JSON.stringify((await n8n.getWorkflow(created.id)).staticData);
			expect(stored).toContain([...secrets][0]);
			for (const handler of production) expect(stored).toContain(handler._id);

			// Every attempt after the last publish finished reached a registered handler and was accepted.
			const { deliveries } = await context.admin('GET', '/deliveries');
			const ours = deliveries.filter((delivery) => delivery.url.includes(`/${triggerNode.webhookId}/`));
			const refusedAfter = ours.filter((d) => Date.parse(d.time) > lastPublishDone && d.status !== 200);
			expect(refusedAfter).toEqual([]);

			// A fresh event per type: 200 and exactly one execution each.
			const fresh = [];
			for (const type of TYPES) fresh.push((await context.emit(type, { fresh: true })).event_id);
			for (const id of fresh) expect((await context.deliveries(id)).map((d) => d.status)).toEqual([200]);
			const executions = await n8n.executions(created.id);
			const eventIds = executions.map(
				(execution) => execution.data.resultData.runData[TRIGGER][0].data.main[0][0].json.eventId,
			);
			for (const id of fresh) expect(eventIds.filter((eventId) => eventId === id)).toHaveLength(1);

			// Figures for the README: events that reached no accepted delivery, and how they were refused.
			const accepted = new Set(ours.filter((d) => d.status === 200).map((d) => d.event_id));
			const lost = emitted.filter((event) => !accepted.has(event.id));
			const statuses = {};
			for (const d of ours.filter((delivery) => delivery.status !== 200)) {
				statuses[d.status ?? d.error] = (statuses[d.status ?? d.error] ?? 0) + 1;
			}
			const duplicates = eventIds.length - new Set(eventIds).size;
			process.stdout.write(
				`under load on n8n ${n8n.host.version}: ${emitted.length} events streamed by ${SENDERS} senders, ` +
					`${REPUBLISHES} republishes + 1 unpublish/publish; ${lost.length} never accepted ` +
					`(${lost.filter((event) => event.targets === 0).length} emitted while no handler of ours existed); ` +
					`refused attempts by status ${JSON.stringify(statuses)}; ${executions.length} executions, ` +
					`${duplicates} for an event already run\n`,
			);
			expect(duplicates).toBe(0);

			await context.unpublish(created, triggerNode);
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
		});
	});
};
