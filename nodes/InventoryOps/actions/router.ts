import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import * as kit from './kit';
import { parameterForAllItems } from './helpers/parameterForAllItems';
import * as order from './order';
import * as shipment from './shipment';
import * as webhookHandler from './webhookHandler';

type Execute = (this: IExecuteFunctions, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;

const RESOURCES: Record<string, Record<string, unknown>> = { order, kit, shipment, webhookHandler };

/**
 * The operation's `execute`, or undefined for a pair the node does not have. The editor offers only real pairs, but
 * workflows also arrive by import and API, where a resource may be a list or an operation belong to another resource.
 */
function executeOf(resource: unknown, operation: unknown): Execute | undefined {
	if (typeof resource !== 'string' || typeof operation !== 'string' || !Object.hasOwn(RESOURCES, resource)) return undefined;
	const operations = RESOURCES[resource];
	const module = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	// Every export is an operation module or `description` (a list, without `execute`).
	return (module as { execute?: Execute } | undefined)?.execute;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	// Resource and operation hold for the whole run (noDataExpression; parameterForAllItems.ts for imported workflows).
	const resource = parameterForAllItems.call(this, 'resource', 'Resource', undefined, items.length);
	const operation = parameterForAllItems.call(this, 'operation', 'Operation', undefined, items.length);
	const execute = executeOf(resource, operation);
	if (execute === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation ${JSON.stringify(operation)} of resource ${JSON.stringify(resource)} is not supported`,
			{ description: 'Open the node and choose the resource and the operation again.' },
		);
	}
	return [await execute.call(this, items)];
}
