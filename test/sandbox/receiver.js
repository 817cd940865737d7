// A small local HTTP server that stands for a webhook receiver: records every delivery, answers as
// told.
const http = require('node:http');

async function startReceiver() {
	const received = [];
	let answers = [];
	let beforeAnswer;
	const server = http.createServer((request, response) => {
		let body = '';
		request.on('data', (chunk) => (body += chunk));
		request.on('end', async () => {
			received.push({
				method: request.method,
				url: request.url,
				headers: request.headers,
				body: JSON.parse(body),
			});
			const hook = beforeAnswer;
			beforeAnswer = undefined;
			if (hook) await hook();
			const status = answers.length > 0 ? answers.shift() : 200;
			if (status === 'hang-up') return request.socket.destroy();
			response.statusCode = status;
			response.end('{}');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		received,
		/** Statuses (or 'hang-up') for the next deliveries, in order; then 200. */
		answerWith(list) {
			answers = [...list];
		},
		/**
		 * Runs `hook` (once) while the next delivery waits for its answer: a step that must come before
		 * the answer.
		 */
		beforeNextAnswer(hook) {
			beforeAnswer = hook;
		},
		clear() {
			received.length = 0;
			answers = [];
			beforeAnswer = undefined;
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

module.exports = { startReceiver };
