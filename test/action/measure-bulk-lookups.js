// One measurement, not a test: HTTP calls and wall time for 10,000 order lookups through n8n's engine against
// the sandbox, batched (the node's defaults) next to one call per item (Batch Size 1, one call at a time, as a
// hand-built HTTP Request node would do it).
//   ./scripts/node24.sh node test/action/measure-bulk-lookups.js
const { createEngine } = require('../helpers/engine');
const { startSandbox } = require('../helpers/sandbox');

const LOOKUPS = 10_000;

async function main() {
	const sandbox = await startSandbox({ orders: LOOKUPS });
	const engine = createEngine();
	const items = (await sandbox.orders({ limit: LOOKUPS })).map(({ store_id, order_number }) => ({
		store_id,
		order_number,
	}));
	const parameters = {
		resource: 'order',
		operation: 'getMany',
		storeId: '={{ $json.store_id }}',
		orderNumber: '={{ $json.order_number }}',
	};
	const variants = [
		['batched (Batch Size 100, 4 calls in flight)', {}],
		['one call per item (Batch Size 1, 1 call in flight)', { batchSize: 1, callsInFlight: 1 }],
	];
	const rows = [];
	for (const [label, options] of variants) {
		await sandbox.reset();
		const started = process.hrtime.bigint();
		const result = await engine.run({
			node: { type: 'inventoryOps', parameters: { ...parameters, options } },
			items,
			credentials: sandbox.credentials(),
		});
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		if (result.error) throw result.error;
		const calls = (await sandbox.calls('/api/order/get_single_bulk')).length;
		rows.push({
			variant: label,
			lookups: LOOKUPS,
			outputItems: result.items.length,
			httpCalls: calls,
			wallMs: Math.round(ms),
		});
	}
	console.table(rows);
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
