'use strict';

// The sandbox in a process of its own, so that its JSON work never shares a core's event loop (or
// the RSS figure) with the client being measured. The parent talks to it over IPC: it sends `{
// ready: info }` once listening and closes the sandbox when told `close` (or when the parent goes
// away).
const { startSandbox } = require('../sandbox');

async function main() {
	const orders = Number(process.env.BENCH_ORDERS ?? 10_000);
	const sandbox = await startSandbox({ port: 0, orders, seed: 1, rateLimit: false });
	const { baseUrl, appBaseUrl, adminUrl, origin, demoToken, seedMs } = sandbox;
	process.send({ ready: { baseUrl, appBaseUrl, adminUrl, origin, demoToken, seedMs, orders } });
	const stop = async () => {
		await sandbox.close();
		process.exit(0);
	};
	process.on('message', (message) => message === 'close' && stop());
	process.on('disconnect', stop);
}

main().catch((error) => {
	process.stderr.write(`bench sandbox failed to start: ${error.stack ?? error}\n`);
	process.exit(1);
});
