import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../transport';

export const requiredText = (
	displayName: string,
	name: string,
	description: string,
	placeholder?: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	description,
	placeholder,
});

/** An operation's Options and the time-out; `forAllItems`: read once, so no expression. */
export function optionsCollection(
	operationOptions: INodeProperties[] = [],
	{ forAllItems = false } = {},
): INodeProperties {
	const timeout: INodeProperties = {
		displayName: 'Timeout (Milliseconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_TIMEOUT_MS,
		description:
			'How long to wait for an answer, in milliseconds (30000 is 30 seconds); a call that may have changed data is never sent again',
		noDataExpression: forAllItems,
	};
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...operationOptions, timeout],
	};
}
