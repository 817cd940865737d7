import type { INodeProperties } from 'n8n-workflow';

import * as kit from './kit';
import * as order from './order';
import * as shipment from './shipment';
import * as webhookHandler from './webhookHandler';

/**
 * The node's parameters: the resource selector and every operation's fields. The rest of the description stays
 * in the node class, where n8n's lint checks it.
 */
export const versionProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Kit', value: 'kit', description: 'A sellable bundle of component items' },
			{ name: 'Order', value: 'order', description: 'Orders of a store, looked up in bulk' },
			{
				name: 'Shipment',
				value: 'shipment',
				description: 'Shipments whose inventory can be restored',
			},
			{
				name: 'Webhook Handler',
				value: 'webhookHandler',
				description: 'URLs the service calls when events happen',
			},
		],
		default: 'order',
	},
	...order.description,
	...kit.description,
	...shipment.description,
	...webhookHandler.description,
];
