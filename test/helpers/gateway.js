// A gateway in front of the sandbox: answers the paths it is told to itself, passes every other
// call on. For answers the sandbox cannot give at a path it does not serve (its faults apply to the
// five service routes only).
//   const gateway = useGateway(() => sandbox);
// gateway.answers.push({ path: /no-such-operation/, status: 403, body:
// '{"error":{"message":"no"}}', times: 1 });
//   await testCredential(gateway.credentials(sandbox.credentials()));
// `status: 'no answer'` drops the connection without one; `times` (default: every time) counts
// down.
const http = require('node:http');

function useGateway(sandboxOf) {
	const gateway = { answers: [], server: undefined };
	beforeAll(async () => {
		gateway.server = http.createServer((request, response) => {
			const own = gateway.answers.find(
				(answer) => answer.path.test(request.url) && (answer.times ?? 1) > 0,
			);
			if (own) {
				if (own.times !== undefined) own.times -= 1;
				if (own.status === 'no answer') return request.socket.destroy();
				request.resume();
				response.writeHead(own.status, { 'content-type': 'application/json', ...own.headers });
				return response.end(own.body ?? '');
			}
			const target = new URL(sandboxOf().baseUrl);
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
		await new Promise((resolve) => gateway.server.listen(0, '127.0.0.1', resolve));
	});
	afterAll(() => new Promise((resolve) => gateway.server.close(resolve)));
	beforeEach(() => {
		gateway.answers.length = 0;
	});
	/** `credentials` with the sandbox's origin replaced by the gateway's in both addresses. */
	gateway.credentials = (credentials) => {
		const from = sandboxOf().server.origin;
		const to = `http://127.0.0.1:${gateway.server.address().port}`;
		return {
			...credentials,
			baseUrl: credentials.baseUrl.replace(from, to),
			appBaseUrl: credentials.appBaseUrl.replace(from, to),
		};
	};
	return gateway;
}

module.exports = { useGateway };
