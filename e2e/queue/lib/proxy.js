// The load balancer in front of the webhook processors. n8n's queue mode leaves routing to the
// operator: WEBHOOK_URL is the one public address every process builds webhook URLs from (the
// trigger registers those URLs with the service), and something has to spread the calls to it over
// the `n8n webhook` processes. This is that something: a plain round-robin HTTP proxy on loopback
// that counts what each processor received.
const http = require('node:http');

/**
 * @param {object} options
 * @param {string[]} options.backends base URLs of the webhook processors, e.g.
 * http://127.0.0.1:5679
 * @param {number} [options.port]      0 (default) picks a free port
 */
async function startProxy({ backends, port = 0 }) {
	const targets = backends.map((base) => ({ url: new URL(base), received: 0, failed: 0 }));
	// A new connection per call: with keep-alive, a processor closing an idle socket just as the
	// proxy reuses it fails that call (ECONNRESET, counted as failed; the all-slices CI run saw one
	// in 1,000). At these rates the handshakes cost nothing.
	const agent = new http.Agent({ keepAlive: false, maxSockets: 64 });
	let next = 0;

	const server = http.createServer((request, response) => {
		const target = targets[next];
		next = (next + 1) % targets.length;
		target.received += 1;
		const upstream = http.request(
			{
				host: target.url.hostname,
				port: target.url.port,
				method: request.method,
				path: request.url,
				headers: { ...request.headers, host: request.headers.host },
				agent,
			},
			(answer) => {
				response.writeHead(answer.statusCode, answer.headers);
				answer.pipe(response);
			},
		);
		upstream.on('error', (error) => {
			target.failed += 1;
			if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					error: `webhook processor ${target.url.origin} unreachable: ${error.message}`,
				}),
			);
		});
		request.pipe(upstream);
	});
	server.keepAliveTimeout = 30_000;
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const address = server.address();
	return {
		url: `http://127.0.0.1:${address.port}`,
		port: address.port,
		/** Requests received per backend since the start (or the last reset). */
		counts: () =>
			targets.map((target) => ({
				backend: target.url.origin,
				received: target.received,
				failed: target.failed,
			})),
		resetCounts() {
			for (const target of targets) {
				target.received = 0;
				target.failed = 0;
			}
		},
		close: () =>
			new Promise((resolve) => {
				agent.destroy();
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startProxy };
