import {
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../transport';
import { asNodeError, forEachItem } from '../helpers/execution';
import { lookUpOrders, outputFor, referenceKey, type AskedReferences } from './bulkLookup';
import { properties } from './parameters';
import { ItemValidator, MAX_TIMEOUT_MS } from '../helpers/validation';
import { readLookUp, readReferences, type OrderReference } from './references';

const displayOptions = { show: { resource: ['order'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

const UNMATCHED_BEHAVIOURS = ['foundFalse', 'skip', 'error'] as const;
type UnmatchedBehaviour = (typeof UNMATCHED_BEHAVIOURS)[number];

/** Said once per run: the user can set Batch Size so that later runs need no refused calls. */
function reportBatchSize(this: IExecuteFunctions, asked: number, used: number): void {
	const message = `The service refused ${asked} order references in one call; batches of ${used} went through and were used for the rest of this run. Set Batch Size (in Options) to ${used} to save the refused calls.`;
	this.logger.warn(message, { node: this.getNode().name });
	this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

/**
 * Collects the references of ALL input items, sends each distinct one once (see bulkLookup.ts), and gives every
 * input item the orders it asked for.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	// These settings shape the calls and the output of the whole run, so they are read once, from the first item
	// (reading them per item costs more than the lookups themselves on large inputs).
	const lookUp = readLookUp.call(this);
	const check = new ItemValidator(this.getNode(), 0);
	const unmatchedOption = this.getNodeParameter('options.unmatched', 0, 'foundFalse');
	const unmatched = check.oneOf<UnmatchedBehaviour>(unmatchedOption, 'If an Order Is Not Found', UNMATCHED_BEHAVIOURS);
	const output = check.oneOf(this.getNodeParameter('options.output', 0, 'order'), 'Output', ['order', 'entry']);
	const settings = {
		batchSize: check.count(this.getNodeParameter('options.batchSize', 0, 100), 'Batch Size', 1, 10_000),
		callsInFlight: check.count(this.getNodeParameter('options.callsInFlight', 0, 4), 'Calls in Flight', 1, 16),
		timeoutMs: check.count(this.getNodeParameter('options.timeout', 0, DEFAULT_TIMEOUT_MS), 'Timeout', 1, MAX_TIMEOUT_MS),
		rateLimitWaitMs: check.count(this.getNodeParameter('options.rateLimitWait', 0, 60), 'Rate Limit Wait (Seconds)', 0, 3600) * 1000,
	};

	const referencesByItem = new Map<number, OrderReference[]>();
	const inputErrors = new Map<number, unknown>();
	const asked: AskedReferences = new Map();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const references = readReferences.call(this, items[itemIndex], itemIndex, lookUp);
			referencesByItem.set(itemIndex, references);
			for (const reference of references) {
				const key = referenceKey(reference.store_id, reference.order_number);
				const entry = asked.get(key) ?? { reference, itemIndexes: [] };
				// Items are read in order, so a repeat within this item can only be the last entry.
				if (entry.itemIndexes.at(-1) !== itemIndex) entry.itemIndexes.push(itemIndex);
				asked.set(key, entry);
			}
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError.call(this, error, itemIndex);
			inputErrors.set(itemIndex, error);
		}
	}

	const { found, failed, batchSizeUsed } = await lookUpOrders.call(this, asked, settings);
	if (batchSizeUsed !== undefined) reportBatchSize.call(this, settings.batchSize, batchSizeUsed);

	return await forEachItem.call(this, items, async (itemIndex) => {
		if (inputErrors.has(itemIndex)) throw inputErrors.get(itemIndex);
		const references = referencesByItem.get(itemIndex) ?? [];
		const failedKey = references
			.map((reference) => referenceKey(reference.store_id, reference.order_number))
			.find((key) => failed.has(key));
		if (failedKey !== undefined) throw failed.get(failedKey);

		const results: IDataObject[] = [];
		for (const reference of references) {
			const entry = found.get(referenceKey(reference.store_id, reference.order_number));
			if (entry !== undefined) {
				results.push(outputFor(entry, output));
			} else if (unmatched === 'foundFalse') {
				results.push({ found: false, ...reference });
			} else if (unmatched === 'error') {
				throw new NodeOperationError(
					this.getNode(),
					`Item ${itemIndex}: no order found for store_id '${reference.store_id}' and order_number '${reference.order_number}'`,
					{
						itemIndex,
						description:
							'The service returned no order for this pair. Check both values, or set "If an Order Is Not Found" to output an item instead.',
					},
				);
			}
		}
		return results;
	});
}
