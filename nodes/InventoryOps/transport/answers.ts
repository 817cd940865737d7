import { ENDPOINTS, type Endpoint } from './endpoints';
import { isPlainObject } from '../shared/objects';

// Each reading copes with every answer docs/service-interface.md lists where the service's
// description is open.

type Texts = 'message' | 'code' | 'overview' | 'origin' | 'serviceTraceId' | 'type' | 'display';
/** `page`: the body was a web page (a gateway's); its title is the message. */
export type ServiceError = Partial<Record<Texts, string>> & {
	statusCode?: number;
	user_error?: boolean;
	page?: boolean;
};

const SERVICE_ERROR_FIELDS = {
	message: 'string',
	statusCode: 'number',
	code: 'string',
	overview: 'string',
	origin: 'string',
	serviceTraceId: 'string',
	type: 'string',
	user_error: 'boolean',
	display: 'string',
};
function oneLine(text: string, max = 300): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > max ? `${line.slice(0, max)}…` : line;
}

function pageTitle(text: string): string | undefined {
	if (!/^\s*(<!doctype html|<html|<head|<body|<\?xml)|<title[\s>]/i.test(text)) return undefined;
	const found =
		/<title[^>]*>([\s\S]*?)<\/title>/i.exec(text) ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text);
	const title = oneLine((found?.[1] ?? '').replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' '));
	return title === '' ? 'a page without a title' : title;
}

/** `{ error: {...} }`, the object bare, JSON as text, plain text, or a web page's title. */
export function readServiceError(body: unknown): ServiceError {
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed === '') return {};
		if (/^[{[]/.test(trimmed)) {
			try {
				return readServiceError(JSON.parse(trimmed));
			} catch {
				// Text, not JSON.
			}
		}
		const title = pageTitle(trimmed);
		return title === undefined ? { message: oneLine(trimmed) } : { message: title, page: true };
	}
	const { error, message } = isPlainObject(body) ? body : {};
	if (typeof error === 'string' && message === undefined)
		return { ...readServiceError({ ...(body as object), error: undefined }), message: error };
	const candidate = isPlainObject(error) ? error : body;
	if (!isPlainObject(candidate)) return {};
	const read = Object.entries(SERVICE_ERROR_FIELDS).filter(
		([field, type]) => typeof candidate[field] === type,
	);
	const traceId =
		typeof candidate.traceId === 'string' ? { serviceTraceId: candidate.traceId } : {};
	return {
		...traceId,
		...Object.fromEntries(read.map(([field]) => [field, candidate[field]])),
	} as ServiceError;
}

/** The documented error body, `{ error: { message, ... } }`. */
export function isServiceErrorShape(body: unknown): boolean {
	const { message } = isPlainObject(body) && isPlainObject(body.error) ? body.error : {};
	return typeof message === 'string';
}

/** A 200 `success: false`, with a reason or without, as the service refusing, or undefined. */
export function refusalIn(answer: unknown): ServiceError | undefined {
	return isPlainObject(answer) && answer.success === false ? readServiceError(answer) : undefined;
}

export function summaryOf(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value))
		return `a list of ${value.length} entr${value.length === 1 ? 'y' : 'ies'}`;
	if (typeof value === 'string')
		return oneLine(value) === '' ? 'an empty body' : `text "${oneLine(value, 80)}"`;
	if (isPlainObject(value)) {
		const keys = Object.keys(value);
		return keys.length === 0
			? 'an empty object'
			: `an object with ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`;
	}
	return `${typeof value} ${String(value)}`;
}

export function unexpectedShape(endpoint: Endpoint, answer: unknown): string | undefined {
	const expected = ENDPOINTS[endpoint].answer;
	const fits = expected === 'list' ? Array.isArray(answer) : isPlainObject(answer);
	if (!fits)
		return `${summaryOf(answer)} where ${expected === 'list' ? 'a list' : 'an object'} was expected`;
	// remove_handler says whether it removed: a `false` is a refusal (refusalIn), anything but `true`
	// unreadable.
	return endpoint === 'webhookRemoveHandler' && (answer as Record<string, unknown>).success !== true
		? `${summaryOf(answer)}, without success true or false`
		: undefined;
}

export const isIdLike = (value: unknown): boolean =>
	(typeof value === 'string' && value.trim() !== '') || Number.isFinite(value);

export function findHandlerId(answer: unknown): string | undefined {
	if (!isPlainObject(answer)) return undefined;
	for (const object of [answer, answer.handler, answer.data, answer.result, answer.webhook]) {
		if (!isPlainObject(object)) continue;
		const key = ['_id', 'id', 'handler_id', 'handlerId'].find((name) => isIdLike(object[name]));
		if (key !== undefined) return String(object[key]);
	}
	return undefined;
}
