import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { optionsCollection } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/execution';
import { isPlainObject } from '../../shared/objects';
import { compact, ItemValidator } from '../helpers/validation';
import { missingFromKitAnswer } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		options: [
			{ name: 'Form Fields', value: 'fields', description: 'Fill in the kit field by field' },
			{ name: 'JSON', value: 'json', description: 'Give the whole kit "data" object as JSON' },
		],
		default: 'fields',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Starter Bundle',
		description: 'The name of the kit',
		displayOptions: { show: { inputMode: ['fields'] } },
	},
	{
		displayName: 'SKU',
		name: 'sku',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. KIT-STARTER-01',
		description: 'The SKU of the kit itself',
		displayOptions: { show: { inputMode: ['fields'] } },
	},
	{
		displayName: 'Component Items',
		name: 'kitItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Component Item',
		default: {},
		description: 'The items the kit is made of, each with its quantity',
		displayOptions: { show: { inputMode: ['fields'] } },
		options: [
			{
				displayName: 'Item',
				name: 'item',
				values: [
					{
						displayName: 'Item ID',
						name: 'itemId',
						type: 'string',
						default: '',
						description: 'The identifier of the component item (item_id)',
					},
					{
						displayName: 'SKU',
						name: 'sku',
						type: 'string',
						default: '',
						description: 'The SKU of the component item',
					},
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 1,
						description: 'How many of this item one kit contains',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'string',
						default: '',
						description: 'The component type, sent as given (the service does not publish its values)',
					},
				],
			},
		],
	},
	{
		displayName: 'Barcodes',
		name: 'barcodes',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Barcode' },
		default: [],
		description: 'Barcodes of the kit',
		displayOptions: { show: { inputMode: ['fields'] } },
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Tag' },
		default: [],
		description: 'Tag identifiers to attach to the kit',
		displayOptions: { show: { inputMode: ['fields'] } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { inputMode: ['fields'] } },
		options: [
			{
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description: 'Whether the kit is active',
			},
			{
				displayName: 'Cost',
				name: 'cost',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
			},
			{ displayName: 'Fulfillment SKU', name: 'fulfillmentSku', type: 'string', default: '' },
			{
				displayName: 'Image URL',
				name: 'image',
				type: 'string',
				default: '',
				description: 'Address of the kit image',
			},
			{
				displayName: 'Lag Time',
				name: 'lagTime',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Lag time as the service counts it (the service gives no unit)',
			},
			{ displayName: 'Listing SKU', name: 'listingSku', type: 'string', default: '' },
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
			},
			{
				displayName: 'Retail Price',
				name: 'retail',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
			},
			{
				displayName: 'Sale Price',
				name: 'sale',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
			},
			{
				displayName: 'Weight',
				name: 'weight',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Weight as the service counts it (the service gives no unit)',
			},
			{
				displayName: 'Wholesale Price',
				name: 'wholesale',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
			},
		],
	},
	{
		displayName: 'Kit Data (JSON)',
		name: 'kitData',
		type: 'json',
		required: true,
		default: '{\n  "name": "",\n  "sku": "",\n  "items": [{ "item_id": "", "quantity": 1 }]\n}',
		description:
			'The kit as a JSON object with name, sku and items [{item_id, sku, quantity, type}]; each item needs an item_id or a sku, and a quantity above 0. Optional: barcodes, tags, listing_sku, fulfillment_sku, cost, retail, wholesale, sale, active, image, description, notes, weight, lag_time.',
		displayOptions: { show: { inputMode: ['json'] } },
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['kit'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

const TEXT_FIELDS = ['name', 'sku', 'listing_sku', 'fulfillment_sku', 'image', 'description', 'notes'];
const NUMBER_FIELDS = ['cost', 'retail', 'wholesale', 'sale', 'weight', 'lag_time'];
const KNOWN_FIELDS = [...TEXT_FIELDS, ...NUMBER_FIELDS, 'items', 'barcodes', 'tags', 'active'];
const COMPONENT_FIELDS = ['item_id', 'sku', 'quantity', 'type'];

/** Form field names mapped to the service's field names. */
const FORM_TO_SERVICE: Record<string, string> = {
	listingSku: 'listing_sku',
	fulfillmentSku: 'fulfillment_sku',
	lagTime: 'lag_time',
};

function checkComponent(check: ItemValidator, component: unknown, field: string): IDataObject {
	if (!isPlainObject(component)) check.fail(field, 'must be an object with item_id, sku, quantity and type');
	check.knownKeys(component, COMPONENT_FIELDS, `${field}.`, 'a kit component');
	const checked = compact({
		item_id: check.optionalText(component.item_id, `${field}.item_id`),
		sku: check.optionalText(component.sku, `${field}.sku`),
		quantity: check.optionalNumber(component.quantity, `${field}.quantity`),
		type: check.optionalText(component.type, `${field}.type`),
	});
	if (checked.item_id === undefined && checked.sku === undefined) {
		check.fail(`${field}.item_id`, 'is required (or give the sku) so the service knows which item is meant');
	}
	if (checked.quantity === undefined || checked.quantity === 0) {
		check.fail(`${field}.quantity`, 'must be a number greater than 0');
	}
	return checked;
}

/**
 * Checks a kit and returns it in the shape sent: texts trimmed, numbers as numbers, lists as lists. Unknown fields
 * are refused at every level (kit and component), because a misspelt field would otherwise be dropped unnoticed.
 */
function checkKit(check: ItemValidator, data: IDataObject, prefix: string): IDataObject {
	check.knownKeys(data, KNOWN_FIELDS, prefix, 'a kit');
	const kit: IDataObject = {
		name: check.text(data.name, `${prefix}name`),
		sku: check.text(data.sku, `${prefix}sku`),
	};
	for (const field of TEXT_FIELDS.slice(2)) kit[field] = check.optionalText(data[field], `${prefix}${field}`);
	for (const field of NUMBER_FIELDS) kit[field] = check.optionalNumber(data[field], `${prefix}${field}`);
	kit.active = check.optionalBoolean(data.active, `${prefix}active`);
	kit.barcodes = check.textList(data.barcodes, `${prefix}barcodes`);
	kit.tags = check.textList(data.tags, `${prefix}tags`);
	if (data.items !== undefined && data.items !== null) {
		const components = check.list(data.items, `${prefix}items`);
		kit.items = components.map((component, index) => checkComponent(check, component, `${prefix}items[${index}]`));
	}
	return compact(kit);
}

function kitFromForm(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const rows = this.getNodeParameter('kitItems.item', itemIndex, []) as IDataObject[];
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const data: IDataObject = {
		name: this.getNodeParameter('name', itemIndex, ''),
		sku: this.getNodeParameter('sku', itemIndex, ''),
		barcodes: this.getNodeParameter('barcodes', itemIndex, []),
		tags: this.getNodeParameter('tags', itemIndex, []),
	};
	if (rows.length > 0) {
		data.items = rows.map((row) => ({
			item_id: row.itemId,
			sku: row.sku,
			quantity: row.quantity,
			type: row.type,
		}));
	}
	for (const [key, value] of Object.entries(additional)) data[FORM_TO_SERVICE[key] ?? key] = value;
	return data;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const check = new ItemValidator(this.getNode(), itemIndex);
		const inputMode = check.oneOf(this.getNodeParameter('inputMode', itemIndex), 'Input Mode', ['fields', 'json']);
		const fromJson = inputMode === 'json';
		const data = fromJson
			? check.object(this.getNodeParameter('kitData', itemIndex), 'Kit Data (JSON)')
			: kitFromForm.call(this, itemIndex);
		const kit = checkKit(check, data, fromJson ? 'data.' : '');
		const response = await requestForItem.call(this, 'kitCreate', { data: kit }, itemIndex);
		// The kit was created (200): an answer without its ids still leaves the item, saying what it lacks.
		const missing = missingFromKitAnswer(response);
		if (missing.length === 0) return response;
		return {
			...response,
			missingFromAnswer: missing,
			notice: `The service created the kit (it answered 200), but its answer lacks ${missing.join(' and ')}. Find the kit by its SKU (${String(kit.sku)}) on the service; do not run this item again.`,
		};
	});
}
