import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { optionsCollection, requiredText } from '../helpers/descriptions';
import { answerLacks, forEachItem, requestForItem } from '../helpers/perItem';
import { compact } from '../helpers/validation';
import { readRestoreAnswer, type ShipmentSelectors } from './answer';

const SELECTORS: Array<[keyof ShipmentSelectors, string, string, string]> = [
	['shipment_id', 'shipmentId', 'Shipment ID', "The service's ID"],
	['tracking_number', 'trackingNumber', 'Tracking Number', 'The tracking number'],
	['carrier_shipment_id', 'carrierShipmentId', 'Carrier Shipment ID', "The carrier's ID"],
];

export const description: INodeProperties[] = [
	requiredText(
		'Store ID',
		'storeId',
		'The ID of the store the shipped order belongs to',
		'e.g. 1002',
	),
	requiredText(
		'Order Number',
		'orderNumber',
		'The number of the order whose shipment deducted the inventory',
		'e.g. 1001',
	),
	{
		displayName: 'Give at least one of the three IDs below to pick the shipment',
		name: 'shipmentNotice',
		type: 'notice',
		default: '',
	},
	...SELECTORS.map(([, name, displayName, what]): INodeProperties => ({
		displayName,
		name,
		type: 'string',
		default: '',
		description: `${what} of the shipment; leave empty to pick it by another`,
	})),
	{
		displayName: 'Skip Cache Refresh',
		name: 'noRefresh',
		type: 'boolean',
		default: false,
		description: 'Whether to skip the cache refresh',
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

function restoreOutput(
	response: IDataObject,
	selectors: ShipmentSelectors,
	split: boolean,
): IDataObject[] {
	const { shipments, restored, restoredItems, missing } = readRestoreAnswer(response, selectors);
	// With no shipment records there is no restored one either, so `missing` is never empty here.
	const noRecords =
		split && shipments?.length === 0
			? 'It holds no shipment records to split into: this item stands for the restore.'
			: '';
	const extra = answerLacks('restored the inventory', missing, noRecords);
	if (split && shipments?.length)
		return shipments.map((record) => ({ ...record, restored: record === restored, ...extra }));
	return [
		compact({ restored: true, ...response, ...extra, restoredShipment: restored, restoredItems }),
	];
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (check, read) => {
		const given = SELECTORS.map(([key, name, displayName]) => [
			key,
			check.optionalText(read(name), displayName),
		]);
		const selectors = compact(Object.fromEntries(given) as IDataObject) as ShipmentSelectors;
		if (Object.keys(selectors).length === 0) {
			check.fail(
				'Shipment ID',
				'is empty, and so are Tracking Number and Carrier Shipment ID: give at least one',
			);
		}
		const body = compact({
			store_id: check.text(read('storeId'), 'Store ID'),
			order_number: check.text(read('orderNumber'), 'Order Number'),
			...selectors,
			no_refresh: check.optionalBoolean(read('noRefresh', false), 'Skip Cache Refresh'),
		});
		// Read before the call: failing after it would fail an item whose restore was applied.
		const split = check.optionalBoolean(
			read('options.splitShipments', false),
			'Split Into Shipments',
		);
		const response = await requestForItem.call(this, 'shipmentRestoreInventory', body, check);
		return restoreOutput(response, selectors, split === true);
	});
}
