import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The event types the service shows as common patterns (docs/service-interface.md, Events). The list is not closed,
 * so the trigger and the Webhook Handler operation also accept custom types. A pattern ending in `.*` is a suffix
 * wildcard.
 */
export const EVENT_TYPE_OPTIONS: INodePropertyOptions[] = [
	// n8n's node panel lists a trigger's entries as `action` ("On item inventory changed"); without it, it builds
	// them from the name with dots turned into words ("On order status changed order status"). Names carry no
	// "*" (n8n's lint: it reads ambiguously); the type is in the description, in brackets.
	{
		name: 'Item Inventory Changed',
		value: 'item.inventory',
		action: 'On item inventory changed',
		description: 'The inventory of an item changed (item.inventory)',
	},
	{ name: 'Item Updated', value: 'item.updated', action: 'On item updated', description: 'An item was updated (item.updated)' },
	{ name: 'Order Shipped', value: 'order.shipped', action: 'On order shipped', description: 'An order was shipped (order.shipped)' },
	{
		name: 'Order Status Changed',
		value: 'order.status.*',
		action: 'On order status changed',
		description: 'Any change of an order status, e.g. order.status.shipped (order.status.*)',
	},
	{
		name: 'Order Tags Changed',
		value: 'order.tags',
		action: 'On order tags changed',
		description: 'The tags of an order changed (order.tags)',
	},
	{
		name: 'Order Tracking Changed',
		value: 'order.tracking',
		action: 'On order tracking changed',
		description: 'The tracking information of an order changed (order.tracking)',
	},
	{
		name: 'Purchase Order Event',
		value: 'purchase_order.*',
		action: 'On purchase order event',
		description: 'Any purchase order event (purchase_order.*)',
	},
	{
		name: 'Shipment Created',
		value: 'shipment.created',
		action: 'On shipment created',
		description: 'A shipment was created (shipment.created)',
	},
	{
		name: 'Shipment Voided',
		value: 'shipment.voided',
		action: 'On shipment voided',
		description: 'A shipment was voided (shipment.voided)',
	},
	{
		name: 'Transfer Order Event',
		value: 'transfer_order.*',
		action: 'On transfer order event',
		description: 'Any transfer order event (transfer_order.*)',
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
	// No pattern is empty (combineEventTypes), so an empty type matches none without a check of its own.
	if (typeof pattern !== 'string' || typeof type !== 'string') return false;
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

/** The selected and custom types together (each already trimmed and not empty: parseCustomEventTypes), each once, in the order given. */
export function combineEventTypes(selected: readonly string[], custom: readonly string[]): string[] {
	return [...new Set([...selected, ...custom])];
}

/**
 * The types left after dropping each one that another selected pattern already receives (`order.status.shipped`
 * under `order.status.*`): one handler per event, so one event starts one execution.
 */
export function withoutCoveredTypes(types: readonly string[]): string[] {
	return types.filter((type) => !types.some((other) => other !== type && matchesEventType(other, type)));
}
