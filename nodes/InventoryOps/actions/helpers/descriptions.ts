import type { INodeProperties } from 'n8n-workflow';

/** Offered under Options by every operation. */
export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 30000,
	description:
		'Milliseconds to wait for the service to answer a call before it fails. A call that may have changed data is not sent again after a time-out.',
};
