'use strict';

// One scenario in a fresh child process, so that its peak RSS is its own. The parent (bench/run.js)
// sends the task over IPC and gets back the figures; the orders found travel only as a count and a
// fingerprint.
const fs = require('node:fs');
const inspector = require('node:inspector/promises');
const path = require('node:path');

const { fingerprint } = require('./lookups');

const SCENARIOS = {
	ours: require('./scenarios/engine'),
	oursList: require('./scenarios/engine'),
	perItem: require('./scenarios/engine'),
	limit: require('./scenarios/limit'),
	limitNewConnection: require('./scenarios/limit'),
	trigger: require('./scenarios/trigger'),
};

function reply(message, code) {
	process.send(message, () => process.exit(code));
}

/**
 * With BENCH_CPU_PROF=dir, the measured part alone (no module loading, no warm-up) is profiled as
 * node --cpu-prof would, into dir/<label>.cpuprofile; bench/profile-summary.js reads it.
 */
async function profiled(task, measure) {
	if (!task.profileDir) return await measure();
	const session = new inspector.Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.setSamplingInterval', { interval: 200 });
	await session.post('Profiler.start');
	try {
		return await measure();
	} finally {
		const { profile } = await session.post('Profiler.stop');
		fs.writeFileSync(
			path.join(task.profileDir, `${task.label}.cpuprofile`),
			JSON.stringify(profile),
		);
		session.disconnect();
	}
}

/**
 * What the sandbox has received so far: calls (all routes; the scenarios run one at a time),
 * connections, 429s.
 */
async function sandboxStats(task) {
	return await (await fetch(`${task.sandbox.adminUrl}/stats`)).json();
}

process.once('message', async (task) => {
	try {
		const measure = await SCENARIOS[task.kind].prepare(task.kind, task);
		const before = await sandboxStats(task);
		global.gc();
		const { rss: baselineRss, heapUsed: baselineHeap } = process.memoryUsage();
		const { orders, ...figures } = await profiled(task, measure);
		// maxRSS (KiB) is the high-water mark of this whole process; the baseline is taken after
		// loading and warm-up.
		const peakRss = process.resourceUsage().maxRSS * 1024;
		const after = await sandboxStats(task);
		const httpCalls = after.calls - before.calls;
		const connections = after.connections - before.connections;
		const tooManyRequests = after.tooManyRequests - before.tooManyRequests;
		// What the output still holds once the garbage is gone (the orders are alive here).
		global.gc();
		const retainedHeap = process.memoryUsage().heapUsed - baselineHeap;
		const found = orders
			? { ...fingerprint(orders), ordersBytes: Buffer.byteLength(JSON.stringify(orders)) }
			: {};
		reply(
			{
				ok: true,
				result: {
					...figures,
					...found,
					baselineRss,
					peakRss,
					retainedHeap,
					httpCalls,
					connections,
					tooManyRequests,
				},
			},
			0,
		);
	} catch (error) {
		reply({ ok: false, error: error?.stack ?? String(error) }, 1);
	}
});
