import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The event types the service shows as common patterns (docs/service-interface.md, Events). The list is not closed,
 * so the trigger and the Webhook Handler operation also accept custom types. A pattern ending in `.*` is a suffix
 * wildcard.
 */
export const EVENT_TYPE_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Order Status Changed (order.status.*)',
		value: 'order.status.*',
		description: 'Any change of an order status, e.g. order.status.shipped',
	},
	{ name: 'Order Shipped (order.shipped)', value: 'order.shipped', description: 'An order was shipped' },
	{
		name: 'Order Tracking (order.tracking)',
		value: 'order.tracking',
		description: 'Tracking information of an order changed',
	},
	{ name: 'Order Tags (order.tags)', value: 'order.tags', description: 'The tags of an order changed' },
	{
		name: 'Item Inventory (item.inventory)',
		value: 'item.inventory',
		description: 'The inventory of an item changed',
	},
	{ name: 'Item Updated (item.updated)', value: 'item.updated', description: 'An item was updated' },
	{
		name: 'Shipment Created (shipment.created)',
		value: 'shipment.created',
		description: 'A shipment was created',
	},
	{
		name: 'Shipment Voided (shipment.voided)',
		value: 'shipment.voided',
		description: 'A shipment was voided',
	},
	{
		name: 'Purchase Order Events (purchase_order.*)',
		value: 'purchase_order.*',
		description: 'Any purchase order event',
	},
	{
		name: 'Transfer Order Events (transfer_order.*)',
		value: 'transfer_order.*',
		description: 'Any transfer order event',
	},
];

const WILDCARD_SUFFIX = '.*';

// Dot-separated segments of letters, digits, `_` or `-`, optionally ending in the suffix wildcard `.*`.
const EVENT_TYPE_FORMAT = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?$/;

/** The one format check of an event type or pattern typed by a user, for the trigger and the action alike. */
export function isEventTypeFormat(value: string): boolean {
	return EVENT_TYPE_FORMAT.test(value);
}

export const EVENT_TYPE_FORMAT_HINT =
	'Write event types as dot-separated words, for example order.status.cancelled, and use ".*" only at the end (order.status.*).';

export function isWildcardPattern(pattern: string): boolean {
	return pattern.endsWith(WILDCARD_SUFFIX);
}

/**
 * True when an event of `type` belongs to `pattern`: an exact match, or for `prefix.*` any type with at least
 * one more segment after `prefix.` (`order.status.*` matches `order.status.shipped`, not `order.status`).
 */
export function matchesEventType(pattern: string, type: string): boolean {
	if (typeof pattern !== 'string' || typeof type !== 'string' || type === '') return false;
	if (!isWildcardPattern(pattern)) return pattern === type;
	const prefix = pattern.slice(0, -1); // keeps the dot: 'order.status.'
	return type.length > prefix.length && type.startsWith(prefix);
}

export function matchesAnyEventType(patterns: readonly string[], type: string): boolean {
	return patterns.some((pattern) => matchesEventType(pattern, type));
}

/**
 * Reads custom event types typed by a user (comma or newline separated), trimmed, without empties; a custom type
 * may itself be a `prefix.*` pattern.
 */
export function parseCustomEventTypes(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap((entry) => parseCustomEventTypes(entry));
	if (typeof value !== 'string') return [];
	return value
		.split(/[,\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** The selected and custom types together, each once, in the order given. */
export function combineEventTypes(selected: readonly string[], custom: readonly string[]): string[] {
	return [...new Set([...selected, ...custom].map((entry) => entry.trim()).filter((entry) => entry !== ''))];
}

/**
 * The types left after dropping each one that another selected pattern already receives (`order.status.shipped`
 * under `order.status.*`): one handler per event, so one event starts one execution.
 */
export function withoutCoveredTypes(types: readonly string[]): string[] {
	return types.filter((type) => !types.some((other) => other !== type && matchesEventType(other, type)));
}
