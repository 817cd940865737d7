import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, inventoryOpsApiRequest, type Endpoint } from '../../transport';
import { compact, ItemValidator, MAX_TIMEOUT_MS } from './validation';

/** Any failure as a node error tied to the item: a node error as it is, anything else (a bug's TypeError) wrapped. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

// Only `error` and `details`: n8n 2.x sends an item to the error output by its json when it holds nothing else
// (besides `message`).
function errorItemJson(error: NodeApiError | NodeOperationError): IDataObject {
	const description = error.description ?? undefined;
	if (!(error instanceof NodeApiError)) return { error: error.message, details: compact({ description }) };
	const response = (error.errorResponse ?? {}) as JsonObject;
	return { error: error.message, details: compact({ description, httpCode: error.httpCode ?? undefined, ...response }) };
}

/** With "continue on fail" (or an error output) an error item paired with its input item; otherwise it throws. */
function failedItem(this: IExecuteFunctions, error: unknown, itemIndex: number): INodeExecutionData {
	const nodeError = asNodeError(this.getNode(), error, itemIndex);
	if (!this.continueOnFail()) throw nodeError;
	const item: INodeExecutionData = { json: errorItemJson(nodeError), pairedItem: { item: itemIndex } };
	// n8n 1.x routes to the error output only by the item's own `error` (json `{ error, details }` is not enough
	// there); on the regular output n8n would replace such an item by its input item.
	if (this.getNode().onError === 'continueErrorOutput') item.error = nodeError;
	return item;
}

type ItemResult = IDataObject | IDataObject[];

/**
 * Runs `handleItem` for each input item in turn; with "continue on fail" a failed item never stops the others. A
 * handler that makes no call (Get Many's output) answers at once, so no promise is awaited per item. The output is
 * built here rather than with constructExecutionMetaData, which copies every item twice and would unwrap an output
 * object that has a `json` field; pushed one by one, as spreading 100,000 outputs overflows the call stack.
 */
export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handleItem: (itemIndex: number) => ItemResult | Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const handled = handleItem(itemIndex);
			// By `then`, not instanceof: a promise made in another realm (a test's) is a promise all the same.
			const result = typeof (handled as { then?: unknown }).then === 'function' ? await handled : (handled as ItemResult);
			const pairedItem = { item: itemIndex };
			for (const json of Array.isArray(result) ? result : [result]) returnData.push({ json, pairedItem });
		} catch (error) {
			returnData.push(failedItem.call(this, error, itemIndex));
		}
	}
	return returnData;
}

/** One call for one input item, with the item's time-out from Options. */
export async function requestForItem(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const timeout = this.getNodeParameter('options.timeout', itemIndex, DEFAULT_TIMEOUT_MS);
	const timeoutMs = new ItemValidator(this.getNode(), itemIndex).count(timeout, 'Timeout', 1, MAX_TIMEOUT_MS);
	return (await inventoryOpsApiRequest.call(this, endpoint, body, { itemIndex, timeoutMs })) as IDataObject;
}
