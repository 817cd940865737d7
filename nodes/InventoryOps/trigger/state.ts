import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../shared/objects';

/** A test listen and a publication never touch each other's handlers. */
export type RegistrationKind = 'production' | 'test';

/**
 * `tries` and `keptSince` (ms) only on a leftover, a handler that could not be removed
 * (trigger/removal.ts).
 */
export type HandlerRecord = {
	type: string;
	id?: string;
	name: string;
	url: string;
	kind: RegistrationKind;
	tries?: number;
	keptSince?: number;
};

export type Registration = {
	url: string;
	kind: RegistrationKind;
	secret: string;
	handlers: HandlerRecord[];
	// Options kept at activation: a delivery reads no parameter (each read evaluates expressions).
	ignoreRepeats: boolean;
	includeHeaders: boolean;
};

export type TriggerState = {
	registrations: Record<string, Registration>;
	leftovers: HandlerRecord[];
};

const STATE_KEY = 'inventoryOpsTrigger';
const MAX_RECORDS = 100;

function asHandlers(value: unknown, leftovers = false): HandlerRecord[] {
	if (!Array.isArray(value)) return [];
	const now = Date.now();
	return value.flatMap((entry: unknown): HandlerRecord[] => {
		if (!isPlainObject(entry) || typeof entry.type !== 'string' || typeof entry.url !== 'string')
			return [];
		const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : undefined;
		const record: HandlerRecord = {
			type: entry.type,
			id,
			name: typeof entry.name === 'string' ? entry.name : '',
			url: entry.url,
			kind: entry.kind === 'test' ? 'test' : 'production',
		};
		if (!leftovers) return [record];
		// A record kept before these were stored, or edited into nonsense, starts counting now.
		const tries = Number.isInteger(entry.tries) ? Math.max(Number(entry.tries), 0) : 0;
		const keptSince =
			typeof entry.keptSince === 'number' && entry.keptSince >= 0
				? Math.min(entry.keptSince, now)
				: now;
		return [{ ...record, tries, keptSince }];
	});
}

/** Every field checked and copied: static data survives restarts and hand edits. */
export function readState(staticData: IDataObject): TriggerState {
	const stored = isPlainObject(staticData[STATE_KEY]) ? staticData[STATE_KEY] : {};
	const registrations: Record<string, Registration> = {};
	if (isPlainObject(stored.registrations)) {
		for (const [url, value] of Object.entries(stored.registrations)) {
			if (!isPlainObject(value)) continue;
			registrations[url] = {
				url,
				kind: value.kind === 'test' ? 'test' : 'production',
				secret: typeof value.secret === 'string' ? value.secret : '',
				handlers: asHandlers(value.handlers),
				ignoreRepeats: value.ignoreRepeats !== false,
				includeHeaders: value.includeHeaders === true,
			};
		}
	}
	return { registrations, leftovers: asHandlers(stored.leftovers, true) };
}

/** A new record: n8n saves static data only when a top-level key changes. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	staticData[STATE_KEY] = {
		registrations: state.registrations,
		leftovers: state.leftovers.slice(-MAX_RECORDS),
	} as unknown as IDataObject;
}
