import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { optionsCollection } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/execution';
import { ItemValidator } from '../helpers/validation';
import { apiErrorFromUnexpectedAnswer, NOTHING_REMOVED, readRemovalAnswer } from '../../transport';

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
		// The same reading as the trigger's removal (transport/answers.ts): a refusal with a reason failed already.
		const reading = readRemovalAnswer(response);
		if ('problem' in reading) {
			const context = { node: this.getNode(), endpoint: 'webhookRemoveHandler' as const, itemIndex };
			throw apiErrorFromUnexpectedAnswer(reading.problem, context);
		}
		if (reading.removed) return { _id: handlerId, ...response, removed: true };
		return { _id: handlerId, ...response, removed: false, notice: NOTHING_REMOVED };
	});
}
