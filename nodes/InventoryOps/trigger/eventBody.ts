import { isPlainObject } from '../shared/objects';

/**
 * The service's description does not show the body it sends to a handler, so a delivery is read in every shape a
 * service plausibly sends: an event object (`type`, `id`, `created_at`, `data`), an envelope with other common names,
 * an array of events, or just the changed record. The handler's own registration says which type it was added
 * for (the EVENT_TYPE_HEADER it carries), so a body without a type still has one.
 */

/** Sent by the service with every delivery of a handler this trigger adds: the type the handler was added for. */
export const EVENT_TYPE_HEADER = 'x-inventory-ops-event-type';

const TYPE_KEYS = ['type', 'event_type', 'eventType', 'event', 'topic'];
const ID_KEYS = ['event_id', 'eventId', 'delivery_id', 'deliveryId', 'id'];
const TIME_KEYS = ['created_at', 'createdAt', 'occurred_at', 'occurredAt', 'timestamp'];
const DATA_KEYS = ['data', 'payload', 'object'];

interface DeliveredEvent {
	id?: string;
	type: string;
	createdAt?: string;
	data: unknown;
	/** The body as received, kept when its shape was not recognised, so that nothing is lost. */
	raw?: unknown;
}

function firstText(object: Record<string, unknown>, keys: string[]): string | undefined {
	for (const key of keys) {
		const value = object[key];
		if (typeof value === 'string' && value.trim() !== '') return value;
		// Number.isFinite is false for anything that is not a number (it does not convert).
		if (key !== 'type' && Number.isFinite(value)) return String(value);
	}
	return undefined;
}

function firstKey(object: Record<string, unknown>, keys: string[]): string | undefined {
	return keys.find((key) => object[key] !== undefined);
}

/** One event of a delivery; `registeredType` is the type its handler was added for, when the delivery says. */
function readOne(body: unknown, registeredType: string | undefined): DeliveredEvent | undefined {
	if (!isPlainObject(body)) {
		return registeredType === undefined ? undefined : { type: registeredType, data: body, raw: body };
	}
	const type = firstText(body, TYPE_KEYS);
	const dataKey = firstKey(body, DATA_KEYS);
	if (type === undefined) {
		// A record without an event type around it: its own `id` is the record's, not the event's.
		return registeredType === undefined ? undefined : { type: registeredType, data: body, raw: body };
	}
	return {
		id: firstText(body, ID_KEYS),
		type,
		createdAt: firstText(body, TIME_KEYS),
		...(dataKey === undefined ? { data: {}, raw: body } : { data: body[dataKey] ?? {} }),
	};
}

/**
 * The events of one delivery body (already parsed by n8n; a text body is parsed here), or undefined when the body is
 * not JSON, or is JSON with no event type while the handler gave none either. n8n's body parser gives parsed JSON,
 * text, or nothing (an empty body, another content type), never bytes.
 */
export function readDeliveredEvents(body: unknown, registeredType?: string): DeliveredEvent[] | undefined {
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return undefined;
		}
	}
	if (parsed === undefined || parsed === null) return undefined;
	const candidates = Array.isArray(parsed) ? parsed : [parsed];
	const events = candidates.map((candidate) => readOne(candidate, registeredType));
	return events.every((event): event is DeliveredEvent => event !== undefined) ? events : undefined;
}
