import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { optionsCollection } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/execution';
import { readRestoreAnswer, restoredItemsOf, type ShipmentSelectors } from '../../transport';
import { compact, ItemValidator } from '../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Store ID',
		name: 'storeId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1002',
		description: 'The ID of the store the shipped order belongs to',
	},
	{
		displayName: 'Order Number',
		name: 'orderNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
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

/**
 * The output of a restore the service answered 200 to. It was applied, so there is always an item: the answer with
 * `restored: true`, the shipment the selectors pick (`restoredShipment`) and what it put back (`restoredItems`, that
 * record's `request.order_items`); or, split, one item per shipment record with `restored` true on that one only.
 * What the answer lacks is listed in `missingFromAnswer`, with a notice; without shipment records to split into,
 * the one item stands for the restore.
 */
function restoreOutput(response: IDataObject, selectors: ShipmentSelectors, split: boolean): IDataObject[] {
	const { shipments, restored, missing } = readRestoreAnswer(response, selectors);
	const items = restored === undefined ? undefined : restoredItemsOf(restored);
	if (restored !== undefined && items === undefined) missing.push("the restored shipment's request.order_items");
	const incomplete: IDataObject =
		missing.length === 0
			? {}
			: {
					missingFromAnswer: missing,
					notice: `The service restored the inventory (it answered 200), but its answer lacks: ${missing.join('; ')}. Do not run this item again.`,
				};
	if (split && shipments !== undefined && shipments.length > 0) {
		return shipments.map((record) => ({ ...record, restored: record === restored, ...incomplete }));
	}
	const output: IDataObject = { restored: true, ...response };
	if (restored !== undefined) output.restoredShipment = restored as IDataObject;
	if (items !== undefined) output.restoredItems = items as IDataObject[];
	if (split && shipments !== undefined) {
		output.notice = `The service restored the inventory (it answered 200), but its answer holds no shipment records to split into; this item stands for the restore.${missing.length > 0 ? ` It also lacks: ${missing.join('; ')}.` : ''}`;
		if (missing.length > 0) output.missingFromAnswer = missing;
		return [output];
	}
	return [{ ...output, ...incomplete }];
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const check = new ItemValidator(this.getNode(), itemIndex);
		const selectors: ShipmentSelectors = compact({
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
		return restoreOutput(response, selectors, split === true);
	});
}
