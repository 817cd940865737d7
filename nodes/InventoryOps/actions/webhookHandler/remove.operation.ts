import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection, requiredText } from '../helpers/descriptions';
import { learnUnknownIdAnswer } from '../../transport';
import { forEachItem, requestForItem } from '../helpers/perItem';

export const description: INodeProperties[] = [
	requiredText(
		'Handler ID',
		'handlerId',
		'The _id of the webhook handler, as returned when it was added',
	),
	optionsCollection(),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (check, read) => {
		const handlerId = check.text(read('handlerId'), 'Handler ID');
		// Anything but `success: true` has failed the item in transport already.
		const response = await requestForItem.call(
			this,
			'webhookRemoveHandler',
			{ _id: handlerId },
			check,
		);
		// The service has just removed it, so it no longer knows this id: its answer to it again is the
		// proof's.
		await learnUnknownIdAnswer.call(this, handlerId, check.itemIndex);
		return { _id: handlerId, ...response, removed: true };
	});
}
