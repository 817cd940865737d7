// Sending sandbox events and counting what became of them: the sandbox's delivery log on one side,
// n8n's executions (public API) on the other.
const { outputOf } = require('../../lib/workflows');
const { waitFor } = require('../../lib/wait');

async function adminJson(sandbox, method, urlPath, body) {
	const response = await fetch(`${sandbox.adminUrl}${urlPath}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(
			`${method} /__sandbox${urlPath} answered ${response.status}: ${await response.text()}`,
		);
	return await response.json();
}

const handlers = async (sandbox) => (await adminJson(sandbox, 'GET', '/handlers')).handlers;
const deliveries = async (sandbox) => (await adminJson(sandbox, 'GET', '/deliveries')).deliveries;

/** How many handlers the service holds per event type, e.g. { 'order.shipped': 1 }. */
function handlersPerType(list) {
	const counts = {};
	for (const handler of list) counts[handler.type] = (counts[handler.type] ?? 0) + 1;
	return counts;
}

/**
 * Sends `count` events (types taken in turn from `types`), `concurrency` at a time, each with
 * `?wait=true` so that it answers after its deliveries settled. `onSent(sentSoFar)` runs after
 * every answer (the worker-kill scenario uses it to strike mid-run). Resolves to { ids, ms,
 * perSecond }.
 */
async function sendEvents(
	sandbox,
	{ types, count, concurrency = 20, prefix, onSent = async () => {} },
) {
	const ids = Array.from(
		{ length: count },
		(_, index) => `evt_${prefix}_${String(index).padStart(5, '0')}`,
	);
	let next = 0;
	let sent = 0;
	const started = Date.now();
	const lane = async () => {
		while (next < ids.length) {
			const index = next;
			next += 1;
			const answer = await adminJson(sandbox, 'POST', '/events?wait=true', {
				id: ids[index],
				type: types[index % types.length],
				data: { sequence: index, prefix },
			});
			if (answer.handlers !== 1)
				throw new Error(`event ${ids[index]} reached ${answer.handlers} handlers, expected 1`);
			sent += 1;
			await onSent(sent);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
	const ms = Date.now() - started;
	return { ids, ms, perSecond: Math.round((count / ms) * 1000 * 10) / 10 };
}

/**
 * The sandbox's delivery attempts for the given event ids: delivered once, delivered more than
 * once, never.
 */
async function tallyDeliveries(sandbox, ids) {
	const wanted = new Set(ids);
	const accepted = new Map();
	let attempts = 0;
	for (const attempt of await deliveries(sandbox)) {
		if (!wanted.has(attempt.event_id)) continue;
		attempts += 1;
		if (attempt.status >= 200 && attempt.status < 300)
			accepted.set(attempt.event_id, (accepted.get(attempt.event_id) ?? 0) + 1);
	}
	return {
		attempts,
		deliveredOnce: ids.filter((id) => accepted.get(id) === 1).length,
		deliveredTwiceOrMore: ids.filter((id) => (accepted.get(id) ?? 0) > 1).length,
		notDelivered: ids.filter((id) => !accepted.has(id)).length,
	};
}

/**
 * Every execution of a workflow, without their data unless asked (any N8nInstance: main or a queue
 * process).
 */
const listExecutions = (n8n, workflowId, { includeData = false } = {}) =>
	n8n.executions(workflowId, { includeData });

const isDone = (execution) =>
	execution.stoppedAt !== null &&
	execution.stoppedAt !== undefined &&
	execution.status !== 'running';

/**
 * Waits until the workflow has at least `count` executions and none of them is still running or
 * queued.
 */
async function waitForExecutions(n8n, workflowId, count, { timeoutMs = 180_000 } = {}) {
	return await waitFor(
		async () => {
			const executions = await listExecutions(n8n, workflowId);
			return executions.length >= count && executions.every(isDone) ? executions : undefined;
		},
		{ timeoutMs, intervalMs: 1000, what: `${count} finished executions of workflow ${workflowId}` },
	);
}

/**
 * Which event each execution carried (the trigger's output item), against the ids sent: executed
 * once, executed more than once, never executed, and executions whose status is not success.
 */
async function tallyExecutions(n8n, workflowId, triggerName, ids) {
	const executions = await listExecutions(n8n, workflowId, { includeData: true });
	const perEvent = new Map();
	const executionIdsByEvent = new Map();
	for (const execution of executions) {
		const [item] = outputOf(execution, triggerName) ?? [];
		const eventId = item ? item.eventId : undefined;
		perEvent.set(eventId, (perEvent.get(eventId) ?? 0) + 1);
		executionIdsByEvent.set(eventId, [
			...(executionIdsByEvent.get(eventId) ?? []),
			String(execution.id),
		]);
	}
	const sent = new Set(ids);
	const failed = executions.filter((execution) => execution.status !== 'success');
	return {
		executions: executions.length,
		executionIds: executions.map((execution) => String(execution.id)),
		notSuccessful: failed.length,
		notSuccessfulIds: failed.map((execution) => String(execution.id)).sort(),
		notSuccessfulStatuses: [...new Set(failed.map((execution) => execution.status))],
		executedOnce: ids.filter((id) => perEvent.get(id) === 1).length,
		duplicates: ids.filter((id) => (perEvent.get(id) ?? 0) > 1).length,
		lost: ids.filter((id) => !perEvent.has(id)).length,
		// Executions that carry an event this run did not send, and executions whose data holds no
		// trigger output.
		foreign: [...perEvent.entries()]
			.filter(([id]) => id !== undefined && !sent.has(id))
			.reduce((sum, [, n]) => sum + n, 0),
		withoutEvent: perEvent.get(undefined) ?? 0,
	};
}

module.exports = {
	handlers,
	handlersPerType,
	deliveries,
	sendEvents,
	tallyDeliveries,
	listExecutions,
	waitForExecutions,
	tallyExecutions,
};
