import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

/**
 * Any failure as a node error, the kind n8n shows with its item and description: a node error as it is (given the
 * item when it names none), anything else (a bug's TypeError) wrapped. One home for both nodes: the action node ties
 * a failed item to it, the trigger adds the activation's context to it.
 */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
