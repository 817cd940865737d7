const net = require('node:net');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it returns something other than undefined/false and returns that. n8n applies
 * several changes in the background (publishing on 2.x, executions finishing), so tests wait for
 * the effect itself.
 */
async function waitFor(probe, { timeoutMs = 30_000, intervalMs = 200, what = 'condition' } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined && value !== false) return value;
			last = value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline) {
			const detail = last instanceof Error ? last.message : JSON.stringify(last);
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${detail})`);
		}
		await sleep(intervalMs);
	}
}

/**
 * True when `child` (with an `exited` promise) ends within `timeoutMs`, false when the time ran out
 * first.
 */
async function exitedWithin(child, timeoutMs) {
	let timer;
	const result = await Promise.race([
		child.exited,
		new Promise((resolve) => {
			timer = setTimeout(() => resolve('timeout'), timeoutMs);
		}),
	]);
	clearTimeout(timer);
	return result !== 'timeout';
}

/** A loopback port that was free a moment ago. */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

module.exports = { sleep, waitFor, exitedWithin, freePort };
