import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../../shared/objects';
import { nodeErrorOf } from '../../transport';
import type { ResultEntry } from './answer';
import type { LookUpResults } from './bulkLookup';
import type { AskedReference } from './references';

export const UNMATCHED_BEHAVIOURS = ['foundFalse', 'skip', 'error'] as const;
export const OUTPUT_MODES = ['order', 'entry'] as const;

/** Output `simple` is Simplify on. */
export interface OutputSettings {
	unmatched: (typeof UNMATCHED_BEHAVIOURS)[number];
	output: (typeof OUTPUT_MODES)[number] | 'simple';
}

const KEPT_FIELDS = [
	'_id',
	'store_id',
	'order_number',
	'status',
	'financial_status',
	'opened_date',
	'shipped_date',
	'tags',
];

/**
 * The ten fields a workflow most often needs, none invented. Index loops, fields named one by one:
 * this runs for every order and line, where iterators, filter/map chains or a list of field pairs
 * make megabytes of short-lived garbage (the peak memory of a 10,000-order run).
 */
function simplifiedOrder(entry: ResultEntry): IDataObject {
	const order: IDataObject = isPlainObject(entry.order) ? (entry.order as IDataObject) : {};
	const compact: IDataObject = {};
	for (let index = 0; index < KEPT_FIELDS.length; index++) {
		const field = KEPT_FIELDS[index];
		if (order[field] !== undefined) compact[field] = order[field];
	}
	const { stash, shipments } = order;
	if (isPlainObject(stash) && Array.isArray(stash.items)) {
		const lines: IDataObject[] = [];
		for (let index = 0; index < stash.items.length; index++) {
			const line: unknown = stash.items[index];
			if (!isPlainObject(line)) continue;
			const item: IDataObject = {};
			if (line.sku !== undefined) item.sku = line.sku as IDataObject[string];
			if (line.quantity !== undefined) item.quantity = line.quantity as IDataObject[string];
			if (line.lineName !== undefined) item.name = line.lineName as IDataObject[string];
			lines.push(item);
		}
		compact.line_items = lines;
	}
	if (Array.isArray(shipments)) {
		const numbers: string[] = [];
		for (let index = 0; index < shipments.length; index++) {
			const shipment: unknown = shipments[index];
			if (!isPlainObject(shipment) || shipment.voided === true || !isPlainObject(shipment.response))
				continue;
			const number = shipment.response.tracking_number;
			if (typeof number === 'string' && number !== '') numbers.push(number);
		}
		compact.tracking_numbers = numbers;
	}
	return compact;
}

export function outputFor(entry: ResultEntry, mode: OutputSettings['output']): IDataObject {
	if (mode === 'entry') return { ...entry };
	const output = mode === 'simple' ? simplifiedOrder(entry) : { ...(entry.order ?? {}) };
	// The order record has no such field: it cannot collide, and a failure is never hidden.
	if (entry.barcode_generation_failed !== undefined)
		output.barcode_generation_failed = entry.barcode_generation_failed;
	return output;
}

/** One entry per reference; one without an answer fails the item before one not found. */
export function itemOutput(
	this: IExecuteFunctions,
	itemIndex: number,
	asked: AskedReference[],
	results: LookUpResults,
	settings: OutputSettings,
): IDataObject[] {
	const output: IDataObject[] = [];
	let notFound: AskedReference['reference'] | undefined;
	for (const { reference, key, asks } of asked) {
		const failure = results.failed.get(key);
		if (failure !== undefined) throw nodeErrorOf(this.getNode(), { ...failure, itemIndex });
		const found = results.found.get(key);
		if (found !== undefined) {
			// An order asked for again gets a new object per item, so that a later node cannot change two
			// at once.
			output.push(asks === 1 ? found : { ...found });
		} else if (settings.unmatched === 'foundFalse') {
			output.push({ found: false, ...reference });
		} else if (settings.unmatched === 'error') {
			notFound ??= reference;
		}
	}
	if (notFound !== undefined) {
		const message = `Item ${itemIndex}: no order found for store_id '${notFound.store_id}' and order_number '${notFound.order_number}'`;
		const description =
			'The service returned no order for this pair. Check both values, or set "If an Order Is Not Found" to output an item instead.';
		throw new NodeOperationError(this.getNode(), message, { itemIndex, description });
	}
	return output;
}
