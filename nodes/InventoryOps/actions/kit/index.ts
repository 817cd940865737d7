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
				description:
					'Create a kit (a sellable bundle) from a name, a SKU and its component items with quantities. Returns the ID of the new kit.',
				action: 'Create a kit from component items',
			},
		],
		default: 'create',
	},
	...create.description,
];
