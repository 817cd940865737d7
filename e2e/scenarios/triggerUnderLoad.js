// The trigger republished while events stream in, as users do all day: the registration must
// survive every save or publish (no delivery may put an old one back), and events refused or lost
// around each re-registration are counted and printed (e2e/README.md, "The trigger while it is
// republished").
const crypto = require('node:crypto');

const { triggerWorkflow } = require('../lib/workflows');
const { sleep, waitFor } = require('../lib/wait');

const TRIGGER = 'Inventory Ops Trigger';
const TYPES = ['order.shipped', 'item.inventory'];
const SENDERS = 4;
const SEND_EVERY_MS = 1000;
/** Odd rounds edit the trigger and publish again; even rounds unpublish and publish. */
const ROUNDS = 6;
const PAUSE_MS = 2500;
const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const TITLE =
	'republished under a stream of 4 senders: one handler per type, the stored registration matches the service, nothing refused after, one execution per fresh event';

const step = (text) => process.stdout.write(`under load: ${text} (${new Date().toISOString()})\n`);

/**
 * The scenario, for any e2e context (e2e/lib/context.js): one n8n process, or queue mode's main
 * process with its webhook processors behind a proxy. Returns its figures (also printed).
 */
async function republishUnderStream(context) {
	const { n8n } = context;
	const workflow = triggerWorkflow('e2e trigger under load', context.credential, TYPES, {
		triggerName: TRIGGER,
	});
	const created = await n8n.createWorkflow(workflow);
	const triggerNode = created.nodes.find((node) => node.name === TRIGGER);
	let handlers = await context.publish(created, triggerNode, TYPES);

	// The service's side: events emitted by the sandbox, which delivers them with retries as the real
	// service would.
	const emitted = [];
	let streaming = true;
	/**
	 * What the workflow is going through when an event is emitted: steady, edited and published, or
	 * unpublished.
	 */
	let phase = 'steady';
	const sender = async (index) => {
		for (let n = 0; streaming; n += 1) {
			const type = TYPES[(index + n) % TYPES.length];
			const marker = crypto.randomUUID();
			const { event_id: id } = await context.admin('POST', '/events', { type, data: { marker } });
			emitted.push({ id, type, phase });
			await sleep(SEND_EVERY_MS);
		}
	};
	const senders = Array.from({ length: SENDERS }, (_, index) => sender(index));

	const replacedHandlers = async (what) => {
		const before = new Set(handlers.map((handler) => handler._id));
		return await waitFor(
			async () => {
				const { production } = await context.handlersOf(triggerNode);
				const fresh = production.filter((handler) => !before.has(handler._id));
				return production.length === TYPES.length && fresh.length === TYPES.length
					? production
					: undefined;
			},
			{ what: `the handlers of ${what} to replace the old ones`, timeoutMs: 45_000 },
		);
	};

	/**
	 * The trigger node edited as a user would: 1.x re-registers on saving an active workflow, 2.x on
	 * publishing.
	 */
	const editAndPublish = async (round) => {
		const current = await n8n.getWorkflow(created.id);
		const nodes = current.nodes.map((node) =>
			node.name === TRIGGER
				? {
						...node,
						parameters: { ...node.parameters, options: { includeHeaders: round % 4 === 1 } },
					}
				: node,
		);
		await n8n.updateWorkflow(created.id, {
			name: current.name,
			nodes,
			connections: current.connections,
		});
		if (n8n.major >= 2) await n8n.publish(created.id);
		handlers = await replacedHandlers(`edit ${round}`);
	};

	step('streaming');
	await sleep(PAUSE_MS);
	let lastPublishDone;
	for (let round = 1; round <= ROUNDS; round += 1) {
		if (round % 2 === 1) {
			phase = 'edit';
			await editAndPublish(round);
			step(`round ${round}: edited and published`);
		} else {
			phase = 'unpublished';
			await context.unpublish(created, triggerNode);
			handlers = await context.publish(created, triggerNode, TYPES);
			step(`round ${round}: unpublished and published`);
		}
		phase = 'steady';
		lastPublishDone = Date.now();
		await sleep(PAUSE_MS);
	}
	streaming = false;
	await Promise.all(senders);
	step(`stream stopped after ${emitted.length} events`);
	await sleep(2500); // the sandbox's retries of the last events

	// Exactly one handler per type, and the trigger's stored registration is the one the service
	// holds.
	const { production } = await context.handlersOf(triggerNode);
	expect(production.map((handler) => handler.type).sort()).toEqual([...TYPES].sort());
	const secrets = new Set(production.map((handler) => handler.handler.headers[SECRET_HEADER]));
	expect(secrets.size).toBe(1);
	const stored = JSON.stringify((await n8n.getWorkflow(created.id)).staticData);
	expect(stored).toContain([...secrets][0]);
	for (const handler of production) expect(stored).toContain(handler._id);

	// Every attempt after the last publish finished reached a registered handler and was accepted.
	// Handlers of other workflows in the suite may receive the same event types: only this trigger's
	// deliveries count.
	const isOurs = (delivery) => delivery.url.includes(`/${triggerNode.webhookId}/`);
	const { deliveries } = await context.admin('GET', '/deliveries');
	const ours = deliveries.filter(isOurs);
	const refusedAfter = ours.filter((d) => Date.parse(d.time) > lastPublishDone && d.status !== 200);
	expect(refusedAfter).toEqual([]);

	// A fresh event per type: 200 and exactly one execution each. Executions are told apart by a
	// marker in the event's data, which every delivery body shape carries (a record-only body has no
	// event id).
	const fresh = [];
	for (const type of TYPES) {
		const marker = crypto.randomUUID();
		const { event_id: id } = await context.emit(type, { marker });
		expect((await context.deliveries(id)).filter(isOurs).map((d) => d.status)).toEqual([200]);
		fresh.push(marker);
	}
	const markersOf = (executions) =>
		executions.map(
			(execution) => execution.data.resultData.runData[TRIGGER][0].data.main[0][0].json.data.marker,
		);
	// n8n lists an execution once it has saved it, shortly after the delivery was answered.
	const executions = await waitFor(
		async () => {
			const listed = await n8n.executions(created.id);
			return fresh.every((marker) => markersOf(listed).includes(marker)) ? listed : undefined;
		},
		{ what: 'the executions of the fresh events', timeoutMs: 30_000 },
	);
	const markers = markersOf(executions);
	for (const marker of fresh) expect(markers.filter((seen) => seen === marker)).toHaveLength(1);
	expect(markers.length - new Set(markers).size).toBe(0);

	// Figures for e2e/README.md: what the re-registrations cost, by cause.
	const accepted = new Set(ours.filter((d) => d.status === 200).map((d) => d.event_id));
	const attempted = new Set(ours.map((d) => d.event_id));
	const lost = emitted.filter((event) => !accepted.has(event.id));
	const refusedAttempts = {};
	for (const d of ours.filter((delivery) => delivery.status !== 200)) {
		const key = String(d.status ?? d.error);
		refusedAttempts[key] = (refusedAttempts[key] ?? 0) + 1;
	}
	const figures = {
		host: n8n.host.version,
		events: emitted.length,
		rounds: ROUNDS,
		// Per phase: events emitted then, those never delivered to a handler of ours, and those refused
		// every time.
		byPhase: Object.fromEntries(
			['steady', 'edit', 'unpublished'].map((name) => {
				const inPhase = emitted.filter((event) => event.phase === name);
				const lostInPhase = lost.filter((event) => event.phase === name);
				return [
					name,
					{
						events: inPhase.length,
						noHandler: lostInPhase.filter((event) => !attempted.has(event.id)).length,
						refusedEveryAttempt: lostInPhase.filter((event) => attempted.has(event.id)).length,
					},
				];
			}),
		),
		refusedAttempts,
		executions: executions.length,
	};
	process.stdout.write(`under load figures: ${JSON.stringify(figures)}\n`);

	await context.unpublish(created, triggerNode);
	expect((await context.handlersOf(triggerNode)).all).toEqual([]);
	return figures;
}

module.exports = (getContext) => {
	describe('Inventory Ops Trigger republished under a steady stream of events', () => {
		test(TITLE, async () => {
			await republishUnderStream(getContext());
		});
	});
};
module.exports.republishUnderStream = republishUnderStream;
module.exports.TITLE = TITLE;
