'use strict';

// Medians, ratios, goals and the consistency check of one bench run; the printed table and the
// README section.
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');

const {
	LATENCY_HEADER,
	RATE_HEADER,
	latencyRows,
	networkLines,
	rateRows,
	summariseNetwork,
} = require('./networkReport');

const MiB = 2 ** 20;
const GOALS = { triggerMedianMs: 1 };

function median(values) {
	const sorted = values.filter((value) => typeof value === 'number').sort((a, b) => a - b);
	if (sorted.length === 0) return null;
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function machine() {
	const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
	let memory;
	try {
		memory = execSync('free -h', { encoding: 'utf8' }).trimEnd();
	} catch {
		memory = `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB total`;
	}
	return {
		nproc: os.availableParallelism(),
		cpu: /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model,
		memory,
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
	};
}

/**
 * One row per scenario and setting: medians over its repetitions. `ms` is the node's own time
 * (limit: wall).
 */
function row(runs, extra = {}) {
	const first = runs[0];
	const ms = median(runs.map((run) => run.nodeMs));
	return {
		kind: first.kind,
		batchSize: first.batchSize,
		callsInFlight: first.callsInFlight,
		repetitions: runs.length,
		ms,
		workflowMs: first.kind === 'limit' ? null : median(runs.map((run) => run.wallMs)),
		lookups: first.found,
		lookupsPerSecond: ms ? (first.found / ms) * 1000 : null,
		peakRss: median(runs.map((run) => run.peakRss)),
		rssOverBaseline: median(runs.map((run) => run.peakRss - run.baselineRss)),
		retainedHeap: median(runs.map((run) => run.retainedHeap)),
		ordersBytes: median(runs.map((run) => run.bytes ?? run.ordersBytes)),
		httpCalls: median(runs.map((run) => run.httpCalls)),
		...extra,
	};
}

function summarise(runs, config) {
	const problems = [];
	const lookupRuns = runs.filter((run) => run.kind !== 'trigger');
	const expected = lookupRuns.find((run) => run.kind === 'limit');
	for (const run of lookupRuns) {
		const asked = run.asked ?? config.orders;
		if (run.found !== asked)
			problems.push(
				`${run.group} ${run.kind} b${run.batchSize} f${run.callsInFlight}: found ${run.found} of ${asked} orders`,
			);
		if (expected && asked === config.orders && run.digest !== expected.digest)
			problems.push(
				`${run.group} ${run.kind} b${run.batchSize} f${run.callsInFlight}: found a different set of orders than limit (${run.digest} vs ${expected.digest})`,
			);
	}

	const main = (kind) => runs.filter((run) => run.group === 'main' && run.kind === kind);
	const ours = row(main('ours'));
	const oursList = main('oursList').length > 0 ? row(main('oursList')) : undefined;
	const perItem = row(main('perItem'));
	const limit = row(main('limit'));
	const ordersBytes = limit.ordersBytes;
	const grid = [];
	for (const run of runs.filter(
		(candidate) => candidate.group === 'grid' && candidate.repetition === 0,
	)) {
		if (
			grid.some(
				(cell) =>
					cell.kind === run.kind &&
					cell.batchSize === run.batchSize &&
					cell.callsInFlight === run.callsInFlight,
			)
		)
			continue;
		const same = runs.filter(
			(other) =>
				other.group === 'grid' &&
				other.kind === run.kind &&
				other.batchSize === run.batchSize &&
				other.callsInFlight === run.callsInFlight,
		);
		grid.push(row(same));
	}
	for (const cell of grid.filter((candidate) => candidate.kind !== 'limit')) {
		const limitCell = grid.find(
			(other) =>
				other.kind === 'limit' &&
				other.batchSize === cell.batchSize &&
				other.callsInFlight === cell.callsInFlight,
		);
		cell.shareOfLimit = limitCell ? cell.lookupsPerSecond / limitCell.lookupsPerSecond : null;
	}
	const triggerRun = runs.find((run) => run.kind === 'trigger');
	const trigger = triggerRun && {
		deliveries: triggerRun.deliveries,
		medianMs: triggerRun.medianMs,
		p99Ms: triggerRun.p99Ms,
		maxMs: triggerRun.maxMs,
		heapBytesPerDelivery: triggerRun.heapBytesPerDelivery,
		heapBatchesCounted: triggerRun.heapBatchesCounted,
		bodyBytes: triggerRun.bodyBytes,
		peakRss: triggerRun.peakRss,
	};
	if (trigger && trigger.heapBatchesCounted === 0)
		problems.push('trigger: every heap batch saw a garbage collection, no heap figure');

	const ratios = {
		oursOverPerItem: perItem.ms / ours.ms,
		oursOverLimit: ours.lookupsPerSecond / limit.lookupsPerSecond,
		oursRssOverOrdersBytes: ours.rssOverBaseline / ordersBytes,
		limitRssOverOrdersBytes: limit.rssOverBaseline / ordersBytes,
		oursRetainedOverOrdersBytes: ours.retainedHeap / ordersBytes,
	};
	const goals = {
		triggerMedian: trigger && {
			goal: `< ${GOALS.triggerMedianMs} ms`,
			measured: trigger.medianMs,
			met: trigger.medianMs < GOALS.triggerMedianMs,
		},
	};
	// The same ratios within each repetition (runs next to each other in time), to show how much the
	// noise moves them.
	const byRepetition = [...new Set(main('ours').map((run) => run.repetition))].map((repetition) => {
		const at = (kind) => main(kind).find((run) => run.repetition === repetition);
		const [o, l, p, list] = [at('ours'), at('limit'), at('perItem'), at('oursList')];
		return {
			repetition,
			oursOverPerItem: p && o ? p.nodeMs / o.nodeMs : null,
			oursOverLimit: l && o ? l.nodeMs / o.nodeMs : null,
			oursListOverPerItem: p && list ? p.nodeMs / list.nodeMs : null,
			oursListOverLimit: l && list ? l.nodeMs / list.nodeMs : null,
		};
	});
	if (oursList) {
		ratios.oursListOverPerItem = perItem.ms / oursList.ms;
		ratios.oursListOverLimit = oursList.lookupsPerSecond / limit.lookupsPerSecond;
	}
	const network = config.latencies ? summariseNetwork(runs, config, limit) : undefined;
	const memory = { ours: ours.rssOverBaseline, limit: limit.rssOverBaseline };
	return {
		ours,
		oursList,
		perItem,
		limit,
		ordersBytes,
		ratios,
		byRepetition,
		goals,
		grid,
		gridKind: config.gridKind,
		trigger,
		network,
		memory,
		problems,
	};
}

const fixed = (value, digits = 0) =>
	value === null || value === undefined ? '-' : value.toFixed(digits);
const thousands = (value) =>
	value === null || value === undefined ? '-' : Math.round(value).toLocaleString('en-US');
const mib = (bytes) => fixed(bytes / MiB, 1);

function mainRows(summary) {
	const { ours, oursList, perItem, limit } = summary;
	const label = {
		ours: 'ours (Inventory Ops, Get Many, one item per order)',
		oursList: 'ours, one item listing all references',
		perItem: 'per item (one call per item, n8n helper)',
		limit: 'limit (raw bulk HTTP, keep-alive)',
	};
	return [ours, oursList, perItem, limit]
		.filter(Boolean)
		.map((entry) => [
			label[entry.kind],
			entry.kind === 'perItem' ? '1' : String(entry.batchSize),
			entry.kind === 'perItem' ? '1' : String(entry.callsInFlight),
			thousands(entry.ms),
			thousands(entry.lookupsPerSecond),
			thousands(entry.httpCalls),
			mib(entry.peakRss),
			mib(entry.rssOverBaseline),
			fixed(ours.lookupsPerSecond / entry.lookupsPerSecond, 2),
		]);
}

const MAIN_HEADER = [
	'scenario',
	'batch',
	'in flight',
	'time ms (median)',
	'lookups/s',
	'HTTP calls',
	'peak RSS MiB',
	'RSS growth MiB',
	'ours / this',
];
const GRID_HEADER = [
	'batch',
	'in flight',
	'ours ms',
	'ours lookups/s',
	'limit lookups/s',
	'ours / limit',
	'ours peak RSS MiB',
];

function gridRows(summary) {
	return summary.grid
		.filter((cell) => cell.kind !== 'limit')
		.map((cell) => {
			const limitCell = summary.grid.find(
				(other) =>
					other.kind === 'limit' &&
					other.batchSize === cell.batchSize &&
					other.callsInFlight === cell.callsInFlight,
			);
			return [
				String(cell.batchSize),
				String(cell.callsInFlight),
				thousands(cell.ms),
				thousands(cell.lookupsPerSecond),
				thousands(limitCell?.lookupsPerSecond),
				fixed(cell.shareOfLimit, 2),
				mib(cell.peakRss),
			];
		});
}

const gridShape = (config) =>
	config.gridKind === 'ours'
		? 'one input item per order'
		: 'one input item listing all references, so that per-item expression work does not hide the effect';

function goalLines(summary) {
	const { goals, ratios, ordersBytes, ours, limit, trigger } = summary;
	const verdict = (goal) => (goal.met ? 'met' : 'MISSED');
	return [
		`ours vs per item: ${fixed(ratios.oursOverPerItem, 1)}x faster`,
		`ours vs limit: ${fixed(ratios.oursOverLimit * 100, 0)}% of the limit's lookups/s`,
		...(summary.oursList
			? [
					`the node without per-item expressions (one input item listing all references): ${fixed(ratios.oursListOverPerItem, 1)}x per item, ${fixed(ratios.oursListOverLimit * 100, 0)}% of the limit`,
				]
			: []),
		`ratios within each repetition (ours / per item, ours / limit): ${summary.byRepetition.map((entry) => `${fixed(entry.oursOverPerItem, 1)}x, ${fixed(entry.oursOverLimit * 100, 0)}%`).join('; ')}`,
		`memory: ours grew RSS by ${mib(ours.rssOverBaseline)} MiB over its baseline for ${mib(ordersBytes)} MiB of orders received = ${fixed(ratios.oursRssOverOrdersBytes, 2)}x. For scale: the raw limit client grew ${fixed(ratios.limitRssOverOrdersBytes, 2)}x; ours still held ${mib(ours.retainedHeap)} MiB of heap (${fixed(ratios.oursRetainedOverOrdersBytes, 2)}x) after a full GC with the output items alive; absolute peak RSS ${mib(ours.peakRss)} MiB includes n8n itself`,
		trigger
			? `trigger: verify + emit median ${fixed(trigger.medianMs, 3)} ms, p99 ${fixed(trigger.p99Ms, 3)} ms over ${trigger.deliveries} deliveries (goal < 1 ms median): ${verdict(goals.triggerMedian)}; heap ${thousands(trigger.heapBytesPerDelivery)} B allocated per delivery beyond its ${trigger.bodyBytes} B body`
			: 'trigger: not measured',
	];
}

function textTable(header, rows) {
	const widths = header.map((cell, column) =>
		Math.max(cell.length, ...rows.map((row) => row[column].length)),
	);
	const line = (cells) =>
		cells
			.map((cell, column) =>
				column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
			)
			.join('  ');
	return [
		line(header),
		widths.map((width) => '-'.repeat(width)).join('  '),
		...rows.map(line),
	].join('\n');
}

function markdownTable(header, rows) {
	return [
		`| ${header.join(' | ')} |`,
		`|${header.map((_, column) => (column === 0 ? '---' : '---:')).join('|')}|`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
}

function printTable({ summary, config }) {
	const out = [
		'',
		`${config.orders} lookups, median of ${config.repetitions} run(s) each; time = the node's own time in the engine (limit: wall time)`,
		textTable(MAIN_HEADER, mainRows(summary)),
		'',
		`grid for ours (${gridShape(config)}, 1 run each), with the limit at the same setting:`,
		textTable(GRID_HEADER, gridRows(summary)),
		'',
		...goalLines(summary),
		'',
		...(summary.network
			? [
					'network (sandbox latency per call; one run each):',
					textTable(LATENCY_HEADER, latencyRows(summary.network)),
					'',
					...(summary.network.rateLimited.length > 0
						? ['rate-limited services:', textTable(RATE_HEADER, rateRows(summary.network)), '']
						: []),
					...networkLines(summary.network, summary.memory),
					'',
				]
			: []),
	];
	process.stdout.write(`${out.join('\n')}\n`);
}

function networkMarkdown(summary, config) {
	return [
		'### Over a network: Calls in Flight by latency',
		'',
		`The sandbox's \`latencyMs\` switch makes every call wait that long (a call on a new connection twice as long: its TCP handshake, no TLS; n8n's request helper opens one per call). Ours and fixed ${config.fixedCallsInFlight}: the medians of ${config.repetitions} interleaved runs per latency (single runs of a cell differ by 15-25% from one full run to the next); the other clients one run per cell; ${config.orders.toLocaleString('en-US')} lookups, Batch Size ${config.batchSize}. **ours** is the node with its defaults (Calls in Flight 0 = Auto, Max Calls in Flight 16); **fixed ${config.fixedCallsInFlight}** the same node with Calls in Flight ${config.fixedCallsInFlight} (the default before Auto). The ideal, computed as before Auto: the calls at Batch Size ${config.batchSize}, ${config.fixedCallsInFlight} at a time, each paying the latency once, plus the transfer at the raw client's speed (the median of its times at no latency, ${config.fixedCallsInFlight} in flight). The raw keep-alive client ran at ${config.limitCallsInFlight.join(', ')} calls in flight; its best is shown (reported, not a goal). One call per item is measured on the first references only (the count in brackets) and scaled to all by its time per lookup. "Auto settled / peak" is what the node's notice said. "ours calls / connections" counts what the sandbox received.`,
		'',
		markdownTable(LATENCY_HEADER, latencyRows(summary.network)),
		'',
		'![ours / ideal by latency: Auto, fixed 4 and the raw keep-alive client at its best](latency.svg)',
		'',
		...(summary.network.rateLimited.length > 0
			? [
					`Rate-limited services (the sandbox's per-token limit, ${summary.network.rateLimited[0].latencyMs} ms per call, Rate Limit Wait 600 s so that the budget is not what is measured; a fresh window for each run; 429s as the sandbox answered them):`,
					'',
					markdownTable(RATE_HEADER, rateRows(summary.network)),
					'',
				]
			: []),
		...networkLines(summary.network, summary.memory).map((line) => `- ${line}`),
		'',
	];
}

function markdownReport(
	{ summary, config, machine: host, generatedAt, durationMs },
	{ chartPath = 'throughput.svg' } = {},
) {
	return [
		'## Benchmark',
		'',
		`Measured by \`npm run bench\` on ${generatedAt.slice(0, 10)} (whole run ${Math.round(durationMs / 1000)} s): ${config.orders.toLocaleString('en-US')} order lookups against the sandbox in its own process, rate limit off. Every scenario runs in a fresh process (so peak RSS is its own); ours, per item and limit ran ${config.repetitions} times each, interleaved, and the table shows medians. Time is the node's own execution time as n8n's engine records it (limit: wall time of the client). Ratios come from one run on one machine, so its noise cancels out.`,
		'',
		"- **ours**: Inventory Ops → Order → Get Many over one input item per order, through n8n's real engine (`WorkflowExecute`), Look Up By = Fields of Each Input Item (`store_id`, `order_number`), default batch options. With Look Up By = Store ID and Order Number as expressions, n8n evaluates two expressions per item, which cost ~74% of the node's time in an earlier run (848 lookups/s, 3.9x per item).",
		'- **ours, one item listing all references**: the same node with Look Up By = List of References and one input item; it shows what the node costs with a single input item.',
		"- **per item**: one `get_single_bulk` call per input item, one item at a time, through n8n's `httpRequestWithAuthentication` — what a workflow built from the HTTP Request node does, without its per-item parameter work.",
		`- **limit**: the same references as raw bulk calls from a plain Node \`http\` client with keep-alive, same batch size, ${config.fixedCallsInFlight} calls in flight (ours: Calls in Flight Auto, the default).`,
		'',
		markdownTable(MAIN_HEADER, mainRows(summary)),
		'',
		...goalLines(summary).map((line) => `- ${line}`),
		'',
		`Batch size × calls in flight for ours (${gridShape(config)}; one run each), next to the limit at the same setting:`,
		'',
		markdownTable(GRID_HEADER, gridRows(summary)),
		'',
		`![Lookups per second: ours, per item and the limit, and the batch size x calls in flight grid](${chartPath})`,
		'',
		...(summary.network ? networkMarkdown(summary, config) : []),
		`Machine: ${host.nproc} cores (\`nproc\`), ${host.cpu}, Node ${host.node}, ${host.platform}; shared with other engineers' test runs while measured (load average ${host.loadAverageAtStart?.join(' / ') ?? '-'} at the start, ${host.loadAverage.join(' / ')} at the end, 1/5/15 min). \`free -h\`:`,
		'',
		'```',
		host.memory,
		'```',
		'',
	].join('\n');
}

module.exports = { machine, markdownReport, printTable, summarise, median };
