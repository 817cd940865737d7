import type { INodeProperties, TriggerPanelDefinition } from 'n8n-workflow';

import { EVENT_TYPE_OPTIONS } from '../shared/events';

const WILDCARD_EVENTS = EVENT_TYPE_OPTIONS.map((option) => String(option.value)).filter((value) => value.endsWith('.*'));

// One notice per way of overlap (displayOptions cannot say "or"), each hidden where an earlier one shows.
const EXISTS = [{ _cnd: { exists: true as const } }];
const HAS_STAR = [{ _cnd: { includes: '*' } }];
const overlapNotice = (name: string, displayOptions: INodeProperties['displayOptions']): INodeProperties => ({
	displayName: 'A type another selected pattern covers (order.status.shipped under order.status.*) gets no handler of its own: one event, one execution',
	name,
	type: 'notice',
	default: '',
	displayOptions,
});
const overlapNotices = [
	overlapNotice('overlapNotice', { show: { events: WILDCARD_EVENTS, customEventTypes: EXISTS } }),
	overlapNotice('overlapNoticeCustomPattern', { show: { events: EXISTS, customEventTypes: HAS_STAR }, hide: { events: WILDCARD_EVENTS } }),
	// A "*" and a comma or a line break. No regex: n8n checks display conditions at every delivery too, and a regex over
	// its 250 ms budget (under load) fails the delivery with 500.
	overlapNotice('overlapNoticeCustomTypes', {
		show: { customEventTypes: HAS_STAR, '/customEventTypes': [{ _cnd: { includes: ',' } }, { _cnd: { includes: '\n' } }] },
		hide: { events: EXISTS },
	}),
];

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
		description: 'More event types, separated by commas. End a type with ".*" to match every type under it.',
	},
	...overlapNotices,
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
				description: 'Whether to skip an event ID this n8n process already received since publishing (the service repeats deliveries it thinks failed)',
			},
			{
				displayName: 'Include Request Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description: "Whether to add the delivery's HTTP headers, except the secret one, to the output",
			},
		],
	},
];

const REACH_N8N = "Inventory Ops must reach n8n's webhook URL: on localhost or a private network, set n8n's WEBHOOK_URL to its public address.";

export const triggerPanel: TriggerPanelDefinition = {
	executionsHelp: {
		inactive: `<b>While building</b>, click 'Execute step' (n8n then shows 'Listening for test event'): a test webhook handler is added for each selected event type; the trigger removes them once the event arrives or you stop.<br /><br /><b>Once you publish</b> (1.x: activate), it adds one handler per event type and each event starts an execution. Unpublishing removes those handlers.<br /><br />${REACH_N8N}`,
		active: `<b>Published</b> (1.x: active): each event of a selected type starts an execution. Unpublishing removes the handlers.<br /><br />${REACH_N8N}`,
	},
	activationHint: {
		inactive: 'Once built, publish the workflow (1.x: activate it): each event then starts an execution.',
		active: 'Published: the handlers are registered with Inventory Ops.',
	},
};

const EVENT_NAMES = Object.fromEntries(EVENT_TYPE_OPTIONS.map((option) => [option.value, option.name]));

export const triggerSubtitle = `={{ ($parameter["events"] || []).map(type => (${JSON.stringify(EVENT_NAMES)})[type] || type).join(", ") }}`;
