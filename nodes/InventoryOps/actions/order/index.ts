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
					'Look up orders by store ID and order number; lookups of all input items are batched into few calls',
				action: 'Get many orders',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
