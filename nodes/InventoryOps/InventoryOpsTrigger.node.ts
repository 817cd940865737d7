import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { receiveDelivery } from './trigger/delivery';
import { testInventoryOpsApiCredential } from './transport';
import {
	recordedHandlersMatchSelection,
	registerHandlers,
	removeHandlers,
} from './trigger/lifecycle';
import { triggerPanel, triggerProperties, triggerSubtitle } from './trigger/properties';

export class InventoryOpsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inventory Ops Trigger',
		name: 'inventoryOpsTrigger',
		icon: { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' },
		group: ['trigger'],
		// Not 1: n8n evaluates `options.binaryData` at every delivery to a version-1 start node.
		version: 1.1,
		documentationUrl:
			'https://github.com/n8n-nodes-inventory-ops/n8n-nodes-inventory-ops#inventory-ops-trigger',
		subtitle: triggerSubtitle,
		description: 'Starts the workflow when Inventory Ops sends an event, such as an order shipped',
		defaults: { name: 'Inventory Ops Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inventoryOpsApi', required: true, testedBy: 'inventoryOpsApiTest' }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: triggerProperties,
		triggerPanel,
	};

	methods = { credentialTest: { inventoryOpsApiTest: testInventoryOpsApiCredential } };

	webhookMethods = {
		default: {
			checkExists(this: IHookFunctions) {
				return recordedHandlersMatchSelection.call(this);
			},
			create(this: IHookFunctions) {
				return registerHandlers.call(this);
			},
			delete(this: IHookFunctions) {
				return removeHandlers.call(this);
			},
		},
	};

	webhook = receiveDelivery;
}
