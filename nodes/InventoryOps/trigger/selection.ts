import { NodeOperationError, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';

import { combineEventTypes, parseCustomEventTypes } from '../shared/events';

// Dot-separated segments of letters, digits, `_` or `-`, optionally ending in the suffix wildcard `.*`.
const EVENT_TYPE_FORMAT = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?$/;

/** The event types this trigger listens for: the selected patterns plus valid custom types, each once. */
export function readSelectedEventTypes(this: IHookFunctions | IWebhookFunctions): string[] {
	const selected = this.getNodeParameter('events', []) as string[];
	const custom = parseCustomEventTypes(this.getNodeParameter('customEventTypes', ''));
	const invalid = custom.filter((type) => !EVENT_TYPE_FORMAT.test(type));
	if (invalid.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Custom Event Types: "${invalid.join('", "')}" is not an event type`,
			{
				description:
					'Write event types as dot-separated words, for example order.status.cancelled, and use ".*" only at the end (order.status.*). Separate several types with commas.',
			},
		);
	}
	return combineEventTypes(Array.isArray(selected) ? selected : [], custom);
}
