import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { optionsCollection, requiredText } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/perItem';
import { apiErrorFromUnexpectedAnswer, NOTHING_REMOVED, readRemovalAnswer } from '../../transport';

const properties: INodeProperties[] = [
	requiredText('Handler ID', 'handlerId', 'The _id of the webhook handler, as returned when it was added'),
	optionsCollection(),
];

export const description = updateDisplayOptions({ show: { resource: ['webhookHandler'], operation: ['remove'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex, check) => {
		const handlerId = check.text(this.getNodeParameter('handlerId', itemIndex, ''), 'Handler ID');
		const response = await requestForItem.call(this, 'webhookRemoveHandler', { _id: handlerId }, check);
		// A refusal with a reason has failed in transport already.
		const reading = readRemovalAnswer(response);
		if ('problem' in reading) {
			throw apiErrorFromUnexpectedAnswer(reading.problem, { node: this.getNode(), endpoint: 'webhookRemoveHandler', itemIndex });
		}
		return { _id: handlerId, ...response, removed: reading.removed, ...(reading.removed ? {} : { notice: NOTHING_REMOVED }) };
	});
}
