import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../transport';

/**
 * An operation's Options: its own, plus the time-out every operation offers. `forAllItems`: the time-out is read
 * once for all items (Get Many), so the editor offers no expression for it.
 */
export function optionsCollection(
	operationOptions: INodeProperties[] = [],
	{ forAllItems = false }: { forAllItems?: boolean } = {},
): INodeProperties {
	const timeout: INodeProperties = {
		displayName: 'Timeout',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_TIMEOUT_MS,
		description: 'Milliseconds to wait for an answer. A call that may have changed data is not sent again after a time-out.',
		...(forAllItems ? { noDataExpression: true } : {}),
	};
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add option', default: {}, options: [...operationOptions, timeout] };
}
