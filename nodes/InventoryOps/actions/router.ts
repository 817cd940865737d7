import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import * as kit from './kit';
import { runWideParameter } from './helpers/runWide';
import type { InventoryOpsType } from './node.type';
import * as order from './order';
import * as shipment from './shipment';
import * as webhookHandler from './webhookHandler';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	// Resource and operation hold for the whole run (noDataExpression; runWide.ts for imported workflows).
	const resource = runWideParameter.call(this, 'resource', 'Resource', undefined, items.length);
	const operation = runWideParameter.call(this, 'operation', 'Operation', undefined, items.length);
	const inventoryOps = { resource, operation } as InventoryOpsType;

	let returnData: INodeExecutionData[];
	switch (inventoryOps.resource) {
		case 'order':
			returnData = await order[inventoryOps.operation].execute.call(this, items);
			break;
		case 'kit':
			returnData = await kit[inventoryOps.operation].execute.call(this, items);
			break;
		case 'shipment':
			returnData = await shipment[inventoryOps.operation].execute.call(this, items);
			break;
		case 'webhookHandler':
			returnData = await webhookHandler[inventoryOps.operation].execute.call(this, items);
			break;
		default:
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${String(operation)}" of resource "${String(resource)}" is not supported`,
			);
	}
	return [returnData];
}
