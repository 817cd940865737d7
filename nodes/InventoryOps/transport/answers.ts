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
 * undefined. With a reason (a message, a code, or an error object or text) it is a refusal from every operation.
 * Without one it is too, except from remove_handler, where it is the ambiguous answer `readRemovalAnswer` reads.
 */
export function refusalIn(endpoint: Endpoint, answer: unknown): ServiceError | undefined {
	if (!isPlainObject(answer) || answer.success !== false) return undefined;
	const refusal = readServiceError(answer);
	const reasonless = refusal.message === undefined && refusal.code === undefined;
	return reasonless && !ENDPOINTS[endpoint].bareSuccessFalseIsRefusal ? undefined : refusal;
}

/**
 * What arrived, in a few words, for an error or notice that names it: "a list of 3 entries", "text "…"",
 * "an object with ok, data". Text is cut short; it never holds the request's credentials (the service never sees them
 * in a body).
 */
export function describeArrived(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return `a list of ${value.length} entr${value.length === 1 ? 'y' : 'ies'}`;
	const text = textOf(value);
	if (text !== undefined) {
		const line = oneLine(text);
		if (line === '') return 'an empty body';
		return `text "${line.length > 80 ? `${line.slice(0, 80)}…` : line}"`;
	}
	if (isPlainObject(value)) {
		const keys = Object.keys(value);
		if (keys.length === 0) return 'an empty object';
		return `an object with ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`;
	}
	return `${typeof value} ${String(value)}`;
}

/** Why a 2xx answer is not the shape the route's answer has (a list or an object), or undefined when it is. */
export function shapeProblem(endpoint: Endpoint, answer: unknown): string | undefined {
	const expected = ENDPOINTS[endpoint].answer;
	const fits = expected === 'list' ? Array.isArray(answer) : isPlainObject(answer);
	return fits ? undefined : `${describeArrived(answer)} where ${expected === 'list' ? 'a list' : 'an object'} was expected`;
}

/** One entry of a bulk lookup answer the node can place: the entry (a bare order wrapped as `{ order }`), its order's pair. */
type BulkEntry = { entry: Record<string, unknown>; storeId?: unknown; orderNumber: unknown };

/** A result entry's own fields beside its order, and the pair asked for (an entry may repeat it for one not matched). */
const BESIDE_ORDER = new Set(['metrics', 'barcode_generation_failed', 'store_id', 'order_number']);

/**
 * An entry's order: its `order` when it has that field, else the entry itself when it holds more than BESIDE_ORDER
 * (a bare order record; a record has no field `order`). Undefined when it carries no order in any form (none, null,
 * `{}`, only the pair): the service's way of saying not found. for...in, not Object.keys, which would list an
 * order's 41 field names for every order of every answer.
 */
function orderIn(entry: Record<string, unknown>): unknown {
	if (!('order' in entry)) {
		for (const field in entry) if (!BESIDE_ORDER.has(field)) return entry;
		return undefined;
	}
	if (!isPlainObject(entry.order)) return entry.order ?? undefined;
	for (const _field in entry.order) return entry.order;
	return undefined;
}

/** A bare order record as a wrapped entry, so that every output mode gives it the wrapped entry's layout. */
function asEntry(record: Record<string, unknown>): Record<string, unknown> {
	if (record.metrics === undefined && record.barcode_generation_failed === undefined) return { order: record };
	const { metrics, barcode_generation_failed: failed, ...order } = record;
	return { order, ...(metrics === undefined ? {} : { metrics }), ...(failed === undefined ? {} : { barcode_generation_failed: failed }) };
}

/**
 * The entries of a bulk lookup answer (a list, checked by the transport), wrapped (`{ order, ... }`) or bare (the
 * order records themselves): those whose order has an order_number, and for every other one what it was, so that
 * no reference is called not found because of an entry the node could not read. An entry without an order is
 * skipped (docs/service-interface.md, A reference that matches no order).
 */
export function readBulkAnswer(answer: unknown[]): { entries: BulkEntry[]; unreadable: string[] } {
	const entries: BulkEntry[] = [];
	const unreadable: string[] = [];
	for (let index = 0; index < answer.length; index++) {
		const entry = answer[index];
		const order = isPlainObject(entry) ? orderIn(entry) : entry;
		if (!isPlainObject(entry)) {
			unreadable.push(`entry ${index} is ${describeArrived(entry)}`);
		} else if (order !== undefined && !isPlainObject(order)) {
			unreadable.push(`entry ${index} has as its order ${describeArrived(order)}`);
		} else if (order !== undefined && (order.order_number === undefined || order.order_number === null)) {
			unreadable.push(`entry ${index} ${order === entry ? 'is' : 'has'} an order without an order_number`);
		} else if (order !== undefined) {
			entries.push({ entry: order === entry ? asEntry(entry) : entry, storeId: order.store_id ?? undefined, orderNumber: order.order_number });
		}
	}
	return { entries, unreadable };
}

/** Answer fields docs/service-interface.md shows that this answer lacks (or holds as something other than non-empty text). */
function missingTexts(answer: Record<string, unknown>, fields: readonly string[]): string[] {
	return fields.filter((field) => {
		const value = answer[field];
		// Number.isFinite is false for anything but a number (it converts nothing, unlike the global isFinite).
		return !(typeof value === 'string' && value.trim() !== '') && !Number.isFinite(value);
	});
}

/** kit/create's answer `{ success, _id, new_kit_id }`: the ids it lacks. */
export function missingFromKitAnswer(answer: Record<string, unknown>): string[] {
	return missingTexts(answer, ['_id', 'new_kit_id']);
}

/** What the restore was asked to match the shipment by: the service's selectors as sent, only those given (none undefined). */
export interface ShipmentSelectors {
	shipment_id?: string;
	tracking_number?: string;
	carrier_shipment_id?: string;
}

/** What a restore answer `{ _id, shipments }` says, and what it lacks of what the node reads from it. */
interface RestoreAnswer {
	/** The shipment records as returned, when `shipments` is a list of objects. */
	shipments?: Array<Record<string, unknown>>;
	/** The one record the selectors match, when exactly one does. */
	restored?: Record<string, unknown>;
	/** Fields docs/service-interface.md shows that are missing or unreadable, each with what arrived. */
	missing: string[];
}

function selectorValue(record: Record<string, unknown>, selector: keyof ShipmentSelectors): unknown {
	if (selector === 'shipment_id') return record._id;
	const response = isPlainObject(record.response) ? record.response : {};
	return selector === 'tracking_number' ? response.tracking_number : response.shipment_id;
}

/**
 * The restore answer: the shipment records, and the one the request's selectors pick (the service's own id is the
 * record's `_id`, the tracking number and the carrier's id are in its `response`).
 */
export function readRestoreAnswer(answer: Record<string, unknown>, selectors: ShipmentSelectors): RestoreAnswer {
	const missing = missingTexts(answer, ['_id']).map((field) => `${field} (got ${describeArrived(answer[field])})`);
	const { shipments } = answer;
	if (!Array.isArray(shipments) || !shipments.every(isPlainObject)) {
		const got = Array.isArray(shipments)
			? `a list with ${shipments.filter((record) => !isPlainObject(record)).length} entries that are not records`
			: describeArrived(shipments);
		return { missing: [...missing, `shipments (got ${got})`] };
	}
	const given = Object.keys(selectors) as Array<keyof ShipmentSelectors>;
	const matching = shipments.filter((record) => given.every((key) => String(selectorValue(record, key)) === selectors[key]));
	if (matching.length !== 1) {
		const got = matching.length === 0 ? 'no record matching the shipment asked for' : `${matching.length} records matching it`;
		return { shipments, missing: [...missing, `the restored shipment (got ${got})`] };
	}
	return { shipments, restored: matching[0], missing };
}

/** The quantities a restored shipment record says it had deducted: its `request.order_items`, when it has them. */
export function restoredItemsOf(record: Record<string, unknown>): unknown[] | undefined {
	const request = isPlainObject(record.request) ? record.request : {};
	return Array.isArray(request.order_items) ? request.order_items : undefined;
}

/**
 * remove_handler's 200 answer `{ success }`: removed (`true`), nothing removed (a bare `false`: the service gave no
 * reason; it answers so for a handler it does not know, or one already gone), or an answer the node cannot read.
 * A `false` with a reason never gets here: it is a refusal (refusalIn).
 */
type RemovalAnswer = { removed: true } | { removed: false } | { problem: string };

export function readRemovalAnswer(answer: Record<string, unknown>): RemovalAnswer {
	if (answer.success === true) return { removed: true };
	if (answer.success === false) return { removed: false };
	return { problem: `${describeArrived(answer)}, without success true or false` };
}

/** Said wherever a bare `{ success: false }` of remove_handler is reported, by both nodes. */
export const NOTHING_REMOVED =
	'Nothing was removed: the service answered success: false without a reason. It answers so for a handler it does not know or that is already gone, so no handler with this id is registered now, as far as the service says.';

/**
 * A remove_handler error that says the service does not know the handler: a 404 about the handler (not the route:
 * a wrong Base URL is a real failure), or a refusal whose reason says not found.
 */
export function saysHandlerUnknown(httpCode: string | null | undefined, code: unknown, message: string): boolean {
	if (httpCode === '404') return !/route/i.test(String(code ?? '')) && !/route|path/i.test(message);
	return httpCode === '200' && /not[\s_-]?found|unknown|no such|does not exist/i.test(`${String(code ?? '')} ${message}`);
}

const ID_KEYS = ['_id', 'id', 'handler_id', 'handlerId'];
const CONTAINER_KEYS = ['handler', 'data', 'result', 'webhook'];

function idAt(object: Record<string, unknown>): string | undefined {
	for (const key of ID_KEYS) {
		const value = object[key];
		if (typeof value === 'string' && value.trim() !== '') return value;
		if (Number.isFinite(value)) return String(value);
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
