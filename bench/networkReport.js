'use strict';

// The network part of the bench report: the latency grid (ours, one call per item, the ideal, keep-alive against
// a new connection per call) and the capped-batch scenario; figures from one run each.
const GOALS = { oursOverIdeal: 1.25, perItemSpeedupAt20: 100, rssOverLimit: 1.1 };

const fixed = (value, digits = 0) => (value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));
const thousands = (value) => (value === null || value === undefined ? '-' : Math.round(value).toLocaleString('en-US'));

/**
 * The ideal at a latency: the calls ours makes, `calls in flight` at a time, each paying the latency once, plus the
 * transfer at the limit client's speed (its wall time at no latency, same batch size and calls in flight).
 */
function idealMs(calls, callsInFlight, latencyMs, limitAtZeroMs) {
	return Math.ceil(calls / callsInFlight) * latencyMs + limitAtZeroMs;
}

function summariseNetwork(runs, config, mainLimit) {
	const at = (group, kind, latencyMs, extra = () => true) =>
		runs.find((run) => run.group === group && run.kind === kind && run.latencyMs === latencyMs && extra(run));
	const limitAtZeroMs = at('latency', 'limit', 0)?.wallMs ?? mainLimit.ms;
	const latency = config.latencies.map((latencyMs) => {
		const ours = at('latency', 'ours', latencyMs);
		const perItem = at('latency', 'perItem', latencyMs);
		const limit = at('latency', 'limit', latencyMs);
		const newConnection = at('latency', 'limitNewConnection', latencyMs);
		if (!ours || !perItem || !limit || !newConnection) return { latencyMs, missing: true };
		const calls = Math.ceil(ours.asked / ours.batchSize);
		const ideal = idealMs(calls, ours.callsInFlight, latencyMs, limitAtZeroMs);
		const perItemMsPerLookup = perItem.nodeMs / perItem.asked;
		return {
			latencyMs,
			orders: ours.asked,
			oursMs: ours.nodeMs,
			oursCalls: ours.httpCalls,
			oursConnections: ours.connections,
			perItemOrders: perItem.asked,
			perItemMs: perItem.nodeMs,
			perItemConnections: perItem.connections,
			perItemMsForAll: perItemMsPerLookup * ours.asked,
			idealMs: ideal,
			limitMs: limit.wallMs,
			limitNewConnectionMs: newConnection.wallMs,
			oursOverIdeal: ours.nodeMs / ideal,
			perItemOverOurs: (perItemMsPerLookup * ours.asked) / ours.nodeMs,
			newConnectionOverKeepAlive: newConnection.wallMs / limit.wallMs,
		};
	});
	const capped = ['default', 50].map((which) =>
		runs.find((run) => run.group === 'capped' && (which === 'default' ? run.batchSize === config.batchSize : run.batchSize === 50)),
	);
	const goals = latency
		.filter((cell) => !cell.missing && cell.latencyMs > 0)
		.map((cell) => ({ latencyMs: cell.latencyMs, oursOverIdeal: cell.oursOverIdeal, met: cell.oursOverIdeal <= GOALS.oursOverIdeal }));
	const at20 = latency.find((cell) => cell.latencyMs === 20 && !cell.missing);
	return {
		latency,
		capped: capped.every(Boolean)
			? { latencyMs: config.cappedLatencyMs, defaultBatch: config.batchSize, defaultMs: capped[0].nodeMs, defaultCalls: capped[0].httpCalls, fiftyMs: capped[1].nodeMs, fiftyCalls: capped[1].httpCalls, found: [capped[0].found, capped[1].found] }
			: undefined,
		goals: { idealAtLatency: goals, perItemAt20: at20 && { measured: at20.perItemOverOurs, met: at20.perItemOverOurs >= GOALS.perItemSpeedupAt20 } },
	};
}

const LATENCY_HEADER = [
	'latency ms',
	'ours ms',
	'ours calls / connections',
	'per item ms (measured on)',
	'per item ms, scaled to all',
	'ideal ms',
	'ours / ideal',
	'per item / ours',
	'limit keep-alive ms',
	'limit new connection ms',
	'new conn / keep-alive',
];

function latencyRows(network) {
	return network.latency.map((cell) =>
		cell.missing
			? [String(cell.latencyMs), 'not measured', '', '', '', '', '', '', '', '', '']
			: [
					String(cell.latencyMs),
					thousands(cell.oursMs),
					`${cell.oursCalls} / ${cell.oursConnections}`,
					`${thousands(cell.perItemMs)} (${cell.perItemOrders})`,
					thousands(cell.perItemMsForAll),
					thousands(cell.idealMs),
					fixed(cell.oursOverIdeal, 2),
					fixed(cell.perItemOverOurs, 0),
					thousands(cell.limitMs),
					thousands(cell.limitNewConnectionMs),
					fixed(cell.newConnectionOverKeepAlive, 2),
				],
	);
}

function networkLines(network, memory) {
	const lines = [];
	for (const goal of network.goals.idealAtLatency) {
		lines.push(`ours vs the ideal at ${goal.latencyMs} ms: ${fixed(goal.oursOverIdeal, 2)}x (goal <= ${GOALS.oursOverIdeal}x): ${goal.met ? 'met' : 'MISSED'}`);
	}
	const at20 = network.goals.perItemAt20;
	if (at20) lines.push(`ours vs one call per item at 20 ms: ${fixed(at20.measured, 0)}x faster (goal >= ${GOALS.perItemSpeedupAt20}x): ${at20.met ? 'met' : 'MISSED'}`);
	const capped = network.capped;
	if (capped) {
		lines.push(
			`service capped at 50, ${capped.latencyMs} ms per call: Batch Size ${capped.defaultBatch} (the default) took ${thousands(capped.defaultMs)} ms in ${capped.defaultCalls} calls, Batch Size 50 took ${thousands(capped.fiftyMs)} ms in ${capped.fiftyCalls} calls (${fixed(capped.defaultMs / capped.fiftyMs, 2)}x the time, ${capped.defaultCalls - capped.fiftyCalls} extra calls); both found ${capped.found.join(' and ')} orders`,
		);
	}
	if (memory) {
		lines.push(
			`memory: ours grew peak RSS by ${fixed(memory.ours / 2 ** 20, 1)} MiB, the raw limit client by ${fixed(memory.limit / 2 ** 20, 1)} MiB in the same run: ${fixed(memory.ours / memory.limit, 2)}x (goal <= ${GOALS.rssOverLimit}x): ${memory.ours / memory.limit <= GOALS.rssOverLimit ? 'met' : 'MISSED'}`,
		);
	}
	return lines;
}

module.exports = { summariseNetwork, latencyRows, networkLines, LATENCY_HEADER, idealMs };
