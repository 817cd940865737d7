'use strict';

const { randomUUID } = require('node:crypto');

const ORIGIN = 'inventory-ops-sandbox';

const OVERVIEWS = {
	400: 'Bad request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not found',
	409: 'Conflict',
	429: 'Too many requests',
	500: 'Internal server error',
	502: 'Bad gateway',
	503: 'Service unavailable',
	504: 'Gateway timeout',
};

// The sandbox's error codes (sandbox/README.md, Error codes) are only its example: the service's
// set of codes is not known. Switch `errorCodes: 'other'` answers every error with one of these
// instead (`E_OTHER` for a code not listed), `none` with no code at all, so that no test and no
// node reading can lean on the sandbox's names.
const OTHER_CODES = {
	ALREADY_RESTORED: 'E_RESTORE_TWICE',
	NOTHING_TO_RESTORE: 'E_NO_DEDUCTION',
	SHIPMENT_NOT_FOUND: 'E_NO_SHIPMENT',
	HANDLER_NOT_FOUND: 'E_NO_HANDLER',
	NOT_FOUND: 'E_NO_ADDRESS',
	DUPLICATE_SKU: 'E_SKU_TAKEN',
	UNKNOWN_COMPONENT: 'E_NO_COMPONENT',
	MISSING_SHIPMENT_SELECTOR: 'E_NO_SELECTOR',
	WILDCARD_NOT_SUPPORTED: 'E_PATTERN',
	VALIDATION_ERROR: 'E_REFERENCE',
	ARRAY_TOO_LONG: 'E_TOO_MANY',
	PAYLOAD_TOO_LARGE: 'E_TOO_BIG',
	BODY_TOO_LARGE: 'E_TOO_BIG',
	INVALID_CONTENT_TYPE: 'E_MEDIA',
	INVALID_JSON: 'E_SYNTAX',
	EMPTY_BODY: 'E_EMPTY',
	MISSING_BODY: 'E_EMPTY',
	MISSING_FIELD: 'E_REQUIRED',
	INVALID_FIELD_TYPE: 'E_TYPE',
	INVALID_FIELD: 'E_VALUE',
	BAD_REQUEST: 'E_REQUEST',
	UNAUTHORIZED: 'E_AUTH',
	TOKEN_EXPIRED: 'E_AUTH_STALE',
	FORBIDDEN: 'E_SCOPE',
	RATE_LIMITED: 'E_SLOW_DOWN',
	INTERNAL_ERROR: 'E_CRASH',
	BAD_GATEWAY: 'E_UPSTREAM',
	SERVICE_UNAVAILABLE: 'E_DOWN',
	INJECTED_FAULT: 'E_FAULT',
};

/**
 * The code an error carries under switch `errorCodes` (sandbox/switches.js): the sandbox's,
 * another, or none.
 */
function codeAs(errorCodes, code) {
	if (errorCodes === 'none') return undefined;
	return errorCodes === 'other' ? (OTHER_CODES[code] ?? 'E_OTHER') : code;
}

/**
 * An error the routes throw; the error handler turns it into the service's error shape
 * (docs/service-interface.md, Errors).
 */
class ServiceError extends Error {
	constructor(statusCode, code, message, headers = {}) {
		super(message);
		this.statusCode = statusCode;
		this.code = code;
		this.headers = headers;
	}
}

/** The service's `{ error: {...} }` body with every optional field filled. */
function errorBody(statusCode, code, message) {
	const userError = statusCode >= 400 && statusCode < 500;
	return {
		error: {
			message,
			statusCode,
			code,
			overview: OVERVIEWS[statusCode] ?? (userError ? 'Request error' : 'Server error'),
			origin: ORIGIN,
			serviceTraceId: randomUUID(),
			type: 'error',
			user_error: userError,
			display: userError ? 'notification' : 'panel',
		},
	};
}

function sendError(reply, statusCode, code, message, headers = {}) {
	for (const [name, value] of Object.entries(headers)) reply.header(name, value);
	return reply
		.code(statusCode)
		.type('application/json')
		.send(errorBody(statusCode, code, message));
}

/**
 * `/order/0/order_number` -> `order[0].order_number`, so messages name the field as a person writes
 * it.
 */
function fieldPath(instancePath, extra) {
	const parts = instancePath.split('/').filter(Boolean);
	if (extra !== undefined) parts.push(extra);
	let path = 'body';
	for (const part of parts) path += /^\d+$/.test(part) ? `[${part}]` : `.${part}`;
	return path;
}

/** Turns an ajv failure (via fastify) into one clear code per kind of mistake. */
function fromValidation(validation) {
	const first = validation[0] ?? {};
	if (first.keyword === 'required') {
		return [
			'MISSING_FIELD',
			`${fieldPath(first.instancePath, first.params.missingProperty)} is required`,
		];
	}
	if (first.keyword === 'type' && first.instancePath === '') {
		return ['MISSING_BODY', 'The request body must be a JSON object'];
	}
	if (first.keyword === 'type') {
		return ['INVALID_FIELD_TYPE', `${fieldPath(first.instancePath)} ${first.message}`];
	}
	return ['INVALID_FIELD', `${fieldPath(first.instancePath)} ${first.message}`];
}

/** Maps whatever fastify or a route threw to status, code and message. */
function classify(error) {
	if (error instanceof ServiceError)
		return [error.statusCode, error.code, error.message, error.headers];
	if (error.validation) return [400, ...fromValidation(error.validation), {}];
	switch (error.code) {
		case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
		case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
			return [
				400,
				'INVALID_CONTENT_TYPE',
				'The request body must be sent as Content-Type: application/json',
				{},
			];
		case 'FST_ERR_CTP_EMPTY_JSON_BODY':
			return [400, 'EMPTY_BODY', 'The request body is empty; a JSON object is required', {}];
		case 'FST_ERR_CTP_INVALID_JSON_BODY':
			return [400, 'INVALID_JSON', 'The request body is not valid JSON', {}];
		case 'FST_ERR_CTP_BODY_TOO_LARGE':
			return [413, 'BODY_TOO_LARGE', 'The request body is too large', {}];
		default:
			if (error instanceof SyntaxError)
				return [400, 'INVALID_JSON', 'The request body is not valid JSON', {}];
			if (error.statusCode >= 400 && error.statusCode < 500) {
				return [error.statusCode, 'BAD_REQUEST', error.message, {}];
			}
			return [500, 'INTERNAL_ERROR', `The sandbox failed: ${error.message}`, {}];
	}
}

module.exports = { ServiceError, errorBody, sendError, classify, codeAs, OTHER_CODES };
