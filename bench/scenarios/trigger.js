'use strict';

// The trigger's node time per delivery: webhook() alone, called the way n8n's webhook route calls
// it (a WebhookContext from n8n-core on a real Workflow, the request already parsed), so that
// neither HTTP nor n8n's own request handling is counted. The trigger is first published for real
// against the sandbox by the trigger tests' harness (add_handler over HTTP), so the secret and the
// stored registration are the ones the node made.
const v8 = require('node:v8');

const { WebhookContext } = require('n8n-core');
const { Workflow } = require('n8n-workflow');

const {
	createTriggerHarness,
	instanceUrls,
	NODE_NAME,
} = require('../../test/trigger/helpers/harness');

const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
const HEAP_BATCH = 100;
const HEAP_BATCHES = 30;

const percentile = (sorted, p) =>
	sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const median = (values) =>
	percentile(
		[...values].sort((a, b) => a - b),
		50,
	);

/** A delivery body as the sandbox sends it (sandbox/README.md "Webhook deliveries"). */
function deliveryBody(index) {
	return {
		id: `evt_bench_${index}`,
		type: 'order.shipped',
		created_at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
		data: {
			store_id: String(1001 + (index % 4)),
			order_number: String(1000 + Math.floor(index / 4)),
			tracking_number: `1Z${String(index).padStart(16, '0')}`,
			carrier: 'UPS',
			service: 'Ground',
			shipped_at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
		},
	};
}

async function prepare(_kind, task) {
	const harness = await createTriggerHarness({ sandbox: task.sandbox });
	const stored = harness.storedWorkflow({
		id: 'bench-trigger',
		name: 'Bench trigger',
		parameters: { events: ['order.shipped'], customEventTypes: '', options: {} },
	});
	await harness.activate(stored);
	const url = harness.webhookUrl(stored, false);
	const secret = harness.staticState(stored.staticData).registrations[url].secret;

	const { nodeTypes } = require('../../test/helpers/engine').createEngine();
	const triggerType = nodeTypes.getByNameAndVersion('inventoryOpsTrigger', 1.1);
	const description = triggerType.description.webhooks[0];
	const workflow = new Workflow({
		id: stored.id,
		name: stored.name,
		nodes: [
			{
				id: 'bench-trigger-node',
				name: NODE_NAME,
				type: 'inventoryOpsTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				webhookId: stored.webhookId,
				parameters: stored.parameters,
				credentials: { inventoryOpsApi: { id: 'sandbox', name: 'Sandbox' } },
			},
		],
		connections: {},
		active: true,
		nodeTypes,
		staticData: JSON.parse(JSON.stringify(stored.staticData)),
		settings: { executionOrder: 'v1' },
	});
	const node = workflow.getNode(NODE_NAME);
	const webhookData = {
		httpMethod: 'POST',
		node: NODE_NAME,
		path: `${stored.webhookId}/${description.path}`,
		webhookDescription: description,
		workflowId: stored.id,
		isTest: false,
	};
	const origin = new URL(url).origin;
	const response = { status: () => response, json: () => response, setHeader() {}, end() {} };
	const contextFor = (index) => {
		const body = deliveryBody(index);
		const httpRequest = {
			headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret },
			body,
			query: {},
			params: {},
		};
		const additionalData = {
			httpRequest,
			httpResponse: response,
			...instanceUrls(origin),
		};
		return new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, []);
	};
	const deliver = async (context) => {
		const result = await triggerType.webhook.call(context);
		if (!result.workflowData)
			throw new Error(`the trigger did not emit a delivery: ${JSON.stringify(result)}`);
		return result;
	};

	let next = 0;
	for (let warm = 0; warm < 200; warm++) await deliver(contextFor(next++));

	return async () => {
		// Pass 1: node time of each delivery.
		const times = new Float64Array(task.deliveries);
		const started = process.hrtime.bigint();
		for (let index = 0; index < task.deliveries; index++) {
			const context = contextFor(next++);
			const before = process.hrtime.bigint();
			await deliver(context);
			times[index] = Number(process.hrtime.bigint() - before) / 1e6;
		}
		const wallMs = Number(process.hrtime.bigint() - started) / 1e6;

		// Pass 2: heap growth over batches with no garbage collection inside them, per delivery. The
		// bodies and contexts are made before the batch, so what is counted is what webhook() allocates
		// beyond the body.
		const perDelivery = [];
		for (let batch = 0; batch < HEAP_BATCHES; batch++) {
			const contexts = Array.from({ length: HEAP_BATCH }, () => contextFor(next++));
			const results = [];
			global.gc();
			const collections = new v8.GCProfiler(); // lists every collection between start and stop
			collections.start();
			const heapBefore = v8.getHeapStatistics().used_heap_size;
			for (const context of contexts) results.push(await deliver(context));
			const heapAfter = v8.getHeapStatistics().used_heap_size;
			if (collections.stop().statistics.length === 0)
				perDelivery.push((heapAfter - heapBefore) / HEAP_BATCH);
			results.length = 0;
		}
		await harness.deactivate(stored);
		await harness.close();

		const sorted = [...times].sort((a, b) => a - b);
		return {
			wallMs,
			deliveries: task.deliveries,
			medianMs: percentile(sorted, 50),
			p99Ms: percentile(sorted, 99),
			maxMs: sorted[sorted.length - 1],
			heapBytesPerDelivery: perDelivery.length > 0 ? median(perDelivery) : null,
			heapBatchesCounted: perDelivery.length,
			bodyBytes: Buffer.byteLength(JSON.stringify(deliveryBody(0))),
		};
	};
}

module.exports = { prepare };
