import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { optionsCollection } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/execution';
import { isPlainObject } from '../../shared/objects';
import { compact, ItemValidator } from '../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Store ID',
		name: 'storeId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of the store the shipped order belongs to',
	},
	{
		displayName: 'Order Number',
		name: 'orderNumber',
		type: 'string',
		required: true,
		default: '',
		description: 'The number of the order whose shipment deducted the inventory',
	},
	{
		displayName: 'Give at least one of Shipment ID, Tracking Number or Carrier Shipment ID to pick the shipment',
		name: 'shipmentNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Shipment ID',
		name: 'shipmentId',
		type: 'string',
		default: '',
		description:
			"The service's own ID of the shipment. Leave empty to pick the shipment by tracking number or carrier shipment ID.",
	},
	{
		displayName: 'Tracking Number',
		name: 'trackingNumber',
		type: 'string',
		default: '',
		description:
			'The tracking number of the shipment. Leave empty to pick the shipment by shipment ID or carrier shipment ID.',
	},
	{
		displayName: 'Carrier Shipment ID',
		name: 'carrierShipmentId',
		type: 'string',
		default: '',
		description:
			"The carrier's ID of the shipment. Leave empty to pick the shipment by shipment ID or tracking number.",
	},
	{
		displayName: 'Skip Cache Refresh',
		name: 'noRefresh',
		type: 'boolean',
		default: false,
		description: 'Whether to skip the cache refresh after restoring (sent as no_refresh)',
	},
	optionsCollection([
		{
			displayName: 'Split Into Shipments',
			name: 'splitShipments',
			type: 'boolean',
			default: false,
			description:
				'Whether to output one item per shipment record of the answer instead of one item with the whole answer',
		},
	]),
];

const displayOptions = { show: { resource: ['shipment'], operation: ['restoreInventory'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const check = new ItemValidator(this.getNode(), itemIndex);
		const selectors = compact({
			shipment_id: check.optionalText(this.getNodeParameter('shipmentId', itemIndex, ''), 'Shipment ID'),
			tracking_number: check.optionalText(this.getNodeParameter('trackingNumber', itemIndex, ''), 'Tracking Number'),
			carrier_shipment_id: check.optionalText(
				this.getNodeParameter('carrierShipmentId', itemIndex, ''),
				'Carrier Shipment ID',
			),
		});
		if (Object.keys(selectors).length === 0) {
			check.fail('Shipment ID', 'is empty, and so are Tracking Number and Carrier Shipment ID: give at least one');
		}
		const body = {
			store_id: check.text(this.getNodeParameter('storeId', itemIndex, ''), 'Store ID'),
			order_number: check.text(this.getNodeParameter('orderNumber', itemIndex, ''), 'Order Number'),
			...selectors,
			no_refresh: check.optionalBoolean(this.getNodeParameter('noRefresh', itemIndex, false), 'Skip Cache Refresh'),
		};
		// Read before the call: a bad value found after it would fail an item whose restore was already applied.
		const splitOption = this.getNodeParameter('options.splitShipments', itemIndex, false);
		const split = check.optionalBoolean(splitOption, 'Split Into Shipments');
		const response = await requestForItem.call(this, 'shipmentRestoreInventory', compact(body), itemIndex);
		if (!split) return response;
		const shipments = Array.isArray(response?.shipments) ? response.shipments : [];
		return shipments.filter(isPlainObject);
	});
}
