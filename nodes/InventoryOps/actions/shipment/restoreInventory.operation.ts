import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { optionsCollection, requiredText } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/perItem';
import { compact } from '../helpers/validation';
import { readRestoreAnswer, restoredItemsOf, type ShipmentSelectors } from '../../transport';

const selector = (displayName: string, name: string, what: string): INodeProperties =>
	({ displayName, name, type: 'string', default: '', description: `${what} of the shipment; leave empty to pick it by another` });

const properties: INodeProperties[] = [
	requiredText('Store ID', 'storeId', 'The ID of the store the shipped order belongs to', 'e.g. 1002'),
	requiredText('Order Number', 'orderNumber', 'The number of the order whose shipment deducted the inventory', 'e.g. 1001'),
	{ displayName: 'Give at least one of the three IDs below to pick the shipment', name: 'shipmentNotice', type: 'notice', default: '' },
	selector('Shipment ID', 'shipmentId', "The service's ID"),
	selector('Tracking Number', 'trackingNumber', 'The tracking number'),
	selector('Carrier Shipment ID', 'carrierShipmentId', "The carrier's ID"),
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
			description: 'Whether to output one item per shipment record of the answer',
		},
	]),
];

export const description = updateDisplayOptions({ show: { resource: ['shipment'], operation: ['restoreInventory'] } }, properties);

/**
 * A 200 means the restore was applied, so there is always an item: the answer with the shipment the selectors pick
 * and what it put back; or, split, one item per shipment record, `restored` true on that one only.
 */
function restoreOutput(response: IDataObject, selectors: ShipmentSelectors, split: boolean): IDataObject[] {
	const { shipments, restored, missing } = readRestoreAnswer(response, selectors);
	const restoredItems = restored && restoredItemsOf(restored);
	if (restored !== undefined && restoredItems === undefined) missing.push("the restored shipment's request.order_items");
	const lacks = missing.join('; ');
	const said = 'The service restored the inventory (it answered 200), but its answer';
	const extra: IDataObject = lacks ? { missingFromAnswer: missing } : {};
	// An empty list holds no restored shipment either, so the answer always lacks something there.
	if (split && shipments?.length === 0) {
		extra.notice = `${said} holds no shipment records to split into; this item stands for the restore. It also lacks: ${lacks}.`;
	} else if (lacks) {
		extra.notice = `${said} lacks: ${lacks}. Do not run this item again.`;
	}
	if (split && shipments?.length) return shipments.map((record) => ({ ...record, restored: record === restored, ...extra }));
	return [compact({ restored: true, ...response, ...extra, restoredShipment: restored, restoredItems })];
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex, check) => {
		const read = (name: string) => this.getNodeParameter(name, itemIndex, '');
		const selectors: ShipmentSelectors = compact({
			shipment_id: check.optionalText(read('shipmentId'), 'Shipment ID'),
			tracking_number: check.optionalText(read('trackingNumber'), 'Tracking Number'),
			carrier_shipment_id: check.optionalText(read('carrierShipmentId'), 'Carrier Shipment ID'),
		});
		if (Object.keys(selectors).length === 0) {
			check.fail('Shipment ID', 'is empty, and so are Tracking Number and Carrier Shipment ID: give at least one');
		}
		const body = compact({
			store_id: check.text(read('storeId'), 'Store ID'),
			order_number: check.text(read('orderNumber'), 'Order Number'),
			...selectors,
			no_refresh: check.optionalBoolean(this.getNodeParameter('noRefresh', itemIndex, false), 'Skip Cache Refresh'),
		});
		// Read before the call: a bad value found after it would fail an item whose restore was applied.
		const split = check.optionalBoolean(this.getNodeParameter('options.splitShipments', itemIndex, false), 'Split Into Shipments');
		const response = await requestForItem.call(this, 'shipmentRestoreInventory', body, check);
		return restoreOutput(response, selectors, split === true);
	});
}
