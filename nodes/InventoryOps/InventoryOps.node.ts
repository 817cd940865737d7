import {
	NodeConnectionTypes,
	updateDisplayOptions,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { OPERATIONS, router } from './actions/router';
import { testInventoryOpsApiCredential } from './transport';

const SUBTITLES: Record<string, string> = {
	'order.lookUp': 'Get many orders',
	'kit.create': 'Create a kit',
	'shipment.restoreInventory': 'Restore shipment inventory',
	'webhookHandler.add': 'Add a webhook handler',
	'webhookHandler.remove': 'Remove a webhook handler',
};

function operationFields(
	resource: keyof typeof OPERATIONS,
	options: INodePropertyOptions[],
): INodeProperties[] {
	const [{ value }] = options;
	const displayOptions = { show: { resource: [resource] } };
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions,
		options,
		default: value,
	};
	const fields = Object.entries(OPERATIONS[resource]).map(([operation, { description }]) =>
		updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, description),
	);
	return [selector, ...fields.flat()];
}

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Kit', value: 'kit' },
			{ name: 'Order', value: 'order' },
			{ name: 'Shipment', value: 'shipment' },
			{ name: 'Webhook Handler', value: 'webhookHandler' },
		],
		default: 'order',
	},
	// The value is lookUp, not getMany: n8n's editor asks for "Execute Once" on any node whose
	// operation is named getAll, getMany, read or search and that receives several items, which would
	// hand this lookup only the first item.
	...operationFields('order', [
		{
			name: 'Get Many',
			value: 'lookUp',
			description:
				'Look up many orders at once by store ID and order number; found: false for one the service lacks',
			action: 'Get many orders by store and order number',
		},
	]),
	...operationFields('kit', [
		{
			name: 'Create',
			value: 'create',
			description: 'Create a kit from its name, SKU and component items',
			action: 'Create a kit from component items',
		},
	]),
	...operationFields('shipment', [
		{
			name: 'Restore Inventory',
			value: 'restoreInventory',
			description: 'Put back the stock a shipment took out',
			action: 'Restore inventory deducted by a shipment',
		},
	]),
	...operationFields('webhookHandler', [
		{
			name: 'Add',
			value: 'add',
			description: 'Register a URL the service calls on an event',
			action: 'Add a webhook handler for an event type',
		},
		{
			name: 'Remove',
			value: 'remove',
			description: 'Unregister a handler by the ID it was added with',
			action: 'Remove a webhook handler by ID',
		},
	]),
];

export class InventoryOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inventory Ops',
		name: 'inventoryOps',
		icon: { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' },
		group: ['transform'],
		version: 1,
		// Here, not in the codex file: n8n would append its tracking query after the #anchor there.
		documentationUrl:
			'https://github.com/n8n-nodes-inventory-ops/n8n-nodes-inventory-ops#inventory-ops-node',
		subtitle: `={{ ${JSON.stringify(SUBTITLES)}[$parameter["resource"] + "." + $parameter["operation"]] }}`,
		description:
			'Look up orders, create kits, restore shipment inventory and manage webhook handlers in Inventory Ops',
		defaults: { name: 'Inventory Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inventoryOpsApi', required: true, testedBy: 'inventoryOpsApiTest' }],
		properties,
	};

	methods = { credentialTest: { inventoryOpsApiTest: testInventoryOpsApiCredential } };

	execute = router;
}
