import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

export class InventoryOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inventory Ops',
		name: 'inventoryOps',
		icon: { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Look up orders, create kits, restore shipment inventory and manage webhook handlers',
		defaults: { name: 'Inventory Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inventoryOpsApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
