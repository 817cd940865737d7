import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { optionsCollection } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/execution';
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
	optionsCollection(),
];

const displayOptions = { show: { resource: ['webhookHandler'], operation: ['remove'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const check = new ItemValidator(this.getNode(), itemIndex);
		const handlerId = check.text(this.getNodeParameter('handlerId', itemIndex, ''), 'Handler ID');
		const response = await requestForItem.call(this, 'webhookRemoveHandler', { _id: handlerId }, itemIndex);
		return { _id: handlerId, ...response };
	});
}
