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

/** The event types this trigger registers: the selected patterns plus valid custom types, each once, none covered by another. */
export function readSelectedEventTypes(this: IHookFunctions | IWebhookFunctions): string[] {
	const selected = this.getNodeParameter('events', []) as string[];
	const custom = parseCustomEventTypes(this.getNodeParameter('customEventTypes', ''));
	const invalid = custom.filter((type) => !isEventTypeFormat(type));
	if (invalid.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Custom Event Types: "${invalid.join('", "')}" is not an event type`,
			{
				description: `${EVENT_TYPE_FORMAT_HINT} Separate several types with commas.`,
			},
		);
	}
	return withoutCoveredTypes(combineEventTypes(Array.isArray(selected) ? selected : [], custom));
}
