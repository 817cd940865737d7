// Shared by the sandbox's own tests: an axios client that never throws on a status, so tests assert
// on it.
const axios = require('axios');

const { startSandbox } = require('../../sandbox');

const ERROR_FIELDS = [
	'message',
	'statusCode',
	'code',
	'overview',
	'origin',
	'serviceTraceId',
	'type',
	'user_error',
	'display',
];

async function start(options = {}) {
	const sandbox = await startSandbox({ port: 0, rateLimit: false, ...options });
	const http = axios.create({ validateStatus: () => true, timeout: 10_000 });
	const bearer = (token) => ({ Authorization: `Bearer ${token}` });

	return {
		sandbox,
		http,
		/**
		 * POST a JSON body to a service route under {base_url} (`/order/...`) with the demo token
		 * unless told.
		 */
		api(path, body, { token = sandbox.demoToken, headers = {} } = {}) {
			return http.post(`${sandbox.baseUrl}${path}`, body, {
				headers: { ...bearer(token), ...headers },
			});
		},
		/** Same under {app_base_url}. */
		app(path, body, { token = sandbox.demoToken, headers = {} } = {}) {
			return http.post(`${sandbox.appBaseUrl}${path}`, body, {
				headers: { ...bearer(token), ...headers },
			});
		},
		admin: {
			get: async (path, params) => (await http.get(`${sandbox.adminUrl}${path}`, { params })).data,
			post: (path, body) => http.post(`${sandbox.adminUrl}${path}`, body),
		},
		bulk(order, options) {
			return this.api('/order/get_single_bulk', { order }, options);
		},
		async reset() {
			const response = await http.post(`${sandbox.adminUrl}/reset`);
			if (response.status !== 200) throw new Error(`reset answered ${response.status}`);
		},
		close: () => sandbox.close(),
	};
}

/**
 * Asserts the service's error shape with every optional field filled, and returns the error object.
 */
function expectError(response, status, code) {
	expect({ status: response.status, code: response.data?.error?.code }).toEqual({ status, code });
	const error = response.data.error;
	expect(Object.keys(error).sort()).toEqual([...ERROR_FIELDS].sort());
	expect(error.statusCode).toBe(status);
	expect(typeof error.message).toBe('string');
	expect(error.message.length).toBeGreaterThan(0);
	expect(['error', 'notice', 'success']).toContain(error.type);
	expect(['notification', 'panel']).toContain(error.display);
	expect(error.user_error).toBe(status < 500);
	return error;
}

module.exports = { start, expectError, ERROR_FIELDS };
