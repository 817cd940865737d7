import type { INodeProperties } from 'n8n-workflow';

import * as restoreInventory from './restoreInventory.operation';

export { restoreInventory };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['shipment'] } },
		options: [
			{
				name: 'Restore Inventory',
				value: 'restoreInventory',
				description:
					'Put back the stock a shipment took out of inventory, e.g. after the shipment was voided. Needs the store ID and order number, plus a shipment ID, tracking number or carrier shipment ID. Returns the shipment records of the order.',
				action: 'Restore inventory deducted by a shipment',
			},
		],
		default: 'restoreInventory',
	},
	...restoreInventory.description,
];
