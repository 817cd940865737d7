'use strict';

// The network part of the bench report: the latency grid (ours with Calls in Flight Auto and fixed
// at 4, one call per item, the ideal, the raw keep-alive client at its best width, keep-alive
// against a new connection per call), the capped-batch scenario and the rate-limited services;
// figures from one run each, but ours (Auto and fixed 4) at every latency, the median of
// interleaved repetitions.
const GOALS = {
	oursOverIdeal: 1.15,
	oursOverFixedAtZero: 1.05,
	perItemSpeedupAt20: 100,
	rssOverLimit: 1.1,
};

const fixed = (value, digits = 0) =>
	value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits);
const thousands = (value) =>
	value === null || value === undefined ? '-' : Math.round(value).toLocaleString('en-US');

/**
 * The ideal at a latency, as the bench has computed it since before Auto: the calls at the default
 * batch size, `callsInFlight` (the fixed 4) at a time, each paying the latency once, plus the
 * transfer at the limit client's speed (its wall time at no latency, same batch size and calls in
 * flight: the median of all such runs).
 */
function idealMs(calls, callsInFlight, latencyMs, limitAtZeroMs) {
	return Math.ceil(calls / callsInFlight) * latencyMs + limitAtZeroMs;
}

/** What Auto's notice said: where the run settled and the most it kept in flight. */
function autoSettled(run) {
	const match = /settled on (\d+) at a time in this run \(it reached (\d+)/.exec(
		(run?.hints ?? []).join(' '),
	);
	return match ? { settledOn: Number(match[1]), peak: Number(match[2]) } : undefined;
}

function summariseNetwork(runs, config, mainLimit) {
	const fixedWidth = config.fixedCallsInFlight;
	const at = (group, kind, latencyMs, extra = () => true) =>
		runs.find(
			(run) =>
				run.group === group && run.kind === kind && run.latencyMs === latencyMs && extra(run),
		);
	// The main scenarios' runs of the raw client and the grid's at 0 ms are the same setting: their
	// median, since one run's noise moved the ideal, and with it every ours / ideal, by up to a
	// tenth. Of an even count, the lower middle value: the ideal errs towards fast.
	const limitAtZero = runs
		.filter(
			(run) =>
				run.kind === 'limit' &&
				run.latencyMs === 0 &&
				run.batchSize === config.batchSize &&
				run.callsInFlight === fixedWidth,
		)
		.filter((run) => run.group === 'main' || run.group === 'latency')
		.map((run) => run.wallMs)
		.sort((a, b) => a - b);
	const limitAtZeroMs =
		limitAtZero.length > 0 ? limitAtZero[Math.floor((limitAtZero.length - 1) / 2)] : mainLimit.ms;
	/** The run of median time among the repetitions of one cell (one run: that run). */
	const medianAt = (group, kind, latencyMs, extra) => {
		const matching = runs.filter(
			(run) =>
				run.group === group && run.kind === kind && run.latencyMs === latencyMs && extra(run),
		);
		return matching.sort((a, b) => a.nodeMs - b.nodeMs)[Math.floor((matching.length - 1) / 2)];
	};
	const latency = config.latencies.map((latencyMs) => {
		const ours = medianAt('latency', 'ours', latencyMs, (run) => run.callsInFlight === 'auto');
		const oursFixed = medianAt(
			'latency',
			'ours',
			latencyMs,
			(run) => run.callsInFlight === fixedWidth,
		);
		const perItem = at('latency', 'perItem', latencyMs);
		const limit = at('latency', 'limit', latencyMs, (run) => run.callsInFlight === fixedWidth);
		const limits = runs.filter(
			(run) => run.group === 'latency' && run.kind === 'limit' && run.latencyMs === latencyMs,
		);
		const bestLimit = limits.reduce(
			(best, run) => (best === undefined || run.wallMs < best.wallMs ? run : best),
			undefined,
		);
		const newConnection = at('latency', 'limitNewConnection', latencyMs);
		if (!ours || !oursFixed || !perItem || !limit || !newConnection)
			return { latencyMs, missing: true };
		const calls = Math.ceil(ours.asked / ours.batchSize);
		const ideal = idealMs(calls, fixedWidth, latencyMs, limitAtZeroMs);
		const perItemMsPerLookup = perItem.nodeMs / perItem.asked;
		const settled = autoSettled(ours);
		return {
			latencyMs,
			orders: ours.asked,
			oursMs: ours.nodeMs,
			oursCalls: ours.httpCalls,
			oursConnections: ours.connections,
			autoSettledOn: settled?.settledOn,
			autoPeak: settled?.peak,
			oursFixedMs: oursFixed.nodeMs,
			perItemOrders: perItem.asked,
			perItemMs: perItem.nodeMs,
			perItemConnections: perItem.connections,
			perItemMsForAll: perItemMsPerLookup * ours.asked,
			idealMs: ideal,
			limitMs: limit.wallMs,
			bestLimitMs: bestLimit.wallMs,
			bestLimitCallsInFlight: bestLimit.callsInFlight,
			limitNewConnectionMs: newConnection.wallMs,
			oursOverIdeal: ours.nodeMs / ideal,
			oursFixedOverIdeal: oursFixed.nodeMs / ideal,
			oursOverFixed: ours.nodeMs / oursFixed.nodeMs,
			oursOverBestLimit: ours.nodeMs / bestLimit.wallMs,
			perItemOverOurs: (perItemMsPerLookup * ours.asked) / ours.nodeMs,
			newConnectionOverKeepAlive: newConnection.wallMs / limit.wallMs,
		};
	});
	const capped = ['default', 50].map((which) =>
		runs.find(
			(run) =>
				run.group === 'capped' &&
				(which === 'default' ? run.batchSize === config.batchSize : run.batchSize === 50),
		),
	);
	const rateLimited = [
		...new Set(runs.filter((run) => run.group === 'rateLimited').map((run) => run.tag)),
	].map((tag) => {
		const of = (callsInFlight) =>
			runs.find(
				(run) =>
					run.group === 'rateLimited' && run.tag === tag && run.callsInFlight === callsInFlight,
			);
		const [auto, fixedRun] = [of('auto'), of(fixedWidth)];
		// As the sandbox answered them (a run whose batches grow makes fewer calls than batches of
		// Batch Size).
		const limitedOf = (run) => run?.tooManyRequests;
		return {
			tag,
			latencyMs: auto?.latencyMs,
			orders: auto?.asked,
			autoMs: auto?.nodeMs,
			fixedMs: fixedRun?.nodeMs,
			autoLimited: limitedOf(auto),
			fixedLimited: limitedOf(fixedRun),
			autoSettled: autoSettled(auto),
			found: [auto?.found, fixedRun?.found],
		};
	});
	const goals = latency
		.filter((cell) => !cell.missing && cell.latencyMs > 0)
		.map((cell) => ({
			latencyMs: cell.latencyMs,
			oursOverIdeal: cell.oursOverIdeal,
			met: cell.oursOverIdeal <= GOALS.oursOverIdeal,
		}));
	const at0 = latency.find((cell) => cell.latencyMs === 0 && !cell.missing);
	const at20 = latency.find((cell) => cell.latencyMs === 20 && !cell.missing);
	return {
		latency,
		capped: capped.every(Boolean)
			? {
					latencyMs: config.cappedLatencyMs,
					defaultBatch: config.batchSize,
					defaultMs: capped[0].nodeMs,
					defaultCalls: capped[0].httpCalls,
					fiftyMs: capped[1].nodeMs,
					fiftyCalls: capped[1].httpCalls,
					found: [capped[0].found, capped[1].found],
				}
			: undefined,
		rateLimited,
		fixedCallsInFlight: fixedWidth,
		goals: {
			idealAtLatency: goals,
			fixedAtZero: at0 && {
				measured: at0.oursOverFixed,
				met: at0.oursOverFixed <= GOALS.oursOverFixedAtZero,
			},
			perItemAt20: at20 && {
				measured: at20.perItemOverOurs,
				met: at20.perItemOverOurs >= GOALS.perItemSpeedupAt20,
			},
			rateLimited: rateLimited.map((cell) => ({
				tag: cell.tag,
				met: cell.autoLimited <= cell.fixedLimited,
			})),
		},
	};
}

const LATENCY_HEADER = [
	'latency ms',
	'ours (Auto) ms',
	'Auto settled / peak',
	'fixed 4 ms',
	'ideal ms',
	'ours / ideal',
	'fixed 4 / ideal',
	'ours / fixed 4',
	'raw keep-alive at its best (in flight)',
	'ours / raw best',
	'per item ms, scaled to all (measured on)',
	'per item / ours',
	'ours calls / connections',
	'raw new conn / keep-alive (4)',
];

function latencyRows(network) {
	return network.latency.map((cell) =>
		cell.missing
			? [String(cell.latencyMs), 'not measured', ...Array(LATENCY_HEADER.length - 2).fill('')]
			: [
					String(cell.latencyMs),
					thousands(cell.oursMs),
					cell.autoSettledOn === undefined
						? '4 / 4 (no notice)'
						: `${cell.autoSettledOn} / ${cell.autoPeak}`,
					thousands(cell.oursFixedMs),
					thousands(cell.idealMs),
					fixed(cell.oursOverIdeal, 2),
					fixed(cell.oursFixedOverIdeal, 2),
					fixed(cell.oursOverFixed, 2),
					`${thousands(cell.bestLimitMs)} (${cell.bestLimitCallsInFlight})`,
					fixed(cell.oursOverBestLimit, 2),
					`${thousands(cell.perItemMsForAll)} (${cell.perItemOrders})`,
					fixed(cell.perItemOverOurs, 0),
					`${cell.oursCalls} / ${cell.oursConnections}`,
					fixed(cell.newConnectionOverKeepAlive, 2),
				],
	);
}

const RATE_HEADER = [
	'service limit',
	'orders',
	'Auto ms',
	'Auto 429s',
	'Auto settled / peak',
	'fixed 4 ms',
	'fixed 4 429s',
];

function rateRows(network) {
	return network.rateLimited.map((cell) => [
		cell.tag,
		thousands(cell.orders),
		thousands(cell.autoMs),
		String(cell.autoLimited ?? '-'),
		cell.autoSettled ? `${cell.autoSettled.settledOn} / ${cell.autoSettled.peak}` : '-',
		thousands(cell.fixedMs),
		String(cell.fixedLimited ?? '-'),
	]);
}

function networkLines(network, memory) {
	const lines = [];
	for (const goal of network.goals.idealAtLatency) {
		lines.push(
			`ours (Auto) vs the ideal at ${goal.latencyMs} ms: ${fixed(goal.oursOverIdeal, 2)}x (goal <= ${GOALS.oursOverIdeal}x): ${goal.met ? 'met' : 'MISSED'}`,
		);
	}
	const at0 = network.goals.fixedAtZero;
	if (at0)
		lines.push(
			`ours (Auto) vs fixed ${network.fixedCallsInFlight} at 0 ms: ${fixed(at0.measured, 2)}x the time (goal <= ${GOALS.oursOverFixedAtZero}x): ${at0.met ? 'met' : 'MISSED'}`,
		);
	const at20 = network.goals.perItemAt20;
	if (at20)
		lines.push(
			`ours vs one call per item at 20 ms: ${fixed(at20.measured, 0)}x faster (goal >= ${GOALS.perItemSpeedupAt20}x): ${at20.met ? 'met' : 'MISSED'}`,
		);
	for (const cell of network.rateLimited) {
		lines.push(
			`rate limit ${cell.tag} (${cell.orders} orders, ${cell.latencyMs} ms per call): Auto drew ${cell.autoLimited} 429s in ${thousands(cell.autoMs)} ms, fixed ${network.fixedCallsInFlight} drew ${cell.fixedLimited} in ${thousands(cell.fixedMs)} ms (goal: Auto no more): ${cell.autoLimited <= cell.fixedLimited ? 'met' : 'MISSED'}; found ${cell.found.join(' and ')}`,
		);
	}
	const capped = network.capped;
	if (capped) {
		lines.push(
			`service capped at 50, ${capped.latencyMs} ms per call: Batch Size ${capped.defaultBatch} (the default) took ${thousands(capped.defaultMs)} ms in ${capped.defaultCalls} calls, Batch Size 50 took ${thousands(capped.fiftyMs)} ms in ${capped.fiftyCalls} calls (${fixed(capped.defaultMs / capped.fiftyMs, 2)}x the time, ${capped.defaultCalls - capped.fiftyCalls} extra calls); both found ${capped.found.join(' and ')} orders`,
		);
	}
	if (memory) {
		lines.push(
			`memory: ours (Auto) grew peak RSS by ${fixed(memory.ours / 2 ** 20, 1)} MiB, the raw limit client by ${fixed(memory.limit / 2 ** 20, 1)} MiB in the same run (medians of the main runs): ${fixed(memory.ours / memory.limit, 2)}x (goal <= ${GOALS.rssOverLimit}x): ${memory.ours / memory.limit <= GOALS.rssOverLimit ? 'met' : 'MISSED'}`,
		);
	}
	return lines;
}

module.exports = {
	summariseNetwork,
	latencyRows,
	rateRows,
	networkLines,
	LATENCY_HEADER,
	RATE_HEADER,
	idealMs,
};
