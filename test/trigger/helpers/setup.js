// One sandbox and one trigger harness per test file; each test starts from an empty sandbox whose
// deliveries are tried once (a refused delivery is not retried, so every count is exact).
const path = require('node:path');

const { startSandbox } = require('../../../sandbox');
const { createTriggerHarness } = require('./harness');
const { useFakeClock } = require('../../helpers/fakeClock');
const { profileConfig } = require('../../helpers/profile');

const ONE_ATTEMPT = { maxAttempts: 1, baseDelayMs: 0, timeoutMs: 5000 };
// A seed whose handler ids hold enough distinct characters (10) for the trigger to shape a probe on
// at publish (unknownIdLike in trigger/removal.ts), and so to learn the service's answer to an id
// it does not know (issue 58); the default seed's ids hold two or three, too few: no probe is sent.
const PROBING_SEED = 0x9abcdef7;

/**
 * n8n-workflow's `sleep` (the trigger's waits between removal tries) on the fake clock: a wait
 * moves `clock.now` on by its length and returns at once, so a test reads when each try was sent
 * without waiting seconds for it; the service calls stay real HTTP. n8n-workflow re-exports `sleep`
 * from @n8n/utils through getters, so it is replaced there.
 */
function useFakeSleep() {
	const clock = useFakeClock();
	const sleepModule = require(
		require.resolve('@n8n/utils/sleep', { paths: [path.dirname(require.resolve('n8n-workflow'))] }),
	);
	let spy;
	beforeEach(() => {
		spy = jest.spyOn(sleepModule, 'sleep').mockImplementation(async (ms) => {
			clock.now += ms;
		});
	});
	afterEach(() => spy.mockRestore());
	return clock;
}

/**
 * Registers the jest hooks; the returned object's `sandbox` and `harness` are set once beforeAll
 * has run, and with `fakeSleep` its `clock` is the fake clock the trigger's waits move on
 * (useFakeSleep). `seed`: the sandbox's (PROBING_SEED for tests that need the probe).
 */
function useTriggerHarness({ afterAllExtra, fakeSleep = false, seed } = {}) {
	const context = {
		sandbox: undefined,
		harness: undefined,
		clock: fakeSleep ? useFakeSleep() : undefined,
	};
	beforeAll(async () => {
		context.sandbox = await startSandbox({
			port: 0,
			orders: 10,
			...(seed === undefined ? {} : { seed }),
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

/**
 * Activates a new stored trigger workflow selecting order.shipped unless `parameters` say
 * otherwise.
 */
async function publishedWorkflow(harness, id, parameters) {
	const stored = harness.storedWorkflow({
		id,
		name: `Trigger ${id}`,
		parameters: { events: ['order.shipped'], customEventTypes: '', options: {}, ...parameters },
	});
	await harness.activate(stored);
	return stored;
}

module.exports = { useTriggerHarness, publishedWorkflow, PROBING_SEED };
