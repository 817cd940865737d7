import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../shared/objects';

/** Test registrations ("listen for test event") and production ones never touch each other's handlers. */
export type RegistrationKind = 'production' | 'test';

export interface HandlerRecord {
	type: string;
	/** Missing when the service gave none: then this trigger cannot remove the handler. */
	id?: string;
	name: string;
	url: string;
	kind: RegistrationKind;
}

/** Kept with the registration: a delivery reads no parameter (in n8n 2.x each read is an expression evaluation). */
export interface DeliveryOptions {
	ignoreRepeats: boolean;
	includeHeaders: boolean;
}

export interface Registration {
	url: string;
	kind: RegistrationKind;
	secret: string;
	handlers: HandlerRecord[];
	delivery: DeliveryOptions;
}

export interface TriggerState {
	registrations: Record<string, Registration>;
	leftovers: HandlerRecord[];
}

const STATE_KEY = 'inventoryOpsTrigger';
const MAX_RECORDS = 100;

function asHandler(value: unknown): HandlerRecord | undefined {
	if (!isPlainObject(value) || typeof value.type !== 'string' || typeof value.url !== 'string') return undefined;
	return {
		type: value.type,
		id: typeof value.id === 'string' && value.id !== '' ? value.id : undefined,
		name: typeof value.name === 'string' ? value.name : '',
		url: value.url,
		kind: value.kind === 'test' ? 'test' : 'production',
	};
}

function asHandlers(value: unknown): HandlerRecord[] {
	return Array.isArray(value) ? value.map(asHandler).filter((entry): entry is HandlerRecord => entry !== undefined) : [];
}

function asRegistration(url: string, value: unknown): Registration | undefined {
	if (!isPlainObject(value)) return undefined;
	const delivery = isPlainObject(value.delivery) ? value.delivery : {};
	return {
		url,
		kind: value.kind === 'test' ? 'test' : 'production',
		secret: typeof value.secret === 'string' ? value.secret : '',
		handlers: asHandlers(value.handlers),
		delivery: { ignoreRepeats: delivery.ignoreRepeats !== false, includeHeaders: delivery.includeHeaders === true },
	};
}

export function readRegistration(staticData: IDataObject, url: string): Registration | undefined {
	const raw: unknown = staticData[STATE_KEY];
	if (!isPlainObject(raw) || !isPlainObject(raw.registrations) || !Object.hasOwn(raw.registrations, url)) return undefined;
	return asRegistration(url, raw.registrations[url]);
}

/** A detached copy, every field checked and copied: static data survives restarts and hand edits. */
export function readState(staticData: IDataObject): TriggerState {
	const raw: unknown = staticData[STATE_KEY];
	const stored = isPlainObject(raw) ? raw : {};
	const registrations: Record<string, Registration> = {};
	if (isPlainObject(stored.registrations)) {
		for (const [url, value] of Object.entries(stored.registrations)) {
			const registration = asRegistration(url, value);
			if (registration) registrations[url] = registration;
		}
	}
	return { registrations, leftovers: asHandlers(stored.leftovers) };
}

/** Replaces the whole record: n8n only notices changes made at the top level of the static data object. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	const bounded: TriggerState = { registrations: state.registrations, leftovers: state.leftovers.slice(-MAX_RECORDS) };
	staticData[STATE_KEY] = bounded as unknown as IDataObject;
}
