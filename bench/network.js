'use strict';

// The network scenarios of `npm run bench`: the lookups at several latencies per call (the sandbox's `latencyMs`
// switch: every call waits that long, a call on a new connection twice as long), and a service that refuses batches
// longer than 50 while the node's Batch Size stays at its default. See bench/README.md.

async function configureSandbox(adminUrl, switches) {
	const response = await fetch(`${adminUrl}/config`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(switches),
	});
	if (!response.ok) throw new Error(`POST /__sandbox/config: ${response.status} ${await response.text()}`);
}

/**
 * Per latency: ours (default options), one call per item (on the first `perItemOrders` references only: at 100 ms
 * the whole set would take a quarter of an hour; its time per lookup is what the report compares), and the limit
 * client with and without keep-alive. Then (full run only) the capped service, ours with Batch Size 100 and 50.
 */
async function runNetworkScenarios({ measure, adminUrl, references, config }) {
	try {
		for (const latencyMs of config.latencies) {
			await configureSandbox(adminUrl, { latencyMs });
			await measure('ours', { group: 'latency', latencyMs });
			await measure('perItem', { group: 'latency', latencyMs, references: references.slice(0, config.perItemOrders) });
			await measure('limit', { group: 'latency', latencyMs });
			await measure('limitNewConnection', { group: 'latency', latencyMs });
		}
		// The smoke run (CI) stops here: the capped service's behaviour is proven in jest, its cost only matters in full.
		if (config.smoke) return;
		await configureSandbox(adminUrl, { latencyMs: config.cappedLatencyMs, bulkMaxLength: 50 });
		await measure('ours', { group: 'capped', latencyMs: config.cappedLatencyMs, batchSize: config.batchSize });
		await measure('ours', { group: 'capped', latencyMs: config.cappedLatencyMs, batchSize: 50 });
	} finally {
		await configureSandbox(adminUrl, { latencyMs: 0, bulkMaxLength: 500 });
	}
}

module.exports = { runNetworkScenarios };
