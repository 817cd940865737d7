import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, inventoryOpsApiRequest, type Endpoint } from '../../transport';
import { asNodeError } from '../../shared/nodeErrors';
import { compact, ItemValidator, MAX_TIMEOUT_MS } from './validation';

/**
 * The json of an error item: `error` (the message) and `details` (the parsed fields: description, httpCode and the
 * service's code, overview, serviceTraceId...). Only these two keys, because n8n 2.x sends an item to the node's
 * error output by its json when that holds nothing but `error`, `message` and `details`.
 */
function errorItemJson(error: unknown): IDataObject {
	if (error instanceof NodeApiError) {
		const response = (error.errorResponse ?? {}) as JsonObject;
		return {
			error: error.message,
			details: compact({
				description: error.description ?? undefined,
				httpCode: error.httpCode ?? undefined,
				...response,
			}),
		};
	}
	if (error instanceof NodeOperationError) {
		return {
			error: error.message,
			details: compact({ description: error.description ?? undefined }),
		};
	}
	return { error: error instanceof Error ? error.message : String(error), details: {} };
}

/** What one input item gives: one output object, or several (none when the list is empty). */
type ItemResult = IDataObject | IDataObject[];

/**
 * Appends the output of one input item, each entry carrying its `pairedItem`. Built here rather than with
 * returnJsonArray and constructExecutionMetaData, which copy every item twice (a 10,000-item lookup made 4 MiB of
 * copies), and which would take an output object that has a `json` field of its own for an item and unwrap it. One
 * by one: `target.push(...entries)` passes every entry as an argument and overflows the call stack once an item
 * yields some 100,000 outputs.
 */
function appendPaired(target: INodeExecutionData[], result: ItemResult, itemIndex: number): void {
	const pairedItem = { item: itemIndex };
	if (!Array.isArray(result)) {
		target.push({ json: result, pairedItem });
		return;
	}
	for (const json of result) target.push({ json, pairedItem });
}

/**
 * With "continue on fail" (or an error output) the failure becomes an error item paired with its input item;
 * otherwise it stops the node with the item named.
 */
function failedItem(this: IExecuteFunctions, error: unknown, itemIndex: number): INodeExecutionData {
	const nodeError = asNodeError(this.getNode(), error, itemIndex);
	if (!this.continueOnFail()) throw nodeError;
	const item: INodeExecutionData = { json: errorItemJson(nodeError), pairedItem: { item: itemIndex } };
	// n8n 1.x routes by json only when it is `{ error }` or `{ error, message }`, so `{ error, details }` stayed on
	// the success output there; the item's own `error` is what both lines check first. Only for the error output:
	// on the regular output n8n would replace such an item by its input item.
	if (this.getNode().onError === 'continueErrorOutput') item.error = nodeError;
	return item;
}

/** By its `then`, not instanceof: a promise made in another realm (a test's) is a promise all the same. */
function isPromise(result: ItemResult | Promise<ItemResult>): result is Promise<ItemResult> {
	return typeof (result as { then?: unknown }).then === 'function';
}

/**
 * Runs `handleItem` for each input item in turn; a failed item never stops the others when the node continues on
 * fail. A handler that needs no call of its own (Get Many's output, made after its calls) answers at once: no
 * promise is made and waited for per item.
 */
export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handleItem: (itemIndex: number) => ItemResult | Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = handleItem(itemIndex);
			appendPaired(returnData, isPromise(result) ? await result : result, itemIndex);
		} catch (error) {
			returnData.push(failedItem.call(this, error, itemIndex));
		}
	}
	return returnData;
}

/** One call for one input item, with the item's time-out from Options; errors name the item. */
export async function requestForItem(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const timeout = this.getNodeParameter('options.timeout', itemIndex, DEFAULT_TIMEOUT_MS);
	const timeoutMs = new ItemValidator(this.getNode(), itemIndex).count(timeout, 'Timeout', 1, MAX_TIMEOUT_MS);
	return (await inventoryOpsApiRequest.call(this, endpoint, body, {
		itemIndex,
		timeoutMs,
	})) as IDataObject;
}
