import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'Look up many orders at once by store ID and order number. Returns each order found, and by default an item with found: false for a pair the service does not know.',
				action: 'Get many orders by store and order number',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
