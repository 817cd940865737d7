'use strict';

const path = require('node:path');
const { Worker } = require('node:worker_threads');

/**
 * Starts the sandbox (sandbox/README.md) and resolves once it listens:
 * `{ baseUrl, appBaseUrl, adminUrl, origin, port, demoToken, seedMs, issueToken(), config(),
 * close() }`.
 *
 * The server runs in a worker thread. jose 6 is ESM only, and jest's module registry cannot load it
 * (Node 24's require(esm) is bypassed there unless jest runs with --experimental-vm-modules), yet
 * every test file starts the sandbox in-process. A worker is a plain Node thread outside jest's
 * registry; it also keeps the sandbox off the event loop of the code under test, so benchmarks time
 * the client, not the simulator.
 */
function startSandbox(options = {}) {
	const worker = new Worker(path.join(__dirname, 'worker.js'), { workerData: options });
	const pending = new Map();
	let nextId = 0;
	let closed;

	const call = (method, ...args) =>
		new Promise((resolve, reject) => {
			const id = ++nextId;
			pending.set(id, { resolve, reject });
			worker.postMessage({ id, method, args });
		});

	return new Promise((resolve, reject) => {
		worker.on('error', (error) => {
			process.stderr.write(`sandbox: the worker thread failed: ${error.stack ?? error}\n`);
			reject(error);
			for (const { reject: fail } of pending.values()) fail(error);
			pending.clear();
		});
		worker.on('exit', () => {
			const error = new Error('the sandbox worker has stopped');
			reject(error);
			for (const { reject: fail } of pending.values()) fail(error);
			pending.clear();
		});
		worker.on('message', (message) => {
			if (message.type === 'failed') {
				const error = Object.assign(new Error(`the sandbox failed to start: ${message.message}`), {
					code: message.code,
				});
				worker.terminate();
				reject(error);
			} else if (message.type === 'ready') {
				resolve({
					...message.info,
					/**
					 * A JWT signed by this sandbox: `{ scopes, expiresInSeconds }` (negative = already
					 * expired).
					 */
					issueToken: (claims) => call('issueToken', claims),
					/** Sets switches (as POST /__sandbox/config); resolves to the whole config. */
					config: (switches) => call('config', switches),
					close: () => {
						closed ??= call('close')
							.then(() => worker.terminate())
							.then(() => undefined);
						return closed;
					},
				});
			} else if (message.type === 'result') {
				const waiting = pending.get(message.id);
				pending.delete(message.id);
				if (message.error !== undefined) waiting?.reject(new Error(message.error));
				else waiting?.resolve(message.result);
			}
		});
	});
}

module.exports = { startSandbox };
