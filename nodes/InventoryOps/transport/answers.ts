import { ENDPOINTS, type Endpoint } from './endpoints';
import { isPlainObject } from '../shared/objects';

/**
 * The one reading of the service's answers, for both nodes. The service's description leaves open where a new
 * handler's id is, what a 200 with `success: false` means, and what an error body looks like beyond its own
 * `{ error }` shape; each reading here copes with every answer docs/service-interface.md lists for that point.
 */

/** The service's error object (docs/service-interface.md, Errors); any field may be missing on an unexpected answer. */
export interface ServiceError {
	message?: string;
	statusCode?: number;
	code?: string;
	overview?: string;
	origin?: string;
	serviceTraceId?: string;
	type?: string;
	user_error?: boolean;
	display?: string;
	/** Set when the body was a web page (a gateway's or proxy's), whose title is the message. */
	page?: boolean;
}

const MAX_TEXT = 300;

function oneLine(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line;
}

/** The text of a web page's title (or first heading), without markup; undefined when the text is not a page. */
function pageTitle(text: string): string | undefined {
	if (!/^\s*(<!doctype html|<html|<head|<body|<\?xml)|<title[\s>]/i.test(text)) return undefined;
	const found = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text) ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text);
	const title = oneLine((found?.[1] ?? '').replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' '));
	return title === '' ? 'a page without a title' : title;
}

function textOf(body: unknown): string | undefined {
	if (typeof body === 'string') return body;
	if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
	return undefined;
}

/**
 * An error body of any shape: the service's `{ error: {...} }`, the error object bare, JSON sent as text, plain
 * text, or a gateway's HTML page (its title only, never markup).
 */
export function readServiceError(body: unknown): ServiceError {
	const text = textOf(body);
	if (text !== undefined) {
		const trimmed = text.trim();
		if (trimmed === '') return {};
		if (/^[{[]/.test(trimmed)) {
			try {
				return readServiceError(JSON.parse(trimmed));
			} catch {
				// Not JSON after all: read as text below.
			}
		}
		const title = pageTitle(trimmed);
		return title === undefined ? { message: oneLine(trimmed) } : { message: title, page: true };
	}
	const candidate = isPlainObject(body) && isPlainObject(body.error) ? body.error : body;
	if (isPlainObject(body) && typeof body.error === 'string' && body.message === undefined) {
		return { ...readServiceError({ ...body, error: undefined }), message: body.error };
	}
	if (!isPlainObject(candidate)) return {};
	const pick = <T>(key: string, type: string) => (typeof candidate[key] === type ? (candidate[key] as T) : undefined);
	return {
		message: pick<string>('message', 'string'),
		statusCode: pick<number>('statusCode', 'number'),
		code: pick<string>('code', 'string'),
		overview: pick<string>('overview', 'string'),
		origin: pick<string>('origin', 'string'),
		serviceTraceId: pick<string>('serviceTraceId', 'string') ?? pick<string>('traceId', 'string'),
		type: pick<string>('type', 'string'),
		user_error: pick<boolean>('user_error', 'boolean'),
		display: pick<string>('display', 'string'),
	};
}

/**
 * A 200 answer that says the operation was not done (`success: false`), read as the service's refusal, or
 * undefined. Only for the operations where a refusal means a failed item (kit create, handler add); remove keeps
 * `success: false` as its documented answer for a handler that is unknown or already gone.
 */
export function refusalIn(endpoint: Endpoint, answer: unknown): ServiceError | undefined {
	if (!ENDPOINTS[endpoint].successFalseIsFailure) return undefined;
	if (!isPlainObject(answer) || answer.success !== false) return undefined;
	return readServiceError(answer);
}

const ID_KEYS = ['_id', 'id', 'handler_id', 'handlerId'];
const CONTAINER_KEYS = ['handler', 'data', 'result', 'webhook'];

function idAt(object: Record<string, unknown>): string | undefined {
	for (const key of ID_KEYS) {
		const value = object[key];
		if (typeof value === 'string' && value.trim() !== '') return value;
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	}
	return undefined;
}

/**
 * Where a new handler's id may be in the add_handler answer: at its top, or one level down in `handler`,
 * `data`, `result` or `webhook`. Undefined when the answer carries none.
 */
export function findHandlerId(answer: unknown): string | undefined {
	if (!isPlainObject(answer)) return undefined;
	const direct = idAt(answer);
	if (direct !== undefined) return direct;
	for (const key of CONTAINER_KEYS) {
		const nested = answer[key];
		if (isPlainObject(nested)) {
			const id = idAt(nested);
			if (id !== undefined) return id;
		}
	}
	return undefined;
}
