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
					'Put back the inventory a shipment deducted; the shipment is picked by shipment ID, tracking number or carrier shipment ID',
				action: 'Restore inventory of a shipment',
			},
		],
		default: 'restoreInventory',
	},
	...restoreInventory.description,
];
