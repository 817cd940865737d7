import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { parameterForAllItems } from './helpers/parameterForAllItems';
import * as kitCreate from './kit/create.operation';
import * as lookUp from './order/lookUp.operation';
import * as restoreInventory from './shipment/restoreInventory.operation';
import * as addHandler from './webhookHandler/add.operation';
import * as removeHandler from './webhookHandler/remove.operation';

export const OPERATIONS = {
	order: { lookUp },
	kit: { create: kitCreate },
	shipment: { restoreInventory },
	webhookHandler: { add: addHandler, remove: removeHandler },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = parameterForAllItems.call(this, 'resource', 'Resource', undefined);
	const operation = parameterForAllItems.call(this, 'operation', 'Operation', undefined);
	// The editor offers only real pairs, but an imported workflow may hold a list, or another
	// resource's operation.
	const known: Record<string, Record<string, { execute: typeof kitCreate.execute }>> = OPERATIONS;
	const ofResource =
		typeof resource === 'string' && Object.hasOwn(known, resource) ? known[resource] : {};
	if (typeof operation !== 'string' || !Object.hasOwn(ofResource, operation)) {
		const pair = `The operation ${JSON.stringify(operation)} of resource ${JSON.stringify(resource)}`;
		throw new NodeOperationError(this.getNode(), `${pair} is not supported`, {
			description: 'Choose the resource and operation again.',
		});
	}
	return [await ofResource[operation].execute.call(this, items)];
}
