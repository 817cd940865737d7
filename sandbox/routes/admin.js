'use strict';

const { ServiceError } = require('../errors');
const { OPEN_POINT_SWITCHES } = require('../switches');

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const SERVICE_ROUTES = [
	'/api/order/get_single_bulk',
	'/api/kit/create',
	'/s/ship/shipping/restore_inventory',
	'/api/webhook/add_handler',
	'/api/webhook/remove_handler',
];

const configSchema = {
	type: 'object',
	properties: {
		...Object.fromEntries(
			Object.entries(OPEN_POINT_SWITCHES).map(([name, values]) => [name, { enum: values }]),
		),
		removeUnknown: { enum: [...OPEN_POINT_SWITCHES.removeUnknown, '404'] },
		bulkMaxLength: { type: 'integer', minimum: 0 },
		bulkReferencePattern: { anyOf: [{ type: 'null' }, { type: 'string' }] },
		latencyMs: { type: 'integer', minimum: 0 },
		latencyPerKbMs: { type: 'number', minimum: 0 },
		addHandlerReturnsId: { type: 'boolean' },
		rateLimit: {
			anyOf: [
				{ const: false },
				{
					type: 'object',
					properties: {
						max: { type: 'integer', minimum: 1 },
						windowMs: { type: 'integer', minimum: 1 },
					},
				},
			],
		},
		delivery: {
			type: 'object',
			properties: {
				maxAttempts: { type: 'integer', minimum: 1 },
				baseDelayMs: { type: 'integer', minimum: 0 },
				timeoutMs: { type: 'integer', minimum: 1 },
			},
		},
	},
	additionalProperties: false,
};

const faultSchema = {
	type: 'object',
	required: ['route'],
	properties: {
		// `unserved`: every path no route serves (sandbox/app.js), as a gateway's or a framework's
		// catch-all answers.
		route: { enum: [...SERVICE_ROUTES, 'unserved'] },
		count: { type: 'integer', minimum: 1, default: 1 },
		status: { type: 'integer', minimum: 100, maximum: 599 },
		retryAfter: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] },
		delayMs: { type: 'integer', minimum: 0 },
		drop: { enum: ['before', 'after'] },
		body: {},
	},
	additionalProperties: false,
};

const tokenSchema = {
	type: 'object',
	properties: {
		scopes: { type: 'array', items: { type: 'string' } },
		expiresInSeconds: { type: 'integer' },
	},
};

const eventSchema = {
	type: 'object',
	required: ['type'],
	properties: {
		type: { type: 'string', minLength: 1 },
		data: {},
		id: { type: 'string', minLength: 1 },
	},
};

const filters = (query) => ({ storeId: query.store_id, orderNumber: query.order_number });
const limitOf = (query) => Math.max(0, Number(query.limit ?? 100) || 0);

/** The admin API under /__sandbox/ (sandbox/README.md): test hooks, never part of the service. */
function adminRoutes(state, tokens) {
	return async function register(app) {
		app.addHook('onRequest', async (request) => {
			if (!LOOPBACK.has(request.socket.remoteAddress)) {
				throw new ServiceError(
					403,
					'ADMIN_LOOPBACK_ONLY',
					'The sandbox admin API answers loopback clients only',
				);
			}
		});

		// Admin POSTs may come without a body (`curl -X POST .../reset`); their fields are all
		// optional.
		app.addHook('preValidation', async (request) => {
			if (request.body === undefined) request.body = {};
		});

		app.get('/handlers', async () => ({ handlers: [...state.handlers.values()] }));

		app.get('/calls', async (request) => {
			const { route } = request.query;
			// A filter that can match nothing makes "no call was made" pass whatever happened: refuse it,
			// as faults do.
			if (route && !SERVICE_ROUTES.includes(route)) {
				throw new ServiceError(
					400,
					'UNKNOWN_ROUTE',
					`No service route is ${route}; the routes are ${SERVICE_ROUTES.join(', ')}`,
				);
			}
			// A remove_handler for an id never issued is a probe (the trigger learning the answer to an
			// unknown id): listed only with probes=true, so that the calls a test counts are those it
			// made.
			const probe = (call) =>
				call.route === '/api/webhook/remove_handler' && !state.issued.has(call.body?._id);
			const calls =
				request.query.probes === 'true' ? state.calls : state.calls.filter((call) => !probe(call));
			return { calls: route ? calls.filter((call) => call.route === route) : calls };
		});

		app.get('/deliveries', async (request) => {
			const { event_id: eventId } = request.query;
			const attempts = state.deliverer.attempts;
			return {
				deliveries: eventId ? attempts.filter((attempt) => attempt.event_id === eventId) : attempts,
			};
		});

		app.get('/orders', async (request) => {
			const orders = [];
			for (const index of state.orders.indices(filters(request.query))) {
				if (orders.length >= limitOf(request.query)) break;
				orders.push(state.orders.get(index).order);
			}
			return { orders };
		});

		// Shipment records with their order's store_id and order_number, to find one to restore.
		app.get('/shipments', async (request) => {
			const { deducted } = request.query;
			const shipments = [];
			for (const index of state.orders.indices(filters(request.query))) {
				const { order, records } = state.orders.get(index);
				for (const record of records) {
					if (shipments.length >= limitOf(request.query)) return { shipments };
					if (deducted !== undefined && String(record.deducted) !== deducted) continue;
					shipments.push({ store_id: order.store_id, order_number: order.order_number, ...record });
				}
			}
			return { shipments };
		});

		app.get('/kits', async () => ({ kits: state.kits }));

		app.get('/stores', async () => ({
			stores: state.catalog.stores,
			locations: state.catalog.locations,
		}));

		app.get('/items', async (request) => {
			const { item_id: itemId } = request.query;
			const items = itemId ? [state.itemsById.get(itemId)].filter(Boolean) : state.catalog.items;
			return {
				items: items.map(({ item_id, sku, name, inventory }) => ({
					item_id,
					sku,
					name,
					inventory,
				})),
			};
		});

		app.get('/faults', async () => ({ faults: state.faults }));

		// CPU time of the sandbox's own thread: over many calls, what they cost however busy the
		// machine is.
		app.get('/stats', async () => {
			const cpu = process.threadCpuUsage();
			// 429s counted as answered, not inferred from the calls: a run whose batches grow makes fewer
			// calls than batches.
			const tooManyRequests = state.calls.reduce(
				(count, call) => count + (call.status === 429 ? 1 : 0),
				0,
			);
			return {
				threadCpuMs: (cpu.user + cpu.system) / 1000,
				calls: state.calls.length,
				tooManyRequests,
				connections: state.connections,
				heapUsedMb: process.memoryUsage().heapUsed / 1e6,
			};
		});

		app.post('/tokens', { schema: { body: tokenSchema } }, async (request) => ({
			token: await tokens.issueToken(request.body ?? {}),
		}));

		app.post('/events', { schema: { body: eventSchema } }, async (request) => {
			const { type, data, id } = request.body;
			const { event, handlers, settled } = state.deliverer.emit(type, data, id);
			if (request.query.wait === 'true') await settled;
			return { event_id: event.id, handlers };
		});

		app.post('/faults', { schema: { body: faultSchema } }, async (request) => {
			const { count, ...fault } = request.body;
			if (fault.status === undefined && fault.delayMs === undefined && fault.drop === undefined) {
				throw new ServiceError(400, 'INVALID_FAULT', 'A fault needs status, delayMs or drop');
			}
			state.faults.push({ ...fault, remaining: count });
			return { ok: true };
		});

		// A stand-in for Slack, e-mail or any chat: example workflows "notify" by posting here, so they
		// run without an account anywhere and a test can read what they sent.
		app.post('/inbox', async (request) => {
			state.inbox.push({ time: new Date().toISOString(), body: request.body });
			return { ok: true, messages: state.inbox.length };
		});

		app.get('/inbox', async () => ({ messages: state.inbox }));

		app.post('/config', { schema: { body: configSchema } }, async (request) =>
			state.configure(request.body ?? {}),
		);

		app.get('/config', async () => state.config);

		app.post('/reset', async () => {
			state.reset();
			return { ok: true, seedMs: state.seedMs };
		});
	};
}

module.exports = { adminRoutes, SERVICE_ROUTES };
