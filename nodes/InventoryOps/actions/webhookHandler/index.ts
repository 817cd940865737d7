import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';
import * as remove from './remove.operation';

export { add, remove };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookHandler'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Register a URL the service calls when an event of the chosen type happens',
				action: 'Add a webhook handler',
			},
			{
				name: 'Remove',
				value: 'remove',
				description: 'Remove a webhook handler by its _id',
				action: 'Remove a webhook handler',
			},
		],
		default: 'add',
	},
	...add.description,
	...remove.description,
];
