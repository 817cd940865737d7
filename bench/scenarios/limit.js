'use strict';

// The limit: the same references as raw bulk calls from a plain Node client with keep-alive, the
// same batch size and the same number of calls in flight, doing only what cannot be skipped (send,
// read, parse). No engine, no n8n.
const http = require('node:http');

function post(agent, url, token, payload) {
	return new Promise((resolve, reject) => {
		const body = JSON.stringify(payload);
		const request = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: {
					'content-type': 'application/json',
					accept: 'application/json',
					authorization: `Bearer ${token}`,
					'content-length': Buffer.byteLength(body),
				},
			},
			(response) => {
				const chunks = [];
				response.on('data', (chunk) => chunks.push(chunk));
				response.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					if (response.statusCode !== 200)
						reject(new Error(`limit client: ${response.statusCode} ${text.slice(0, 200)}`));
					else resolve({ bytes: Buffer.byteLength(text), entries: JSON.parse(text) });
				});
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(body);
	});
}

async function prepare(kind, task) {
	const url = new URL(`${task.sandbox.baseUrl}/order/get_single_bulk`);
	const token = task.sandbox.demoToken;
	task = { ...task, kind };
	const runOnce = async (references) => {
		// limitNewConnection: the same client opening a new connection for every call, as a client
		// without keep-alive does.
		const agent = new http.Agent({
			keepAlive: task.kind !== 'limitNewConnection',
			maxSockets: task.callsInFlight,
		});
		const batches = [];
		for (let start = 0; start < references.length; start += task.batchSize) {
			batches.push(references.slice(start, start + task.batchSize));
		}
		const orders = [];
		let bytes = 0;
		let next = 0;
		const started = process.hrtime.bigint();
		const worker = async () => {
			while (next < batches.length) {
				const answer = await post(agent, url, token, { order: batches[next++] });
				bytes += answer.bytes;
				for (const entry of answer.entries) orders.push(entry.order);
			}
		};
		await Promise.all(Array.from({ length: Math.min(task.callsInFlight, batches.length) }, worker));
		const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
		agent.destroy();
		return { wallMs, nodeMs: wallMs, orders, bytes };
	};
	await runOnce(task.references.slice(0, 100));
	return () => runOnce(task.references);
}

module.exports = { prepare };
