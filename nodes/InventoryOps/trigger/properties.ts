import type { INodeProperties, TriggerPanelDefinition } from 'n8n-workflow';

import { EVENT_TYPE_OPTIONS, isWildcardPattern } from '../shared/events';
import { SECRET_HEADER } from './secret';

const OVERLAP_TEXT =
	'A type that another selected pattern already covers (order.status.shipped under order.status.*) gets no handler of its own, so that one event starts one execution';

const WILDCARD_EVENTS = EVENT_TYPE_OPTIONS.map((option) => String(option.value)).filter(isWildcardPattern);

/**
 * The overlap notice, shown only when a type can be covered by another selected pattern. No two listed events
 * overlap, so it takes a custom type: with a listed pattern (A), with a custom pattern and a listed event (B), or
 * with a custom pattern among several custom types (C). displayOptions cannot say "A or B or C", hence three
 * notices with one text, each hidden where an earlier one shows. `_cnd` works on every supported n8n (1.99 and
 * newer). n8n draws every notice in its warning colour; here it is one: a selected type gets no handler.
 */
const overlapNotices: INodeProperties[] = [
	{
		displayName: OVERLAP_TEXT,
		name: 'overlapNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: WILDCARD_EVENTS, customEventTypes: [{ _cnd: { exists: true } }] } },
	},
	{
		displayName: OVERLAP_TEXT,
		name: 'overlapNoticeCustomPattern',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { events: [{ _cnd: { exists: true } }], customEventTypes: [{ _cnd: { includes: '*' } }] },
			hide: { events: WILDCARD_EVENTS },
		},
	},
	{
		displayName: OVERLAP_TEXT,
		name: 'overlapNoticeCustomTypes',
		type: 'notice',
		default: '',
		displayOptions: {
			// A "*" and at least two entries (a comma or a line break; the same field under its two names is an "and").
			// Not a regex condition: n8n evaluates display conditions whenever it builds the workflow, for every
			// delivery too, and a regex runs under a 250 ms budget (safeRegex) that a loaded machine exceeds, failing
			// the delivery with 500 before the secret is even checked.
			show: {
				customEventTypes: [{ _cnd: { includes: '*' } }],
				'/customEventTypes': [{ _cnd: { includes: ',' } }, { _cnd: { includes: '\n' } }],
			},
			hide: { events: [{ _cnd: { exists: true } }] },
		},
	},
];

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

const REACH_N8N =
	"Inventory Ops must be able to reach n8n's webhook URL: when n8n runs on localhost or a private network, set n8n's WEBHOOK_URL environment variable to its public address (the trigger warns in n8n's log when it is not).";

/**
 * The text of n8n's trigger panel: n8n's generic one, with what is particular to this trigger (how it registers
 * and removes handlers on the service, and that the service must reach n8n).
 */
export const triggerPanel: TriggerPanelDefinition = {
	executionsHelp: {
		inactive:
			"<b>While building your workflow</b>, click 'Execute step' (n8n then shows 'Listening for test event'): the trigger registers a test webhook handler with Inventory Ops for each selected event type, and removes them when the event has arrived or you stop listening. Then make such an event happen in Inventory Ops.<br /><br /><b>Once you publish the workflow</b> (n8n 1.x: activate it), it registers one handler per event type for production, and every matching event starts an execution (see Executions). Unpublishing (1.x: deactivating) removes those handlers.<br /><br />" +
			REACH_N8N,
		active:
			'<b>The workflow is published</b> (1.x: active): one webhook handler per selected event type is registered with Inventory Ops, and every matching event starts an execution (see Executions). Unpublishing removes those handlers.<br /><br />' +
			REACH_N8N,
	},
	activationHint: {
		inactive:
			"Once you've finished building the workflow, publish it (1.x: activate it): the trigger then registers its handlers for production with Inventory Ops, and each event starts an execution (you won't see those here).",
		active:
			'The workflow is published: its handlers are registered with Inventory Ops for production. A test listen adds test handlers of its own beside them.',
	},
};

const EVENT_NAMES = Object.fromEntries(EVENT_TYPE_OPTIONS.map((option) => [option.value, option.name]));

/** What the canvas shows under the trigger: the selected events by name ("Order Shipped"), not their types. */
export const triggerSubtitle = `={{ ($parameter["events"] || []).map(type => (${JSON.stringify(EVENT_NAMES)})[type] || type).join(", ") }}`;
