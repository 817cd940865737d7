// Starts the sandbox in-process for one test file and wraps its admin API (/__sandbox, contract in
// sandbox/README.md) with axios. Everything goes over real HTTP.
//
//   const { startSandbox } = require('../helpers/sandbox');
//   let sandbox;
//   beforeAll(async () => { sandbox = await startSandbox({ port: 0, rateLimit: false }); });
//   afterAll(() => sandbox.close());
//   beforeEach(() => sandbox.reset());
// sandbox.credentials -> { accessToken, baseUrl, appBaseUrl } for the inventoryOpsApi credential
//   await sandbox.calls('/api/kit/create')  -> [{ route, status, body, time }]
const axios = require('axios');

const sandboxModule = require('../../sandbox');
const { profileConfig } = require('./profile');

/**
 * Adds a webhook handler over the service API as any client would, and returns its _id: from the
 * answer where the profile's `addHandlerId` puts it (top or nested), or, when the answer carries
 * none, from the admin list (the handler with this name, added last). `server` is a started sandbox
 * (sandbox/index.js).
 */
async function addHandlerAsClient(server, body) {
	const { data: answer } = await axios.post(`${server.baseUrl}/webhook/add_handler`, body, {
		headers: { authorization: `Bearer ${server.demoToken}` },
		timeout: 10_000,
	});
	const id = answer._id ?? answer.handler?._id;
	if (id !== undefined) return id;
	const { data } = await axios.get(`${server.adminUrl}/handlers`, { timeout: 10_000 });
	return data.handlers.filter((handler) => handler.name === body.name).at(-1)._id;
}

/**
 * Starts a sandbox answering as the profile says (SANDBOX_PROFILE, test/helpers/profile.js);
 * `config` wins over it.
 */
async function startSandbox(options = {}) {
	const server = await sandboxModule.startSandbox({
		port: 0,
		rateLimit: false,
		...options,
		config: { ...profileConfig, ...options.config },
	});
	const admin = axios.create({ baseURL: server.adminUrl, timeout: 10_000 });
	const data = (promise) => promise.then((response) => response.data);

	return {
		server,
		baseUrl: server.baseUrl,
		appBaseUrl: server.appBaseUrl,
		adminUrl: server.adminUrl,
		demoToken: server.demoToken,
		/** The credential data for `inventoryOpsApi`, optionally with another token. */
		credentials(accessToken = server.demoToken) {
			return { accessToken, baseUrl: server.baseUrl, appBaseUrl: server.appBaseUrl };
		},
		/**
		 * Every request received on a service route, in order; optionally only one route; `probes`:
		 * sandbox/README.md.
		 */
		async calls(route, { probes = false } = {}) {
			return (
				await data(
					admin.get('/calls', {
						params: { ...(route ? { route } : {}), ...(probes ? { probes } : {}) },
					}),
				)
			).calls;
		},
		async reset() {
			return await data(admin.post('/reset', {}));
		},
		/** { route, count, status?, retryAfter?, delayMs?, drop?: 'before' | 'after', body? } */
		async fault(fault) {
			return await data(admin.post('/faults', fault));
		},
		/**
		 * Sets switches such as { bulkOrder: 'shuffled', bulkUnmatched: 'entry' }; returns the whole
		 * config.
		 */
		async config(switches) {
			return await data(admin.post('/config', switches));
		},
		async token({ scopes = ['platformGeneric', 'platformApi'], expiresInSeconds = 3600 } = {}) {
			return (await data(admin.post('/tokens', { scopes, expiresInSeconds }))).token;
		},
		async orders(params = {}) {
			return (await data(admin.get('/orders', { params }))).orders;
		},
		async kits() {
			return (await data(admin.get('/kits'))).kits;
		},
		async handlers() {
			return (await data(admin.get('/handlers'))).handlers;
		},
		/** Adds a webhook handler over the service API (as any client would); returns its _id. */
		async addHandler(type = 'order.shipped', url = 'https://example.com/hooks/x') {
			return await addHandlerAsClient(server, { type, name: `${type} handler`, handler: { url } });
		},
		async items(params = {}) {
			return (await data(admin.get('/items', { params }))).items;
		},
		async close() {
			await server.close();
		},
	};
}

module.exports = { startSandbox, addHandlerAsClient };
