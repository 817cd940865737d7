import type { INodeProperties } from 'n8n-workflow';

import * as lookUp from './lookUp.operation';

// The value is lookUp, not getMany: n8n's editor asks for "Execute Once" on any node whose operation is named
// getAll, getMany, read or search and that receives several items, which would hand this lookup only the first item.
export { lookUp };

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
				value: 'lookUp',
				description: 'Look up many orders at once by store ID and order number; found: false for one the service lacks',
				action: 'Get many orders by store and order number',
			},
		],
		default: 'lookUp',
	},
	...lookUp.description,
];
