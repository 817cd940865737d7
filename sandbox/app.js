'use strict';

const Fastify = require('fastify');
const { classify, codeAs, errorBody, sendError, ServiceError } = require('./errors');
const { serviceRoutes } = require('./routes/service');
const { adminRoutes } = require('./routes/admin');

const ADMIN_PREFIX = '/__sandbox';
// The `route` of a fault that answers the paths no route serves.
const UNSERVED = 'unserved';
// Refusals that the `refusals: 'success-false'` switch turns into 200 `{ success: false }` (not
// auth, not 429).
const REFUSING_ROUTES = new Set(['/api/kit/create', '/api/webhook/add_handler']);
const REFUSALS = new Set([400, 404, 409]);
const FAULT_CODES = {
	429: 'RATE_LIMITED',
	500: 'INTERNAL_ERROR',
	502: 'BAD_GATEWAY',
	503: 'SERVICE_UNAVAILABLE',
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Records how a call ends; with a `drop: 'after'` fault, closes the connection instead of answering
 * (the change is committed, the client never hears about it). Returns whether the answer may be
 * sent.
 */
function settleCall(request, statusCode) {
	if (!request.call) return true;
	request.call.status = statusCode;
	request.call.body = request.body;
	request.call.ms = Number(process.hrtime.bigint() - request.startedAt) / 1e6;
	if (!request.dropAfter) return true;
	request.call.dropped = 'after';
	request.raw.socket.destroy();
	return false;
}

/**
 * Answers 200 with JSON made of byte chunks written straight to the socket in one writev: no copy
 * into one big buffer and no garbage per call, which is most of what a large bulk answer would
 * otherwise cost.
 */
function sendJsonChunks(request, reply, chunks, length, perKbMs = 0) {
	reply.hijack();
	if (!settleCall(request, 200)) return reply;
	const response = reply.raw;
	const send = () => {
		response.writeHead(200, {
			'content-type': 'application/json; charset=utf-8',
			'content-length': length,
		});
		response.cork();
		for (const chunk of chunks) response.write(chunk);
		response.uncork();
		response.end();
	};
	// The latency switch's transfer part: a network moves this many KB in perKbMs each.
	if (perKbMs > 0) setTimeout(send, Math.round((length / 1024) * perKbMs));
	else send();
	return reply;
}

/**
 * Builds the fastify app: service routes behind faults, auth and rate limit; admin routes beside
 * them.
 */
function buildApp(state, tokens) {
	const app = Fastify({
		logger: false,
		forceCloseConnections: true,
		bodyLimit: 5 * 1024 * 1024,
		// Wrong field types must be refused, not coerced ("1001" vs 1001), and unknown fields kept as
		// sent.
		ajv: {
			customOptions: {
				coerceTypes: false,
				removeAdditional: false,
				useDefaults: true,
				allErrors: false,
			},
		},
	});
	// Only JSON is accepted; fastify's default text/plain parser would let a text body through to
	// validation. An empty body of any type counts as no body (axios labels a bodiless POST
	// form-urlencoded).
	app.removeContentTypeParser('text/plain');
	app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, payload, done) => {
		if (payload.length === 0) return done(null, undefined);
		done(
			new ServiceError(
				400,
				'INVALID_CONTENT_TYPE',
				'The request body must be sent as Content-Type: application/json',
			),
		);
	});

	// Every request outside the admin API is recorded, in arrival order, to count calls and
	// duplicates, with the number of service calls open at its arrival (itself included): what a
	// client's calls in flight look like here.
	let open = 0;
	app.addHook('onRequest', async (request, reply) => {
		if (request.url.startsWith(ADMIN_PREFIX)) return;
		request.startedAt = process.hrtime.bigint();
		open++;
		reply.raw.once('close', () => open--);
		request.call = {
			route: request.url.split('?')[0],
			method: request.method,
			status: null,
			body: undefined,
			time: new Date().toISOString(),
			concurrent: open,
		};
		state.calls.push(request.call);
	});
	app.addHook('onSend', async (request, reply) => {
		settleCall(request, reply.statusCode);
	});

	/**
	 * Every error answer, shaped by the switches `errorBodies`, `errorCodes`, `retryAfter` and
	 * `refusals` (sandbox/switches.js).
	 */
	function replyError(request, reply, status, sandboxCode, message, headers = {}) {
		const { errorBodies, retryAfter, refusals } = state.config;
		const code = codeAs(state.config.errorCodes, sandboxCode);
		const route = request.url.split('?')[0];
		if (refusals === 'success-false' && REFUSING_ROUTES.has(route) && REFUSALS.has(status)) {
			return reply.code(200).type('application/json').send({ success: false, message, code });
		}
		const shapedHeaders = { ...headers };
		if (shapedHeaders['Retry-After'] !== undefined && retryAfter !== 'seconds') {
			const seconds = Number(shapedHeaders['Retry-After']);
			if (retryAfter === 'absent') delete shapedHeaders['Retry-After'];
			else shapedHeaders['Retry-After'] = new Date(Date.now() + seconds * 1000).toUTCString();
		}
		if (errorBodies === 'spec') return sendError(reply, status, code, message, shapedHeaders);
		for (const [name, value] of Object.entries(shapedHeaders)) reply.header(name, value);
		const { error } = errorBody(status, code, message);
		if (errorBodies === 'bare') return reply.code(status).type('application/json').send(error);
		if (errorBodies === 'text')
			return reply
				.code(status)
				.type('text/plain')
				.send(code === undefined ? message : `${code}: ${message}`);
		const title = `${status} ${error.overview}`;
		return reply
			.code(status)
			.type('text/html')
			.send(
				`<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
			);
	}

	app.setErrorHandler((error, request, reply) => {
		const [status, code, message, headers] = classify(error);
		return replyError(request, reply, status, code, message, headers);
	});
	/**
	 * Answers as an armed fault says (after its delay); undefined when the call goes on (a delay
	 * alone, `drop: 'after'`).
	 */
	async function answerFault(request, reply, fault) {
		if (fault.delayMs) await sleep(fault.delayMs);
		if (fault.drop === 'before') {
			request.call.dropped = 'before';
			reply.hijack();
			request.raw.socket.destroy();
			return reply;
		}
		if (fault.drop === 'after') request.dropAfter = true;
		if (fault.status === undefined) return undefined;
		const faultHeaders =
			fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) };
		if (fault.body === undefined) {
			const code = FAULT_CODES[fault.status] ?? 'INJECTED_FAULT';
			return replyError(
				request,
				reply,
				fault.status,
				code,
				`Fault injected by the sandbox: ${fault.status}`,
				faultHeaders,
			);
		}
		for (const [name, value] of Object.entries(faultHeaders)) reply.header(name, value);
		return reply.code(fault.status).type('application/json').send(fault.body);
	}

	// Switch `unknownPaths`: `plain` names the path it has no route for; `service-error` answers like
	// any other error. A fault with `route: 'unserved'` answers these paths first (a gateway's or a
	// framework's catch-all), not the admin API's.
	app.setNotFoundHandler(async (request, reply) => {
		const fault = request.call ? state.takeFault(UNSERVED) : undefined;
		const answered = fault && (await answerFault(request, reply, fault));
		if (answered) return answered;
		return state.config.unknownPaths === 'service-error'
			? replyError(request, reply, 404, undefined, 'Not Found')
			: replyError(
					request,
					reply,
					404,
					'NOT_FOUND',
					`No route ${request.method} ${request.url.split('?')[0]}`,
				);
	});

	app.register(async (service) => {
		service.addHook('preValidation', async (request, reply) => {
			request.call.body = request.body;
			// The latency switch: every call pays one round trip of this many milliseconds, and the first
			// call on a new connection one more (the TCP handshake's; TLS would add more, so this is the
			// least a new connection costs).
			const socket = request.raw.socket;
			const newConnection = !state.sockets.has(socket);
			if (newConnection) {
				state.sockets.add(socket);
				state.connections++;
			}
			const latency = state.config.latencyMs * (newConnection ? 2 : 1);
			if (latency > 0) await sleep(latency);
			const fault = state.takeFault(request.call.route);
			const answered = fault && (await answerFault(request, reply, fault));
			if (answered) return answered;
			await tokens.authorize(request.headers.authorization);
			const retryAfter = state.rateLimited(request.headers.authorization);
			if (retryAfter !== undefined) {
				return replyError(
					request,
					reply,
					429,
					'RATE_LIMITED',
					`Rate limit exceeded; retry in ${retryAfter} s`,
					{ 'Retry-After': String(retryAfter) },
				);
			}
		});
		await serviceRoutes(state, { sendJsonChunks })(service);
	});

	app.register(adminRoutes(state, tokens), { prefix: ADMIN_PREFIX });
	return app;
}

module.exports = { buildApp };
