'use strict';

// The worker thread that runs the sandbox for index.js; it answers { id, method, args } messages.
const { parentPort, workerData } = require('node:worker_threads');
const { runSandbox } = require('./server');

async function main() {
	let sandbox;
	try {
		sandbox = await runSandbox(workerData);
	} catch (error) {
		parentPort.postMessage({ type: 'failed', message: error.message, code: error.code });
		return;
	}
	const { issueToken, config, close, ...info } = sandbox;
	const methods = { issueToken, config, close };
	parentPort.on('message', async ({ id, method, args }) => {
		try {
			const result = await methods[method](...args);
			parentPort.postMessage({ type: 'result', id, result });
		} catch (error) {
			parentPort.postMessage({ type: 'result', id, error: error.message });
		}
		if (method === 'close') parentPort.close();
	});
	parentPort.postMessage({ type: 'ready', info });
}

main();
