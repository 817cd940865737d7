import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../shared/objects';
import { summaryOf } from '../../transport/answers';
import { referenceKey, type AskedReference } from './references';

export type Batch = Array<[string, AskedReference]>;

export interface ResultEntry extends IDataObject {
	order?: IDataObject;
	metrics?: IDataObject;
	barcode_generation_failed?: IDataObject;
}

/** Beside an entry's order (the pair asked for is repeated for an order not found). */
const BESIDE_ORDER = new Set(['metrics', 'barcode_generation_failed', 'store_id', 'order_number']);

/**
 * An entry's `order`, else the entry itself when it holds more than BESIDE_ORDER (a bare record);
 * undefined (not found) for null, `{}` or only the pair. for...in: Object.keys would list every
 * order's 41 fields.
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

/** Wrapped, so that every output mode lays a bare record out alike. */
function asEntry({
	metrics,
	barcode_generation_failed: failed,
	...order
}: Record<string, unknown>): ResultEntry {
	return {
		order,
		...(metrics === undefined ? {} : { metrics }),
		...(failed === undefined ? {} : { barcode_generation_failed: failed }),
	} as ResultEntry;
}

export function byOrderNumber(batch: Batch): Map<string, Batch> {
	const groups = new Map<string, Batch>();
	for (const entry of batch) {
		const group = groups.get(entry[1].reference.order_number);
		if (group === undefined) groups.set(entry[1].reference.order_number, [entry]);
		else group.push(entry);
	}
	return groups;
}

/**
 * Each order of the answer under the reference of `batch` it answers, by order_number alone when it
 * has no store_id and one reference has that number; where more have it, they are `ambiguous` (to
 * be asked apart, never guessed). Each unreadable entry is named, so that no reference is called
 * not found for one.
 */
export function readBulkAnswer(batch: Batch, answer: unknown[]) {
	const wanted = new Set(batch.map(([key]) => key));
	const found = new Map<string, ResultEntry>();
	const ambiguous = new Set<string>();
	const unreadable: string[] = [];
	let byNumber: Map<string, Batch> | undefined;
	// An index loop: entries() makes a pair per entry, for every order of a run.
	for (let index = 0; index < answer.length; index++) {
		const entry = answer[index];
		const order = isPlainObject(entry) ? orderIn(entry) : undefined;
		if (!isPlainObject(entry)) unreadable.push(`entry ${index} is ${summaryOf(entry)}`);
		else if (order === undefined) continue;
		else if (!isPlainObject(order))
			unreadable.push(`entry ${index} has as its order ${summaryOf(order)}`);
		else if (order.order_number === undefined || order.order_number === null) {
			unreadable.push(
				`entry ${index} ${order === entry ? 'is' : 'has'} an order without an order_number`,
			);
		} else {
			let key =
				(order.store_id ?? undefined) === undefined
					? undefined
					: referenceKey(order.store_id, order.order_number);
			if (key === undefined) {
				byNumber ??= byOrderNumber(batch);
				const candidates = byNumber.get(String(order.order_number)) ?? [];
				if (candidates.length > 1) for (const [candidate] of candidates) ambiguous.add(candidate);
				else key = candidates[0]?.[0];
			}
			if (key !== undefined && wanted.has(key) && !found.has(key))
				found.set(key, order === entry ? asEntry(entry) : (entry as ResultEntry));
		}
	}
	for (const key of ambiguous) found.delete(key);
	return { found, ambiguous, unreadable, lacksStoreId: byNumber !== undefined };
}
