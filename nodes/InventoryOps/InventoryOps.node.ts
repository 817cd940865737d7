import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { versionProperties } from './actions/versionDescription';

export class InventoryOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inventory Ops',
		name: 'inventoryOps',
		icon: { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Look up orders in bulk, create kits, restore inventory deducted by a shipment, and add or remove webhook handlers of the Inventory Ops service',
		defaults: { name: 'Inventory Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inventoryOpsApi', required: true }],
		properties: versionProperties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
