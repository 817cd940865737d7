'use strict';

// `npm run sandbox`: the sandbox on 127.0.0.1:${SANDBOX_PORT:-5680} until SIGINT/SIGTERM.
const { startSandbox } = require('./index');

async function main() {
	const rateLimitOff =
		process.env.SANDBOX_RATE_LIMIT === '0' || process.env.SANDBOX_RATE_LIMIT === 'false';
	const rateMax = Number(process.env.SANDBOX_RATE_LIMIT);
	const sandbox = await startSandbox({
		port: Number(process.env.SANDBOX_PORT ?? 5680),
		orders: Number(process.env.SANDBOX_ORDERS ?? 2000),
		seed: Number(process.env.SANDBOX_SEED ?? 1),
		rateLimit: rateLimitOff ? false : { max: rateMax > 0 ? rateMax : 600, windowMs: 60_000 },
	});
	process.stdout.write(
		[
			`Inventory Ops sandbox listening on ${sandbox.origin} (seeded in ${sandbox.seedMs.toFixed(0)} ms)`,
			`  Base URL:      ${sandbox.baseUrl}`,
			`  App Base URL:  ${sandbox.appBaseUrl}`,
			`  Admin API:     ${sandbox.adminUrl}`,
			`  Access Token (scopes platformGeneric + platformApi, valid 24 h):`,
			`  ${sandbox.demoToken}`,
			'',
		].join('\n'),
	);
	let stopping = false;
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: stopping the sandbox\n`);
		await sandbox.close();
		process.exit(0);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
	process.stderr.write(`sandbox failed to start: ${error.stack ?? error}\n`);
	process.exit(1);
});
