// Shared set-up for tests of the Inventory Ops action node: one sandbox and one engine per test
// file.
const { createEngine } = require('./engine');
const { startSandbox } = require('./sandbox');

/**
 * Call in a describe/file scope. Returns a context whose `run(parameters, { items, onError,
 * continueOnFail, accessToken })` runs the action node once through the engine against the sandbox.
 */
function useInventoryOps(sandboxOptions = {}) {
	const context = { sandbox: undefined, engine: undefined };
	beforeAll(async () => {
		context.sandbox = await startSandbox(sandboxOptions);
		context.engine = createEngine();
	});
	afterAll(async () => {
		await context.sandbox?.close();
	});
	beforeEach(async () => {
		await context.sandbox.reset();
	});
	context.run = (
		parameters,
		{ items = [{}], onError, continueOnFail, settings, accessToken, credentials } = {},
	) =>
		context.engine.run({
			node: { type: 'inventoryOps', parameters, onError, continueOnFail, settings },
			items,
			credentials: credentials ?? context.sandbox.credentials(accessToken),
		});
	return context;
}

/** The json of each output item, for compact assertions. */
const jsonOf = (items) => items.map((item) => item.json);

module.exports = { useInventoryOps, jsonOf };
