import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../shared/objects';

/** A test listen and a publication never touch each other's handlers. */
export type RegistrationKind = 'production' | 'test';

export interface HandlerRecord {
	type: string;
	id?: string;
	name: string;
	url: string;
	kind: RegistrationKind;
}

export interface Registration {
	url: string;
	kind: RegistrationKind;
	secret: string;
	handlers: HandlerRecord[];
	// The Options, kept at activation: a delivery reads no parameter (each read is an expression evaluation).
	ignoreRepeats: boolean;
	includeHeaders: boolean;
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
	return {
		url,
		kind: value.kind === 'test' ? 'test' : 'production',
		secret: typeof value.secret === 'string' ? value.secret : '',
		handlers: asHandlers(value.handlers),
		ignoreRepeats: value.ignoreRepeats !== false,
		includeHeaders: value.includeHeaders === true,
	};
}

/** Every field checked and copied: static data survives restarts and hand edits. */
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
	staticData[STATE_KEY] = { registrations: state.registrations, leftovers: state.leftovers.slice(-MAX_RECORDS) } as unknown as IDataObject;
}
