import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { receiveDelivery } from './trigger/delivery';
import { testInventoryOpsApiCredential } from './transport';
import { recordedHandlersMatchSelection, registerHandlers, removeHandlers } from './trigger/lifecycle';
import { triggerPanel, triggerProperties, triggerSubtitle } from './trigger/properties';

export class InventoryOpsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inventory Ops Trigger',
		name: 'inventoryOpsTrigger',
		icon: { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1. n8n reads the Webhook node's old `options.binaryData` through its expression engine for every
		// delivery to a start node of version 1 (parseRequestBody in its webhook-helpers), whatever its type: on n8n 2.x
		// an isolate evaluation per delivery. A trigger added at 1.1 skips it; one saved at 1 keeps working as it was.
		version: [1, 1.1],
		defaultVersion: 1.1,
		// n8n opens a documentationUrl starting with http as it is; from the codex file it would append its tracking
		// query after the #anchor, which then matches no heading.
		documentationUrl: 'https://github.com/n8n-nodes-inventory-ops/n8n-nodes-inventory-ops#inventory-ops-trigger',
		subtitle: triggerSubtitle,
		description:
			'Starts the workflow when Inventory Ops sends an event, e.g. an order shipped, an order status changed or a shipment voided',
		defaults: { name: 'Inventory Ops Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inventoryOpsApi', required: true, testedBy: 'inventoryOpsApiTest' }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: triggerProperties,
		triggerPanel,
	};

	// The credential's Test button runs this (n8n looks it up by the name in credentials[].testedBy).
	methods = { credentialTest: { inventoryOpsApiTest: testInventoryOpsApiCredential } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await recordedHandlersMatchSelection.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await registerHandlers.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await removeHandlers.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}
