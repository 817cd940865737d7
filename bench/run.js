'use strict';

// `npm run bench` (full) and `npm run bench:smoke` (small, for CI). See bench/README.md.
//
// Starts the sandbox in a child process, then runs every scenario in a fresh child process of its
// own (bench/scenario.js) so that each peak RSS is that scenario's alone, repeats the main ones,
// and reports medians. Exits non-zero when a scenario fails or when ours, per item and limit did
// not all find the same set of orders. It asserts nothing about speed.
const { fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { drawChart, drawLatencyChart } = require('./chart');
const { runNetworkScenarios } = require('./network');
const { machine, markdownReport, printTable, summarise } = require('./report');

const ROOT = path.resolve(__dirname, '..');
const smoke = process.argv.includes('--smoke');
const env = (name, fallback) => (process.env[name] === undefined ? fallback : process.env[name]);
const list = (value) =>
	String(value)
		.split(',')
		.map(Number)
		.filter((n) => n > 0);

function nodeDefaults() {
	const compiled = path.join(ROOT, 'dist/nodes/InventoryOps/InventoryOps.node.js');
	if (!fs.existsSync(compiled))
		throw new Error(
			'dist/ is missing: run `npm run build` first (the bench measures the compiled package)',
		);
	const { InventoryOps } = require(compiled);
	const options = new InventoryOps().description.properties.find(
		(property) =>
			property.name === 'options' && property.displayOptions?.show?.operation?.includes('lookUp'),
	);
	const defaultOf = (name) => options.options.find((option) => option.name === name).default;
	// Calls in Flight 0 is Auto: runs of ours record it as 'auto'; clients that need a number take
	// the fixed one.
	return { batchSize: defaultOf('batchSize'), callsInFlight: defaultOf('callsInFlight') || 'auto' };
}

/**
 * The fixed Calls in Flight before Auto: the ideal's width, "fixed 4", and the limit client's
 * default width.
 */
const FIXED_CALLS_IN_FLIGHT = 4;

const config = {
	smoke,
	orders: Number(env('BENCH_ORDERS', smoke ? 500 : 10_000)),
	repetitions: Number(env('BENCH_REPS', smoke ? 1 : 3)),
	gridBatchSizes: list(env('BENCH_GRID_BATCH', smoke ? '25,500' : '25,100,500')),
	gridCallsInFlight: list(env('BENCH_GRID_IN_FLIGHT', smoke ? '1,4' : '1,2,4,8')),
	// The grid varies only batch size and calls in flight. With one input item per order, n8n's
	// evaluation of two expressions per item costs the same in every cell and hides the difference,
	// so by default the grid feeds the node one item listing all references ('list');
	// BENCH_GRID_SHAPE=fields runs it one item per order instead.
	gridKind: env('BENCH_GRID_SHAPE', 'list') === 'fields' ? 'ours' : 'oursList',
	deliveries: Number(env('BENCH_DELIVERIES', smoke ? 500 : 10_000)),
	latencies: String(env('BENCH_LATENCIES', smoke ? '20' : '0,20,100,300'))
		.split(',')
		.map(Number)
		.filter((n) => n >= 0),
	// The raw keep-alive client at each latency, at these fixed calls in flight; the best of them is
	// reported.
	limitCallsInFlight: list(env('BENCH_LIMIT_IN_FLIGHT', smoke ? '4' : '4,8,16')),
	fixedCallsInFlight: FIXED_CALLS_IN_FLIGHT,
	rateLimitedOrders: Number(env('BENCH_RATE_LIMITED_ORDERS', 2000)),
	perItemOrders: Number(env('BENCH_PER_ITEM_ORDERS', smoke ? 20 : 500)),
	cappedLatencyMs: Number(env('BENCH_CAPPED_LATENCY', 20)),
	outDir: path.resolve(ROOT, env('BENCH_OUT', smoke ? 'reports/bench-smoke' : 'bench')),
	profileDir: process.env.BENCH_CPU_PROF
		? path.resolve(ROOT, process.env.BENCH_CPU_PROF)
		: undefined,
	scenarioTimeoutMs: Number(env('BENCH_SCENARIO_TIMEOUT_MS', 240_000)),
	...nodeDefaults(),
};

function log(line) {
	process.stderr.write(`${line}\n`);
}

function startSandbox() {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'sandbox-process.js'), [], {
			env: { ...process.env, BENCH_ORDERS: String(config.orders) },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		child.once('message', (message) => resolve({ child, info: message.ready }));
		child.once('exit', (code) => reject(new Error(`the bench sandbox exited with code ${code}`)));
	});
}

/** Runs one scenario in a fresh child process; resolves to its figures. */
function runScenario(task) {
	const execArgv = ['--expose-gc'];
	// A larger young generation lets the trigger's heap batches run without a scavenge in the middle.
	if (task.kind === 'trigger') execArgv.push('--max-semi-space-size=64');
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'scenario.js'), [], {
			execArgv,
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let answer;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${task.label}: no answer within ${config.scenarioTimeoutMs} ms`));
		}, config.scenarioTimeoutMs);
		child.once('message', (message) => (answer = message));
		child.once('exit', (code) => {
			clearTimeout(timer);
			if (answer?.ok) resolve(answer.result);
			else
				reject(new Error(`${task.label} failed (exit ${code}): ${answer?.error ?? 'no answer'}`));
		});
		child.send(task);
	});
}

async function fetchReferences(adminUrl, count) {
	const response = await fetch(`${adminUrl}/orders?limit=${count}`);
	if (!response.ok) throw new Error(`GET /__sandbox/orders: ${response.status}`);
	const { orders } = await response.json();
	return orders.map(({ store_id, order_number }) => ({ store_id, order_number }));
}

const README = path.join(__dirname, 'README.md');
const RESULTS_START = '<!-- bench results: written by npm run bench -->';
const RESULTS_END = '<!-- end of bench results -->';

/** Puts the latest full run into bench/README.md between the markers. */
function updateReadme(results) {
	const readme = fs.readFileSync(README, 'utf8');
	const start = readme.indexOf(RESULTS_START);
	const end = readme.indexOf(RESULTS_END);
	if (start < 0 || end < start) return;
	const section = markdownReport(results, { chartPath: 'throughput.svg' }).replace(
		/^## Benchmark\n\n/,
		'',
	);
	fs.writeFileSync(
		README,
		`${readme.slice(0, start + RESULTS_START.length)}\n${section}${readme.slice(end)}`,
	);
}

async function main() {
	const started = Date.now();
	const loadAverageAtStart = os.loadavg().map((value) => Number(value.toFixed(2)));
	fs.mkdirSync(config.outDir, { recursive: true });
	if (config.profileDir) fs.mkdirSync(config.profileDir, { recursive: true });
	log(
		`bench: ${config.orders} orders, ${config.repetitions} repetition(s), node defaults batch ${config.batchSize} x ${config.callsInFlight} in flight`,
	);

	const { child: sandboxProcess, info: sandbox } = await startSandbox();
	const runs = [];
	try {
		const references = await fetchReferences(sandbox.adminUrl, config.orders);
		if (references.length !== config.orders)
			throw new Error(`the sandbox has ${references.length} orders, not ${config.orders}`);
		log(`bench: sandbox seeded in ${Math.round(sandbox.seedMs)} ms at ${sandbox.origin}`);

		const measure = async (
			kind,
			{
				batchSize = config.batchSize,
				callsInFlight = config.callsInFlight,
				group,
				repetition = 0,
				latencyMs = 0,
				references: asked = references,
				options = {},
				tag,
			},
		) => {
			// Only the node knows Auto; the raw clients run at a fixed width.
			if (callsInFlight === 'auto' && kind.startsWith('limit'))
				callsInFlight = config.fixedCallsInFlight;
			const label = `${group}-${kind}-b${batchSize}-f${callsInFlight}-l${latencyMs}${tag ? `-${tag}` : ''}-r${repetition}`;
			const nodeCallsInFlight = callsInFlight === 'auto' ? 0 : callsInFlight;
			const task = {
				kind,
				label,
				sandbox,
				references: asked,
				batchSize,
				callsInFlight: nodeCallsInFlight,
				options,
				deliveries: config.deliveries,
				profileDir: config.profileDir,
			};
			const result = await runScenario(task);
			const perItem = kind === 'perItem';
			const run = {
				group,
				kind,
				tag,
				batchSize: perItem ? 1 : batchSize,
				callsInFlight: perItem ? 1 : callsInFlight,
				repetition,
				latencyMs,
				asked: asked.length,
				...result,
			};
			runs.push(run);
			const figures =
				kind === 'trigger'
					? `median ${run.medianMs.toFixed(3)} ms, p99 ${run.p99Ms.toFixed(3)} ms, heap ${Math.round(run.heapBytesPerDelivery)} B/delivery`
					: `${Math.round(run.nodeMs)} ms, found ${run.found}, ${run.httpCalls} calls, peak RSS ${(run.peakRss / 2 ** 20).toFixed(0)} MiB${run.hints?.length ? `; ${run.hints.join(' ')}` : ''}`;
			log(`  ${label}: ${figures}`);
		};

		for (let repetition = 0; repetition < config.repetitions; repetition++) {
			for (const kind of ['ours', 'oursList', 'perItem', 'limit'])
				await measure(kind, { group: 'main', repetition });
		}
		for (const batchSize of config.gridBatchSizes) {
			for (const callsInFlight of config.gridCallsInFlight) {
				for (const kind of [config.gridKind, 'limit'])
					await measure(kind, { group: 'grid', batchSize, callsInFlight });
			}
		}
		await measure('trigger', { group: 'trigger' });
		await runNetworkScenarios({ measure, adminUrl: sandbox.adminUrl, references, config });
	} finally {
		sandboxProcess.send('close');
	}

	const summary = summarise(runs, config);
	const results = {
		generatedAt: new Date().toISOString(),
		durationMs: Date.now() - started,
		machine: { ...machine(), loadAverageAtStart },
		config: { ...config, outDir: path.relative(ROOT, config.outDir), profileDir: undefined },
		summary,
		runs,
	};
	fs.writeFileSync(
		path.join(config.outDir, 'results.json'),
		`${JSON.stringify(results, null, 2)}\n`,
	);
	fs.writeFileSync(path.join(config.outDir, 'throughput.svg'), await drawChart(summary));
	if (summary.network)
		fs.writeFileSync(
			path.join(config.outDir, 'latency.svg'),
			await drawLatencyChart(summary.network),
		);
	fs.writeFileSync(path.join(config.outDir, 'results.md'), markdownReport(results));
	// Only a full run into bench/ is the README's run; smoke, profiling and other BENCH_OUT runs
	// leave it alone.
	if (!config.smoke && config.outDir === __dirname && !config.profileDir) updateReadme(results);
	printTable(results);
	log(
		`bench: wrote ${path.relative(ROOT, config.outDir)}/results.json, throughput.svg, latency.svg, results.md in ${((Date.now() - started) / 1000).toFixed(0)} s`,
	);
	if (summary.problems.length > 0) {
		log(`bench: FAILED\n  ${summary.problems.join('\n  ')}`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	log(`bench: FAILED: ${error.stack ?? error}`);
	process.exit(1);
});
