'use strict';

// Ours and per item both run as Start -> node through n8n's real engine (test/helpers/engine.js),
// so the engine's share of the time is the same on both sides. The node's own time is what n8n
// records as its executionTime.
const { createEngine } = require('../../test/helpers/engine');
const { BenchPerItemLookup } = require('../perItemLookup.node');
const { inputItems } = require('../lookups');

const WARM_UP_ITEMS = 100;
const NODE_NAME = 'Node under test';
const BY_FIELDS = { storeId: '={{ $json.store_id }}', orderNumber: '={{ $json.order_number }}' };

function nodeFor(kind, { batchSize, callsInFlight, options = {} }) {
	if (kind === 'perItem')
		return { type: 'benchPerItemLookup', parameters: BY_FIELDS, name: NODE_NAME };
	// ours: one input item per order, the store ID and order number read from the items' own fields
	// (Look Up By = Fields of Each Input Item), so n8n evaluates no expression per item. oursList:
	// one input item listing them all.
	const lookUp =
		kind === 'oursList'
			? { lookUpBy: 'list', references: '={{ $json.refs }}' }
			: { lookUpBy: 'itemFields', storeIdField: 'store_id', orderNumberField: 'order_number' };
	return {
		type: 'inventoryOps',
		name: NODE_NAME,
		parameters: {
			resource: 'order',
			operation: 'lookUp',
			...lookUp,
			options: { batchSize, callsInFlight, ...options },
		},
	};
}

function itemsFor(kind, references) {
	return kind === 'oursList' ? [{ refs: inputItems(references) }] : inputItems(references);
}

/**
 * Returns `measure()`, after one small warm-up run so that module loading and JIT are not timed.
 */
async function prepare(kind, task) {
	const engine = createEngine({ nodeTypes: { benchPerItemLookup: BenchPerItemLookup } });
	const node = nodeFor(kind, task);
	const credentials = {
		accessToken: task.sandbox.demoToken,
		baseUrl: task.sandbox.baseUrl,
		appBaseUrl: task.sandbox.appBaseUrl,
	};
	const runOnce = async (input) => {
		const started = process.hrtime.bigint();
		const result = await engine.run({ node, items: input, credentials });
		const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
		if (result.error) throw result.error;
		const nodeRun = result.run.data.resultData.runData[NODE_NAME][0];
		// The node's notices (Calls in Flight: Auto says where it settled).
		const hints = (nodeRun.hints ?? []).map((hint) => hint.message);
		return {
			wallMs,
			nodeMs: nodeRun.executionTime,
			hints,
			orders: result.items.map((item) => item.json),
		};
	};
	await runOnce(itemsFor(kind, task.references.slice(0, WARM_UP_ITEMS)));
	const items = itemsFor(kind, task.references);
	return () => runOnce(items);
}

module.exports = { prepare };
