import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../transport';

const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_TIMEOUT_MS,
	description:
		'Milliseconds to wait for the service to answer a call before it fails. A call that may have changed data is not sent again after a time-out.',
};

/**
 * The Options collection of an operation: its own options plus the time-out every operation offers. `forAllItems`: the
 * operation reads the time-out once for all items (Get Many), so the editor offers no expression for it.
 */
export function optionsCollection(
	operationOptions: INodeProperties[] = [],
	{ forAllItems = false }: { forAllItems?: boolean } = {},
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...operationOptions, forAllItems ? { ...timeoutOption, noDataExpression: true } : timeoutOption],
	};
}
