// Hands the test file the n8n packages its environment loaded once for the worker
// (bailEnvironment.js).
const preloaded = globalThis.__mutationPreloaded;
if (preloaded)
	for (const [name, exports] of Object.entries(preloaded)) jest.doMock(name, () => exports);
