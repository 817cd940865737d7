'use strict';

// `npm run bench:sandbox`: how fast the sandbox seeds and serves a get_single_bulk of 100 orders.
// Server time is the `ms` of each call in GET /__sandbox/calls: from the request's arrival to its
// answer being handed to the socket (body parsing, auth, validation, lookup and serialisation
// included; network excluded); server CPU time is the sandbox thread's CPU time over all measured
// calls divided by their number (GET /__sandbox/stats), which a busy machine does not inflate.
const { startSandbox } = require('../sandbox');

const percentile = (sorted, p) =>
	sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function timeStart(options) {
	const started = process.hrtime.bigint();
	const sandbox = await startSandbox({ port: 0, rateLimit: false, ...options });
	const startMs = Number(process.hrtime.bigint() - started) / 1e6;
	return { sandbox, startMs };
}

async function bulkServerTimes(sandbox, orders, rounds) {
	const headers = {
		'content-type': 'application/json',
		authorization: `Bearer ${sandbox.demoToken}`,
	};
	let state = 12345;
	const nextIndex = () => {
		state = (Math.imul(state, 1103515245) + 12345) >>> 0;
		return state % orders;
	};
	let cpuBefore;
	for (let round = 0; round < rounds + 20; round++) {
		if (round === 20)
			cpuBefore = (await (await fetch(`${sandbox.adminUrl}/stats`)).json()).threadCpuMs;
		const refs = Array.from({ length: 100 }, () => {
			const index = nextIndex();
			return {
				store_id: String(1001 + (index % 4)),
				order_number: String(1000 + Math.floor(index / 4)),
			};
		});
		const response = await fetch(`${sandbox.baseUrl}/order/get_single_bulk`, {
			method: 'POST',
			headers,
			body: JSON.stringify({ order: refs }),
		});
		if (response.status !== 200) throw new Error(`bulk answered ${response.status}`);
		await response.arrayBuffer();
	}
	const cpuAfter = (await (await fetch(`${sandbox.adminUrl}/stats`)).json()).threadCpuMs;
	const { calls } = await (await fetch(`${sandbox.adminUrl}/calls`)).json();
	// The first 20 calls warm up the JIT and are left out.
	return {
		wall: calls
			.slice(20)
			.map((call) => call.ms)
			.sort((a, b) => a - b),
		cpuPerCallMs: (cpuAfter - cpuBefore) / rounds,
	};
}

async function main() {
	const report = [];
	for (const [label, options] of [
		['10,000 orders, built before listening', { orders: 10_000, prebuild: true }],
		['100,000 orders, index only (built on first read)', { orders: 100_000 }],
		['100,000 orders, built before listening', { orders: 100_000, prebuild: true }],
	]) {
		const { sandbox, startMs } = await timeStart(options);
		report.push(
			`${label}: seeding ${sandbox.seedMs.toFixed(0)} ms, start to listening ${startMs.toFixed(0)} ms`,
		);
		const { wall, cpuPerCallMs } = await bulkServerTimes(sandbox, options.orders, 200);
		report.push(
			`  get_single_bulk of 100 orders over ${wall.length} calls: server time median ${percentile(wall, 50).toFixed(3)} ms, ` +
				`p95 ${percentile(wall, 95).toFixed(3)} ms, max ${wall.at(-1).toFixed(3)} ms; ` +
				`sandbox thread CPU per call ${cpuPerCallMs.toFixed(3)} ms (everything: HTTP, socket write, GC)`,
		);
		await sandbox.close();
	}
	process.stdout.write(`${report.join('\n')}\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
