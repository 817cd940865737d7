// `npm run sandbox` (sandbox/cli.js) as a person runs it: a real child process, stopped with a
// signal.
const { spawn } = require('node:child_process');
const path = require('node:path');
const axios = require('axios');

function startCli(env) {
	const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js')], {
		env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_ORDERS: '40', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	let errors = '';
	child.stderr.on('data', (chunk) => (errors += chunk));
	const ready = new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk) => {
			output += chunk;
			if (/Access Token[^\n]*\n\s*\S+\n/.test(output)) resolve(output);
		});
		child.on('exit', (code) => reject(new Error(`cli exited with ${code}: ${output}`)));
	});
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve({ code, signal })),
	);
	return { child, ready, exited, output: () => output, errors: () => errors };
}

test.each(['SIGTERM', 'SIGINT'])(
	'it prints both base URLs and a working demo token, and stops on %s',
	async (signal) => {
		const cli = startCli({ SANDBOX_RATE_LIMIT: '2' });
		const output = await cli.ready;
		const baseUrl = /Base URL:\s+(\S+)/.exec(output)[1];
		const appBaseUrl = /App Base URL:\s+(\S+)/.exec(output)[1];
		const token = /Access Token[^\n]*\n\s*(\S+)/.exec(output)[1];
		expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
		expect(appBaseUrl).toBe(baseUrl.replace(/\/api$/, '/s'));
		const post = () =>
			axios.post(
				`${baseUrl}/order/get_single_bulk`,
				{ order: [] },
				{ headers: { Authorization: `Bearer ${token}` }, validateStatus: () => true },
			);
		expect((await post()).data).toEqual([]);
		// SANDBOX_RATE_LIMIT=2 allows two calls a minute for this token.
		expect((await post()).status).toBe(200);
		expect((await post()).status).toBe(429);
		cli.child.kill(signal);
		expect(await cli.exited).toEqual({ code: 0, signal: null });
		expect(cli.output()).toContain(`${signal}: stopping the sandbox`);
	},
);

test('SANDBOX_ORDERS sets the seeded orders and SANDBOX_RATE_LIMIT=0 turns the limit off', async () => {
	const cli = startCli({ SANDBOX_ORDERS: '8', SANDBOX_RATE_LIMIT: '0' });
	const output = await cli.ready;
	const adminUrl = /Admin API:\s+(\S+)/.exec(output)[1];
	try {
		expect(
			(await axios.get(`${adminUrl}/orders`, { params: { limit: 100 } })).data.orders,
		).toHaveLength(8);
		expect((await axios.get(`${adminUrl}/config`)).data.rateLimit).toBe(false);
	} finally {
		cli.child.kill('SIGTERM');
		await cli.exited;
	}
});

test('a port already in use ends the cli with exit code 1 and a reason', async () => {
	const first = startCli({});
	const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(await first.ready)[1];
	try {
		const second = startCli({ SANDBOX_PORT: port });
		await expect(second.ready).rejects.toThrow(/exited with 1/);
		expect(await second.exited).toEqual({ code: 1, signal: null });
		expect(second.errors()).toMatch(/sandbox failed to start: .*EADDRINUSE/);
	} finally {
		first.child.kill('SIGTERM');
		await first.exited;
	}
});
