import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../shared/objects';

/** Test registrations ("listen for test event") and production ones never touch each other's handlers. */
export type RegistrationKind = 'production' | 'test';

export interface HandlerRecord {
	type: string;
	/** Missing when the service's answer carried no id: then this trigger cannot remove the handler. */
	id?: string;
	name: string;
	url: string;
	kind: RegistrationKind;
	addedAt: string;
}

/** The trigger's Options that shape a delivery's item (selection.ts reads them). */
export interface DeliveryOptions {
	ignoreRepeats: boolean;
	includeHeaders: boolean;
}

/** What one activation at one webhook URL holds. */
export interface Registration {
	url: string;
	kind: RegistrationKind;
	secret: string;
	handlers: HandlerRecord[];
	/**
	 * The Options of the activated version, so that a delivery reads no parameter (in n8n 2.x each read goes
	 * through the expression engine). Missing in records written before they were kept here.
	 */
	delivery?: DeliveryOptions;
}

export interface TriggerState {
	/** Keyed by webhook URL, so that the test URL and the production URL have separate records. */
	registrations: Record<string, Registration>;
	/** Handlers of earlier activations whose removal failed; the next activation removes them first. */
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
		addedAt: typeof value.addedAt === 'string' ? value.addedAt : '',
	};
}

function asHandlers(value: unknown): HandlerRecord[] {
	return Array.isArray(value)
		? value.map(asHandler).filter((entry): entry is HandlerRecord => entry !== undefined)
		: [];
}

function asRegistration(url: string, value: unknown): Registration | undefined {
	if (!isPlainObject(value)) return undefined;
	return {
		url,
		kind: value.kind === 'test' ? 'test' : 'production',
		secret: typeof value.secret === 'string' ? value.secret : '',
		handlers: asHandlers(value.handlers),
		delivery: asDeliveryOptions(value.delivery),
	};
}

function asDeliveryOptions(value: unknown): DeliveryOptions | undefined {
	if (!isPlainObject(value) || typeof value.ignoreRepeats !== 'boolean' || typeof value.includeHeaders !== 'boolean') return undefined;
	return { ignoreRepeats: value.ignoreRepeats, includeHeaders: value.includeHeaders };
}

/** The registration at one URL alone, checked as readState checks it: what a delivery needs, without the rest. */
export function readRegistration(staticData: IDataObject, url: string): Registration | undefined {
	const raw: unknown = staticData[STATE_KEY];
	if (!isPlainObject(raw) || !isPlainObject(raw.registrations) || !Object.hasOwn(raw.registrations, url)) return undefined;
	return asRegistration(url, raw.registrations[url]);
}

/**
 * A detached, validated copy of the trigger's node static data. Static data survives restarts and may hold
 * anything an older version wrote, so every field is checked rather than trusted.
 */
export function readState(staticData: IDataObject): TriggerState {
	// Every field below is copied into a fresh object, so the result is detached without a JSON round trip
	// (which cost most of a delivery's time and heap in the benchmark).
	const raw: unknown = staticData[STATE_KEY];
	const stored = isPlainObject(raw) ? raw : {};
	const registrations: Record<string, Registration> = {};
	if (isPlainObject(stored.registrations)) {
		for (const [url, value] of Object.entries(stored.registrations)) {
			const registration = asRegistration(url, value);
			if (registration) registrations[url] = registration;
		}
	}
	return {
		registrations,
		leftovers: asHandlers(stored.leftovers),
	};
}

/** Replaces the whole record: n8n only notices changes made at the top level of the static data object. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	const bounded: TriggerState = {
		registrations: state.registrations,
		leftovers: state.leftovers.slice(-MAX_RECORDS),
	};
	// readState hands out fresh objects, so the new record shares nothing with what it replaces.
	staticData[STATE_KEY] = bounded as unknown as IDataObject;
}
