import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, inventoryOpsApiRequest, type Endpoint } from '../../transport';
import { asNodeError as asAnyNodeError } from '../../shared/nodeErrors';
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

/** Wraps any failure as a node error tied to the item, so n8n shows which item failed. */
export function asNodeError(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	return asAnyNodeError(this.getNode(), error, itemIndex);
}

/**
 * Output items for one input item, each carrying its `pairedItem`. Built here rather than with returnJsonArray and
 * constructExecutionMetaData, which copy every item twice (a 10,000-item lookup made 4 MiB of copies), and which
 * would take an output object that has a `json` field of its own for an item and unwrap it.
 */
function pairedOutput(json: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
	const pairedItem = { item: itemIndex };
	if (!Array.isArray(json)) return [{ json, pairedItem }];
	const output: INodeExecutionData[] = [];
	for (const entry of json) output.push({ json: entry, pairedItem });
	return output;
}

/**
 * With "continue on fail" (or an error output) the failure becomes an error item paired with its input item;
 * otherwise it stops the node with the item named.
 */
function failedItemOutput(this: IExecuteFunctions, error: unknown, itemIndex: number): INodeExecutionData[] {
	const nodeError = asNodeError.call(this, error, itemIndex);
	if (!this.continueOnFail()) throw nodeError;
	const output = pairedOutput(errorItemJson(nodeError), itemIndex);
	if (this.getNode().onError !== 'continueErrorOutput') return output;
	// n8n 1.x routes by json only when it is `{ error }` or `{ error, message }`, so `{ error, details }` stayed on
	// the success output there; the item's own `error` is what both lines check first. Only for the error output:
	// on the regular output n8n would replace such an item by its input item.
	return output.map((item) => ({ ...item, error: nodeError }));
}

/**
 * Appends one by one: `target.push(...items)` passes every item as an argument and overflows the call stack once
 * an item yields some 100,000 outputs.
 */
function appendAll<T>(target: T[], items: readonly T[]): void {
	for (const item of items) target.push(item);
}

/** Runs one call per input item; a failed item never stops the others when the node continues on fail. */
export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handleItem: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let output: INodeExecutionData[];
		try {
			output = pairedOutput(await handleItem(itemIndex), itemIndex);
		} catch (error) {
			output = failedItemOutput.call(this, error, itemIndex);
		}
		appendAll(returnData, output);
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
