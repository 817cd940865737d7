import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../../shared/objects';
import type { ResultEntry } from './results';

/**
 * Simplify (n8n's convention: on for new nodes; its UX guidelines ask for it above ten fields, and an AI agent
 * needs a compact answer). An order record has 41 fields and 5-6 KB; the compact item keeps the ten a workflow most
 * often needs, each read from the order record as the service defines it:
 * - which order it is: `_id`, `store_id`, `order_number`;
 * - where it stands: `status`, `financial_status`, `opened_date`, `shipped_date`, `tags`;
 * - what was ordered and sent: `line_items` (each line of the order snapshot `stash.items`: `sku`, `quantity`,
 *   `name` from `lineName`) and `tracking_numbers` (of the shipments not voided).
 * A field the record lacks is left out, never invented. `barcode_generation_failed` is kept when the service
 * reports it (a failure is never hidden). Off: the whole record, as before.
 */
export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	noDataExpression: true,
	default: true,
	description:
		'Whether to return a compact item per order (ID, store, number, statuses, dates, tags, line items, tracking numbers) instead of the whole order record',
};

const KEPT_FIELDS = ['_id', 'store_id', 'order_number', 'status', 'financial_status', 'opened_date', 'shipped_date', 'tags'];

// One pass each, without filter/map chains: these run for every order of a run (10,000 orders made some 15 MiB of
// short-lived lists, which raised the run's peak memory).
function lineItems(order: IDataObject): IDataObject[] | undefined {
	const stash = order.stash;
	if (!isPlainObject(stash) || !Array.isArray(stash.items)) return undefined;
	const lines: IDataObject[] = [];
	for (const line of stash.items) {
		if (!isPlainObject(line)) continue;
		const compact: IDataObject = {};
		if (line.sku !== undefined) compact.sku = line.sku as IDataObject[string];
		if (line.quantity !== undefined) compact.quantity = line.quantity as IDataObject[string];
		if (line.lineName !== undefined) compact.name = line.lineName as IDataObject[string];
		lines.push(compact);
	}
	return lines;
}

function trackingNumbers(order: IDataObject): string[] | undefined {
	if (!Array.isArray(order.shipments)) return undefined;
	const numbers: string[] = [];
	for (const shipment of order.shipments) {
		if (!isPlainObject(shipment) || shipment.voided === true || !isPlainObject(shipment.response)) continue;
		const number = shipment.response.tracking_number;
		if (typeof number === 'string' && number !== '') numbers.push(number);
	}
	return numbers;
}

/** The compact item of one result entry (a new object; nested values are shared, as in the other modes). */
export function simplifiedOrder(entry: ResultEntry): IDataObject {
	const order: IDataObject = isPlainObject(entry.order) ? (entry.order as IDataObject) : {};
	const compact: IDataObject = {};
	for (const field of KEPT_FIELDS) if (order[field] !== undefined) compact[field] = order[field];
	const lines = lineItems(order);
	if (lines !== undefined) compact.line_items = lines;
	const tracking = trackingNumbers(order);
	if (tracking !== undefined) compact.tracking_numbers = tracking;
	if (entry.barcode_generation_failed !== undefined) compact.barcode_generation_failed = entry.barcode_generation_failed;
	return compact;
}
