import type { INodePropertyOptions } from 'n8n-workflow';

// n8n's node panel lists a trigger's entries by `action`; a name carries no "*" (n8n's lint).
const LISTED_EVENTS: Array<[string, string, string]> = [
	['Item Inventory Changed', 'item.inventory', 'The inventory of an item changed'],
	['Item Updated', 'item.updated', 'An item was updated'],
	['Order Shipped', 'order.shipped', 'An order was shipped'],
	['Order Status Changed', 'order.status.*', 'Any order status change, e.g. order.status.shipped'],
	['Order Tags Changed', 'order.tags', 'The tags of an order changed'],
	['Order Tracking Changed', 'order.tracking', 'The tracking of an order changed'],
	['Purchase Order Event', 'purchase_order.*', 'Any purchase order event'],
	['Shipment Created', 'shipment.created', 'A shipment was created'],
	['Shipment Voided', 'shipment.voided', 'A shipment was voided'],
	['Transfer Order Event', 'transfer_order.*', 'Any transfer order event'],
];

export const EVENT_TYPE_OPTIONS: INodePropertyOptions[] = LISTED_EVENTS.map(
	([name, value, description]) => ({
		name,
		value,
		action: `On ${name.toLowerCase()}`,
		description: `${description} (${value})`,
	}),
);

export const EVENT_TYPE_FORMAT = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?$/;

export const EVENT_TYPE_FORMAT_HINT =
	'Write event types as dot-separated words (order.status.cancelled), with ".*" only at the end (order.status.*).';

/** `order.status.*` matches `order.status.shipped`, not `order.status`. */
export function matchesEventType(pattern: string, type: string): boolean {
	if (!pattern.endsWith('.*')) return pattern === type;
	const prefix = pattern.slice(0, -1);
	return type.length > prefix.length && type.startsWith(prefix);
}

export function parseCustomEventTypes(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap((entry) => parseCustomEventTypes(entry));
	if (typeof value !== 'string') return [];
	return value
		.split(/[,\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** Without types another pattern covers: one event, one execution. */
export function withoutCoveredTypes(types: readonly string[]): string[] {
	return types.filter(
		(type) => !types.some((other) => other !== type && matchesEventType(other, type)),
	);
}
