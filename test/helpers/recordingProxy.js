// A proxy in front of the sandbox that records what each request carried (the sandbox records
// bodies, not headers). Call in a describe: `proxy.seen` is emptied before each test;
// `proxy.credentials(c)` points both addresses at it.
const http = require('node:http');

function useRecordingProxy(sandboxOf) {
	const proxy = { seen: [], server: undefined };
	beforeAll(async () => {
		proxy.server = http.createServer((request, response) => {
			const target = new URL(sandboxOf().baseUrl);
			proxy.seen.push({ url: request.url, headers: request.headers });
			const forwarded = http.request(
				{
					host: target.hostname,
					port: target.port,
					path: request.url,
					method: request.method,
					headers: request.headers,
				},
				(answer) => {
					response.writeHead(answer.statusCode, answer.headers);
					answer.pipe(response);
				},
			);
			request.pipe(forwarded);
		});
		await new Promise((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
	});
	afterAll(() => new Promise((resolve) => proxy.server.close(resolve)));
	beforeEach(() => {
		proxy.seen.length = 0;
	});
	proxy.credentials = (credentials) => {
		const origin = `http://127.0.0.1:${proxy.server.address().port}`;
		return { ...credentials, baseUrl: `${origin}/api`, appBaseUrl: `${origin}/s` };
	};
	return proxy;
}

module.exports = { useRecordingProxy };
