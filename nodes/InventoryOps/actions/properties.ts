import type { INodeProperties } from 'n8n-workflow';

import * as kit from './kit';
import * as order from './order';
import * as shipment from './shipment';
import * as webhookHandler from './webhookHandler';

/**
 * The action node's parameters: the resource selector, then every operation's own fields (each operation file
 * exports its `description`). The rest of the node description stays in the node class, where n8n's lint checks it.
 */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Kit',
				value: 'kit',
				description: 'A sellable bundle of component items with its own SKU',
			},
			{
				name: 'Order',
				value: 'order',
				description: 'Orders of a store, each named by store ID and order number',
			},
			{
				name: 'Shipment',
				value: 'shipment',
				description: 'The shipment of an order, whose deducted stock can be put back into inventory',
			},
			{
				name: 'Webhook Handler',
				value: 'webhookHandler',
				description: 'A URL the service calls when an event of a given type happens',
			},
		],
		default: 'order',
	},
	...order.description,
	...kit.description,
	...shipment.description,
	...webhookHandler.description,
];

/** What the canvas shows under the node, in words ("Get many orders"), not the internal values ("lookUp: order"). */
const SUBTITLES: Record<string, string> = {
	'order.lookUp': 'Get many orders',
	'kit.create': 'Create a kit',
	'shipment.restoreInventory': 'Restore shipment inventory',
	'webhookHandler.add': 'Add a webhook handler',
	'webhookHandler.remove': 'Remove a webhook handler',
};

export const subtitle = `={{ ${JSON.stringify(SUBTITLES)}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
