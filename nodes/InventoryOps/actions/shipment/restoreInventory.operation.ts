import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { optionsCollection } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/perItem';
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

export const description = updateDisplayOptions({ show: { resource: ['shipment'], operation: ['restoreInventory'] } }, properties);

const RESTORED = 'The service restored the inventory (it answered 200)';

/**
 * The service answered 200, so the restore was applied and there is always an item: the answer with the shipment
 * the selectors pick (`restoredShipment`) and what it put back (`restoredItems`); or, split, one item per shipment
 * record with `restored` true on that one only. What the answer lacks goes to `missingFromAnswer`, with a notice.
 */
function restoreOutput(response: IDataObject, selectors: ShipmentSelectors, split: boolean): IDataObject[] {
	const { shipments, restored, missing } = readRestoreAnswer(response, selectors);
	const items = restored === undefined ? undefined : restoredItemsOf(restored);
	if (restored !== undefined && items === undefined) missing.push("the restored shipment's request.order_items");
	const lacks = missing.join('; ');
	const incomplete: IDataObject = missing.length === 0 ? {} : { missingFromAnswer: missing };
	if (split && shipments !== undefined && shipments.length > 0) {
		if (missing.length > 0) incomplete.notice = `${RESTORED}, but its answer lacks: ${lacks}. Do not run this item again.`;
		return shipments.map((record) => ({ ...record, restored: record === restored, ...incomplete }));
	}
	const output: IDataObject = { restored: true, ...response, ...incomplete };
	if (restored !== undefined) output.restoredShipment = restored as IDataObject;
	if (items !== undefined) output.restoredItems = items as IDataObject[];
	if (split && shipments !== undefined) {
		const also = missing.length > 0 ? ` It also lacks: ${lacks}.` : '';
		output.notice = `${RESTORED}, but its answer holds no shipment records to split into; this item stands for the restore.${also}`;
	} else if (missing.length > 0) {
		output.notice = `${RESTORED}, but its answer lacks: ${lacks}. Do not run this item again.`;
	}
	return [output];
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const check = new ItemValidator(this.getNode(), itemIndex);
		const text = (name: string, field: string) => check.optionalText(this.getNodeParameter(name, itemIndex, ''), field);
		const selectors: ShipmentSelectors = compact({
			shipment_id: text('shipmentId', 'Shipment ID'),
			tracking_number: text('trackingNumber', 'Tracking Number'),
			carrier_shipment_id: text('carrierShipmentId', 'Carrier Shipment ID'),
		});
		if (Object.keys(selectors).length === 0) {
			check.fail('Shipment ID', 'is empty, and so are Tracking Number and Carrier Shipment ID: give at least one');
		}
		const body = compact({
			store_id: check.text(this.getNodeParameter('storeId', itemIndex, ''), 'Store ID'),
			order_number: check.text(this.getNodeParameter('orderNumber', itemIndex, ''), 'Order Number'),
			...selectors,
			no_refresh: check.optionalBoolean(this.getNodeParameter('noRefresh', itemIndex, false), 'Skip Cache Refresh'),
		});
		// Read before the call: a bad value found after it would fail an item whose restore was applied.
		const split = check.optionalBoolean(this.getNodeParameter('options.splitShipments', itemIndex, false), 'Split Into Shipments');
		const response = await requestForItem.call(this, 'shipmentRestoreInventory', body, itemIndex);
		return restoreOutput(response, selectors, split === true);
	});
}
