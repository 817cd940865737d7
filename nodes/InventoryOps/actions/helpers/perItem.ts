import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

import { callService, DEFAULT_TIMEOUT_MS, nodeErrorOf, type Endpoint } from '../../transport';
import { compact, ItemValidator, MAX_TIMEOUT_MS } from './validation';

type ItemResult = IDataObject | IDataObject[];
export type ReadParameter = (
	name: string,
	fallback?: unknown,
) => ReturnType<IExecuteFunctions['getNodeParameter']>;

export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) {
		return new NodeOperationError(node, error as Error, { itemIndex });
	}
	error.context.itemIndex ??= itemIndex;
	return error;
}

/**
 * Runs `handleItem` for each item; a handler that makes no call (Get Many's) answers at once, so
 * nothing is awaited. Not constructExecutionMetaData: it copies every item twice and unwraps an
 * output holding a `json` field.
 */
export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handleItem: (check: ItemValidator, read: ReadParameter) => ItemResult | Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const returnData: INodeExecutionData[] = [];
	// Once per run: n8n's getNode() deep-copies the node with its parameters on every call.
	const node = this.getNode();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const pairedItem = { item: itemIndex };
		try {
			const read: ReadParameter = (name, fallback = '') =>
				this.getNodeParameter(name, itemIndex, fallback);
			const handled = handleItem(new ItemValidator(node, itemIndex), read);
			// By `then`, not instanceof: a promise may come from another realm (a test's).
			const result =
				typeof (handled as Promise<unknown>).then === 'function'
					? await handled
					: (handled as ItemResult);
			// One by one: spreading 100,000 outputs into push() overflows the stack.
			for (const json of Array.isArray(result) ? result : [result])
				returnData.push({ json, pairedItem });
		} catch (error) {
			const nodeError = asNodeError(node, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			const { message, description } = nodeError;
			const api = nodeError instanceof NodeApiError && {
				httpCode: nodeError.httpCode ?? undefined,
				...(nodeError.errorResponse as JsonObject),
			};
			// n8n 2.x routes an item to the error output by this json; n8n 1.x by the item's `error`,
			// which on the regular output would make n8n replace the item by its input item.
			const json = {
				error: message,
				details: compact({ description: description ?? undefined, ...api }),
			};
			returnData.push({
				json,
				pairedItem,
				...(node.onError === 'continueErrorOutput' ? { error: nodeError } : {}),
			});
		}
	}
	return returnData;
}

export async function requestForItem(
	this: IExecuteFunctions,
	endpoint: Endpoint,
	body: IDataObject,
	check: ItemValidator,
): Promise<IDataObject> {
	const { itemIndex } = check;
	const timeoutMs = check.count(
		this.getNodeParameter('options.timeout', itemIndex, DEFAULT_TIMEOUT_MS),
		'Timeout (Milliseconds)',
		1,
		MAX_TIMEOUT_MS,
	);
	const outcome = await callService.call(this, endpoint, body, { itemIndex, timeoutMs });
	if (outcome.kind === 'answered') return outcome.body as IDataObject;
	throw nodeErrorOf(this.getNode(), outcome);
}

/**
 * A 2xx means the write was applied: the item leaves, naming what the answer lacks, and must not
 * run again.
 */
export function answerLacks(done: string, missing: string[], advice: string): IDataObject {
	if (missing.length === 0) return {};
	const notice = [
		`The service ${done}, but its answer lacks: ${missing.join('; ')}.`,
		advice,
		'Do not run this item again.',
	]
		.filter(Boolean)
		.join(' ');
	return { missingFromAnswer: missing, notice };
}
