import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { optionsCollection, requiredText } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/perItem';

const properties: INodeProperties[] = [
	requiredText('Handler ID', 'handlerId', 'The _id of the webhook handler, as returned when it was added'),
	optionsCollection(),
];

export const description = updateDisplayOptions({ show: { resource: ['webhookHandler'], operation: ['remove'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex, check) => {
		const handlerId = check.text(this.getNodeParameter('handlerId', itemIndex, ''), 'Handler ID');
		// Anything but `success: true` has failed the item in transport already.
		const response = await requestForItem.call(this, 'webhookRemoveHandler', { _id: handlerId }, check);
		return { _id: handlerId, ...response, removed: true };
	});
}
