'use strict';

const { SandboxState } = require('./state');
const { createTokenAuthority, DEMO_SCOPES } = require('./auth');
const { buildApp } = require('./app');

const MAX_ORDERS = 100_000;

/** Runs the sandbox in this thread; index.js calls it inside a worker thread (see there why). */
async function runSandbox(options = {}) {
	const orders = Math.min(MAX_ORDERS, Math.max(0, Math.floor(options.orders ?? 2000)));
	const seed = Math.floor(options.seed ?? 1);
	const state = new SandboxState({
		seed,
		orders,
		prebuild: options.prebuild,
		config: options.config,
		rateLimit: options.rateLimit,
		delivery: options.delivery,
	});
	const tokens = createTokenAuthority(options.secret ?? `inventory-ops-sandbox-secret-${seed}`);
	const app = buildApp(state, tokens);
	const host = options.host ?? '127.0.0.1';
	await app.listen({ port: options.port ?? 0, host });
	state.warmUp();
	const { port } = app.server.address();
	const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	return {
		origin,
		port,
		baseUrl: `${origin}/api`,
		appBaseUrl: `${origin}/s`,
		adminUrl: `${origin}/__sandbox`,
		demoToken: await tokens.issueToken({ scopes: DEMO_SCOPES }),
		seedMs: state.seedMs,
		issueToken: (claims) => tokens.issueToken(claims ?? {}),
		config: (switches) => state.configure(switches),
		close: async () => {
			state.stop();
			await app.close();
		},
	};
}

module.exports = { runSandbox };
