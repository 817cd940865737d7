import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { testInventoryOpsApiCredential } from './transport';
import { properties, subtitle } from './actions/properties';

export class InventoryOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inventory Ops',
		name: 'inventoryOps',
		icon: { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' },
		group: ['transform'],
		version: 1,
		// n8n opens a documentationUrl starting with http as it is; from the codex file it would append its tracking
		// query after the #anchor, which then matches no heading.
		documentationUrl: 'https://github.com/n8n-nodes-inventory-ops/n8n-nodes-inventory-ops#inventory-ops-node',
		subtitle,
		description:
			'Look up orders by store and order number, create kits, restore the inventory a shipment deducted, and add or remove webhook handlers in Inventory Ops',
		defaults: { name: 'Inventory Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inventoryOpsApi', required: true, testedBy: 'inventoryOpsApiTest' }],
		properties,
	};

	// The credential's Test button runs this (n8n looks it up by the name in credentials[].testedBy).
	methods = { credentialTest: { inventoryOpsApiTest: testInventoryOpsApiCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
