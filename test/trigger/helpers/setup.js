// One sandbox and one trigger harness per test file; each test starts from an empty sandbox whose deliveries
// are tried once (a refused delivery is not retried, so every count is exact).
const { startSandbox } = require('../../../sandbox');
const { createTriggerHarness } = require('./harness');
const { profileConfig } = require('../../helpers/profile');

const ONE_ATTEMPT = { maxAttempts: 1, baseDelayMs: 0, timeoutMs: 5000 };

/** Registers the jest hooks; the returned object's `sandbox` and `harness` are set once beforeAll has run. */
function useTriggerHarness({ afterAllExtra } = {}) {
	const context = { sandbox: undefined, harness: undefined };
	beforeAll(async () => {
		context.sandbox = await startSandbox({
			port: 0,
			orders: 10,
			rateLimit: false,
			delivery: ONE_ATTEMPT,
			config: profileConfig,
		});
		context.harness = await createTriggerHarness({ sandbox: context.sandbox });
	});
	afterAll(async () => {
		afterAllExtra?.();
		await context.harness?.close();
		await context.sandbox?.close();
	});
	beforeEach(async () => {
		await context.harness.admin('POST', '/reset');
		await context.harness.admin('POST', '/config', { delivery: ONE_ATTEMPT });
		context.harness.runs.length = 0;
		context.harness.warnings.length = 0;
		context.harness.beforeRequest(async () => {});
		context.harness.storeEncryptedCredential(undefined);
	});
	return context;
}

/** Activates a new stored trigger workflow selecting order.shipped unless `parameters` say otherwise. */
async function publishedWorkflow(harness, id, parameters) {
	const stored = harness.storedWorkflow({
		id,
		name: `Trigger ${id}`,
		parameters: { events: ['order.shipped'], customEventTypes: '', options: {}, ...parameters },
	});
	await harness.activate(stored);
	return stored;
}

module.exports = { useTriggerHarness, publishedWorkflow };
