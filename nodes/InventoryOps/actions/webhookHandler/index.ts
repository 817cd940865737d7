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
				description:
					'Register a URL the service calls when an event of a type happens, e.g. order.shipped. Returns the handler ID when the service gives one; it is needed to remove the handler.',
				action: 'Add a webhook handler for an event type',
			},
			{
				name: 'Remove',
				value: 'remove',
				description:
					'Unregister a webhook handler by the ID returned when it was added, so the service stops calling its URL',
				action: 'Remove a webhook handler by ID',
			},
		],
		default: 'add',
	},
	...add.description,
	...remove.description,
];
