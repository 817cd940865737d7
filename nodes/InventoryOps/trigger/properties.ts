import type { INodeProperties } from 'n8n-workflow';

import { EVENT_TYPE_OPTIONS } from '../shared/events';
import { SECRET_HEADER } from './secret';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: EVENT_TYPE_OPTIONS,
		default: [],
		description:
			'The events that start the workflow. One webhook handler is registered on the service per event type.',
	},
	{
		displayName: 'Custom Event Types',
		name: 'customEventTypes',
		type: 'string',
		default: '',
		placeholder: 'order.created, order.status.cancelled',
		description:
			'More event types the service sends that are not in the list above, separated by commas. End a type with ".*" to match every type under it.',
	},
	{
		displayName:
			'A type that another selected pattern already covers (order.status.shipped under order.status.*) gets no handler of its own, so that one event starts one execution',
		name: 'overlapNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Ignore Repeated Deliveries',
				name: 'ignoreRepeatedDeliveries',
				type: 'boolean',
				default: true,
				description:
					'Whether to start no workflow for a delivery whose event ID this n8n process already received since the workflow was published (the service repeats a delivery it thinks failed)',
			},
			{
				displayName: 'Include Request Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description: `Whether to add the delivery's HTTP headers to the output, without the secret header ${SECRET_HEADER}`,
			},
		],
	},
];
