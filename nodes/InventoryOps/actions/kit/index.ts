import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['kit'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a kit (a sellable bundle of component items) with its SKU and details',
				action: 'Create a kit',
			},
		],
		default: 'create',
	},
	...create.description,
];
