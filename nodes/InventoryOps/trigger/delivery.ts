import { timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { matchesEventType } from '../shared/events';
import { isPlainObject } from '../shared/objects';
import { unremovableNotices } from './removal';
import { readState, type Registration } from './state';

// The service signs nothing: the secret header it sends back proves the origin.
export const SECRET_HEADER = 'x-inventory-ops-webhook-secret';
export const EVENT_TYPE_HEADER = 'x-inventory-ops-event-type';

export function secretMatches(expected: string, received: unknown): boolean {
	if (expected === '' || typeof received !== 'string') return false;
	const [want, got] = [Buffer.from(expected), Buffer.from(received)];
	return got.length === want.length && timingSafeEqual(want, got);
}

const RECENT_EVENT_IDS = 1000;
const REMEMBERED_REGISTRATIONS = 500;

// In memory: n8n 1.x lets concurrent deliveries overwrite each other's static data, 2.x saves none.
const seenEventIds = new Map<string, Set<string>>();

export function isRepeatedDelivery({ url, secret }: Registration, eventId: string): boolean {
	// 64 bits of the secret tell activations apart without standing in for it.
	const key = `${url}\n${secret.slice(0, 16)}`;
	let seen = seenEventIds.get(key);
	if (seen === undefined) {
		seen = new Set();
		seenEventIds.set(key, seen);
		if (seenEventIds.size > REMEMBERED_REGISTRATIONS)
			seenEventIds.delete(seenEventIds.keys().next().value as string);
	}
	if (seen.has(eventId)) return true;
	seen.add(eventId);
	if (seen.size > RECENT_EVENT_IDS) seen.delete(seen.values().next().value as string);
	return false;
}

// The delivery body is undocumented: an event, an envelope with other names, an array, or a record.
const TYPE_KEYS = ['type', 'event_type', 'eventType', 'event', 'topic'];
const ID_KEYS = ['event_id', 'eventId', 'delivery_id', 'deliveryId', 'id'];
const TIME_KEYS = ['created_at', 'createdAt', 'occurred_at', 'occurredAt', 'timestamp'];
const DATA_KEYS = ['data', 'payload', 'object'];

type DeliveredEvent = {
	id?: string;
	type: string;
	createdAt?: string;
	data: unknown;
	raw?: unknown;
};

function firstText(object: Record<string, unknown>, keys: string[]): string | undefined {
	for (const key of keys) {
		const value = object[key];
		if (typeof value === 'string' && value.trim() !== '') return value;
		if (key !== 'type' && Number.isFinite(value)) return String(value);
	}
	return undefined;
}

function readEvent(body: unknown, registeredType: string | undefined): DeliveredEvent | undefined {
	const type = isPlainObject(body) ? firstText(body, TYPE_KEYS) : undefined;
	if (!isPlainObject(body) || type === undefined) {
		// A bare record: its `id` is the record's, not the event's.
		return registeredType === undefined
			? undefined
			: { type: registeredType, data: body, raw: body };
	}
	const dataKey = DATA_KEYS.find((key) => body[key] !== undefined);
	const data = dataKey === undefined ? { data: {}, raw: body } : { data: body[dataKey] ?? {} };
	return { id: firstText(body, ID_KEYS), type, createdAt: firstText(body, TIME_KEYS), ...data };
}

function readDeliveredEvents(body: unknown, registeredType?: string): DeliveredEvent[] | undefined {
	let parsed = body;
	try {
		if (typeof body === 'string') parsed = JSON.parse(body);
	} catch {
		return undefined;
	}
	if (parsed === undefined || parsed === null) return undefined;
	const events = (Array.isArray(parsed) ? parsed : [parsed]).map((candidate) =>
		readEvent(candidate, registeredType),
	);
	return events.every((event): event is DeliveredEvent => event !== undefined) ? events : undefined;
}

function refuse(this: IWebhookFunctions, status: number, error: string): IWebhookResponseData {
	this.getResponseObject().status(status).json({ error });
	return { noWebhookResponse: true };
}

// n8n 1.x names only the production URL, hence the one test registration.
function findRegistration(this: IWebhookFunctions): Registration | undefined {
	const registrations = Object.values(readState(this.getWorkflowStaticData('node')).registrations);
	const served = typeof this.getWebhookResourceUrl === 'function';
	if (served || this.getMode() !== 'manual') {
		const url = served ? this.getWebhookResourceUrl('default') : this.getNodeWebhookUrl('default');
		return registrations.find((registration) => registration.url === url);
	}
	const tests = registrations.filter(({ kind }) => kind === 'test');
	return tests.length === 1 ? tests[0] : undefined;
}

export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const registration = findRegistration.call(this);
	const headers = this.getHeaderData() as IDataObject;
	if (!registration || !secretMatches(registration.secret, headers[SECRET_HEADER])) {
		return refuse.call(this, 401, 'Missing or invalid webhook secret');
	}

	// An empty header names no type.
	const typeHeader = headers[EVENT_TYPE_HEADER];
	const events = readDeliveredEvents(
		this.getBodyData(),
		typeof typeHeader === 'string' && typeHeader !== '' ? typeHeader : undefined,
	);
	if (events === undefined) {
		return refuse.call(
			this,
			400,
			'The body is not an Inventory Ops event: expected JSON (an event, a list of events or a record)',
		);
	}

	const { handlers, ignoreRepeats, includeHeaders } = registration;
	const warnings = unremovableNotices(handlers);
	const receivedAt = new Date().toISOString();
	const ignored: string[] = [];
	const items: IDataObject[] = [];
	for (const { id, type, createdAt, data, raw } of events) {
		if (!handlers.some((record) => matchesEventType(record.type, type))) {
			ignored.push(`event type ${type} is not selected`);
		} else if (ignoreRepeats && id !== undefined && isRepeatedDelivery(registration, id)) {
			ignored.push(`event ${id} was already received`);
		} else {
			const json: IDataObject = {
				eventId: id ?? null,
				eventType: type,
				createdAt: createdAt ?? null,
				receivedAt,
				data: data as IDataObject,
			};
			if (raw !== undefined) json.rawBody = raw as IDataObject;
			if (includeHeaders)
				json.headers = Object.fromEntries(
					Object.entries(headers).filter(([name]) => name.toLowerCase() !== SECRET_HEADER),
				);
			if (warnings.length > 0) json.warnings = warnings;
			items.push(json);
		}
	}
	if (items.length === 0)
		return {
			webhookResponse: { received: true, ignored: ignored.length === 1 ? ignored[0] : ignored },
		};
	return { workflowData: [this.helpers.returnJsonArray(items)] };
}
