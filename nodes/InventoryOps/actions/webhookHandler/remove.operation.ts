import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { inventoryOpsApiRequest } from '../../transport';
import { timeoutOption } from '../helpers/descriptions';
import { forEachItem, requestOptions } from '../helpers/execution';
import { ItemValidator } from '../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Handler ID',
		name: 'handlerId',
		type: 'string',
		required: true,
		default: '',
		description: 'The _id of the webhook handler to remove, as returned when it was added',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [timeoutOption],
	},
];

const displayOptions = { show: { resource: ['webhookHandler'], operation: ['remove'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const check = new ItemValidator(this.getNode(), itemIndex);
		const handlerId = check.text(this.getNodeParameter('handlerId', itemIndex, ''), 'Handler ID');
		const response = (await inventoryOpsApiRequest.call(
			this,
			'webhookRemoveHandler',
			{ _id: handlerId },
			requestOptions.call(this, itemIndex),
		)) as IDataObject;
		return { _id: handlerId, ...response };
	});
}
