import { NodeOperationError, type IDataObject, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';

import {
	combineEventTypes,
	EVENT_TYPE_FORMAT_HINT,
	isEventTypeFormat,
	parseCustomEventTypes,
	withoutCoveredTypes,
} from '../shared/events';
import type { DeliveryOptions } from './state';

/** The trigger's Options as a delivery uses them; read at activation and kept with the registration. */
export function readDeliveryOptions(this: IHookFunctions | IWebhookFunctions): DeliveryOptions {
	const options = this.getNodeParameter('options', {}) as IDataObject;
	return { ignoreRepeats: options.ignoreRepeatedDeliveries !== false, includeHeaders: options.includeHeaders === true };
}

type EventListField = { name: 'events' | 'customEventTypes'; label: string; hint: string };

const EVENTS: EventListField = { name: 'events', label: 'Events', hint: '' };
const CUSTOM_EVENT_TYPES: EventListField = { name: 'customEventTypes', label: 'Custom Event Types', hint: ' Separate several types with commas.' };

/**
 * One list of event types as the user gave it: picked in the editor (a list), typed (text, comma or newline
 * separated), or from an expression (either, or a list of both). Entries that are not text, or not an event type,
 * fail the activation naming the field, whichever way they arrived.
 */
function readEventList(this: IHookFunctions | IWebhookFunctions, field: EventListField): string[] {
	const value = this.getNodeParameter(field.name, field.name === 'events' ? [] : '') as unknown;
	const entries = (Array.isArray(value) ? value : [value]).filter((entry) => entry !== null && entry !== undefined);
	const notText = entries.filter((entry) => typeof entry !== 'string');
	const types = parseCustomEventTypes(entries);
	const invalid = [...notText.map((entry) => JSON.stringify(entry)), ...types.filter((type) => !isEventTypeFormat(type)).map((type) => `"${type}"`)];
	if (invalid.length > 0) {
		throw new NodeOperationError(this.getNode(), `${field.label}: ${invalid.join(', ')} ${invalid.length > 1 ? 'are not event types' : 'is not an event type'}`, {
			description: `${EVENT_TYPE_FORMAT_HINT}${field.hint}`,
		});
	}
	return types;
}

/** The event types this trigger registers: the selected patterns plus the custom types, each once, none covered by another. */
export function readSelectedEventTypes(this: IHookFunctions | IWebhookFunctions): string[] {
	return withoutCoveredTypes(combineEventTypes(readEventList.call(this, EVENTS), readEventList.call(this, CUSTOM_EVENT_TYPES)));
}
