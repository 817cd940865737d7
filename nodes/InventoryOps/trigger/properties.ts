import type { INodeProperties, TriggerPanelDefinition } from 'n8n-workflow';

import { EVENT_TYPE_OPTIONS } from '../shared/events';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: EVENT_TYPE_OPTIONS,
		default: [],
		description: 'The events that start the workflow; each gets a webhook handler on the service',
	},
	{
		displayName: 'Custom Event Types',
		name: 'customEventTypes',
		type: 'string',
		default: '',
		placeholder: 'order.created, order.status.cancelled',
		description:
			'More event types, separated by commas. End a type with ".*" to match every type under it; a type such a pattern covers (order.status.shipped under order.status.*) gets no handler of its own: one event, one execution.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Ignore Repeated Deliveries',
				name: 'ignoreRepeatedDeliveries',
				type: 'boolean',
				default: true,
				description:
					'Whether to skip an event ID this n8n process already received since publishing (the service repeats deliveries it thinks failed)',
			},
			{
				displayName: 'Include Request Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description:
					"Whether to add the delivery's HTTP headers, except the secret one, to the output",
			},
		],
	},
];

const REACH_N8N =
	"Inventory Ops must reach n8n's webhook URL: on localhost or a private network, set n8n's WEBHOOK_URL to its public address.";

export const triggerPanel: TriggerPanelDefinition = {
	executionsHelp: {
		inactive: `<b>While building</b>, click 'Execute step' (n8n then shows 'Listening for test event'): a test webhook handler is added for each selected event type; the trigger removes them once the event arrives or you stop.<br /><br /><b>Once you publish</b> (1.x: activate), it adds one handler per event type and each event starts an execution. Unpublishing removes those handlers.<br /><br />${REACH_N8N}`,
		active: `<b>Published</b> (1.x: active): each event of a selected type starts an execution. Unpublishing removes the handlers.<br /><br />${REACH_N8N}`,
	},
	activationHint: {
		inactive:
			'Once built, publish the workflow (1.x: activate it): each event then starts an execution.',
		active: 'Published: the handlers are registered with Inventory Ops.',
	},
};

const EVENT_NAMES = Object.fromEntries(
	EVENT_TYPE_OPTIONS.map((option) => [option.value, option.name]),
);

export const triggerSubtitle = `={{ ($parameter["events"] || []).map(type => (${JSON.stringify(EVENT_NAMES)})[type] || type).join(", ") }}`;
