import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { optionsCollection, requiredText } from '../helpers/descriptions';
import { answerLacks, forEachItem, requestForItem, type ReadParameter } from '../helpers/perItem';
import { isPlainObject } from '../../shared/objects';
import { compact, ItemValidator } from '../helpers/validation';
import { isIdLike } from '../../transport/answers';

const amount = (displayName: string, name: string, description?: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description,
});
const text = (displayName: string, name: string, rows?: number): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	typeOptions: rows ? { rows } : undefined,
	default: '',
});
const unitless = "In the service's unit (it names none)";

const ADDITIONAL_FIELDS: INodeProperties[] = [
	{
		displayName: 'Active',
		name: 'active',
		type: 'boolean',
		default: true,
		description: 'Whether the kit is active',
	},
	amount('Cost', 'cost'),
	text('Description', 'description', 3),
	text('Fulfillment SKU', 'fulfillmentSku'),
	text('Image URL', 'image'),
	amount('Lag Time', 'lagTime', unitless),
	text('Listing SKU', 'listingSku'),
	text('Notes', 'notes', 3),
	amount('Retail Price', 'retail'),
	amount('Sale Price', 'sale'),
	amount('Weight', 'weight', unitless),
	amount('Wholesale Price', 'wholesale'),
];
/** The service's names of form fields: lag_time for lagTime. */
const serviceName = (name: string): string => name.replace(/[A-Z]/g, '_$&').toLowerCase();
const withServiceNames = (fields: IDataObject): IDataObject =>
	Object.fromEntries(Object.entries(fields).map(([key, value]) => [serviceName(key), value]));
const OPTIONAL_FIELDS = [
	'barcodes',
	'tags',
	...ADDITIONAL_FIELDS.map((field) => serviceName(field.name)),
];

export const description: INodeProperties[] = [
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		options: [
			{ name: 'Form Fields', value: 'fields' },
			{ name: 'JSON', value: 'json', description: 'The whole kit "data" object' },
		],
		default: 'fields',
	},
	...updateDisplayOptions({ show: { inputMode: ['fields'] } }, [
		requiredText('Name', 'name', 'The name of the kit', 'e.g. Starter Bundle'),
		requiredText('SKU', 'sku', 'The SKU of the kit', 'e.g. KIT-STARTER-01'),
		{
			displayName: 'Component Items',
			name: 'kitItems',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Component Item',
			default: {},
			options: [
				{
					displayName: 'Item',
					name: 'item',
					values: [
						{
							...text('Item ID', 'itemId'),
							description: 'The item_id of the component; or give its SKU',
						},
						text('SKU', 'sku'),
						{ ...amount('Quantity', 'quantity', 'How many one kit contains'), default: 1 },
						{ ...text('Type', 'type'), description: 'Sent as given: the service lists no types' },
					],
				},
			],
		},
		...['Barcode', 'Tag'].map((entry): INodeProperties => ({
			displayName: `${entry}s`,
			name: `${entry.toLowerCase()}s`,
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: `Add ${entry}` },
			default: [],
		})),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: ADDITIONAL_FIELDS,
		},
	]),
	{
		displayName: 'Kit Data (JSON)',
		name: 'kitData',
		type: 'json',
		required: true,
		default: '{\n  "name": "",\n  "sku": "",\n  "items": [{ "item_id": "", "quantity": 1 }]\n}',
		description: `The kit: name, sku and items [{item_id or sku, quantity above 0, type}]. Optional: ${OPTIONAL_FIELDS.join(', ')}.`,
		displayOptions: { show: { inputMode: ['json'] } },
	},
	optionsCollection(),
];

function checkComponent(check: ItemValidator, component: unknown, field: string): IDataObject {
	if (!isPlainObject(component))
		check.fail(field, 'must be an object with item_id, sku, quantity and type');
	check.knownKeys(
		component,
		['item_id', 'sku', 'quantity', 'type'],
		`${field}.`,
		'a kit component',
	);
	const checked = compact({
		item_id: check.optionalText(component.item_id, `${field}.item_id`),
		sku: check.optionalText(component.sku, `${field}.sku`),
		quantity: check.optionalNumber(component.quantity, `${field}.quantity`),
		type: check.optionalText(component.type, `${field}.type`),
	});
	if (checked.item_id === undefined && checked.sku === undefined)
		check.fail(`${field}.item_id`, 'is required unless the sku is given');
	if (!checked.quantity) check.fail(`${field}.quantity`, 'must be a number greater than 0');
	return checked;
}

function checkKit(check: ItemValidator, data: IDataObject, prefix: string): IDataObject {
	check.knownKeys(data, ['name', 'sku', 'items', ...OPTIONAL_FIELDS], prefix, 'a kit');
	const kit: IDataObject = {
		name: check.text(data.name, `${prefix}name`),
		sku: check.text(data.sku, `${prefix}sku`),
	};
	for (const { name, type } of ADDITIONAL_FIELDS) {
		const field = serviceName(name);
		const read: (value: unknown, at: string) => string | number | boolean | undefined =
			type === 'number'
				? check.optionalNumber
				: type === 'boolean'
					? check.optionalBoolean
					: check.optionalText;
		kit[field] = read.call(check, data[field], `${prefix}${field}`);
	}
	for (const field of ['barcodes', 'tags'])
		kit[field] = check.textList(data[field], `${prefix}${field}`);
	if (data.items !== undefined && data.items !== null) {
		const components = check.list(data.items, `${prefix}items`);
		kit.items = components.map((component, index) =>
			checkComponent(check, component, `${prefix}items[${index}]`),
		);
	}
	return compact(kit);
}

function kitFromForm(read: ReadParameter): IDataObject {
	const rows = read('kitItems.item', []) as IDataObject[];
	const data: IDataObject = {
		name: read('name'),
		sku: read('sku'),
		barcodes: read('barcodes', []),
		tags: read('tags', []),
	};
	if (rows.length > 0) data.items = rows.map(withServiceNames);
	return { ...data, ...withServiceNames(read('additionalFields', {}) as IDataObject) };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (check, read) => {
		const fromJson = check.oneOf(read('inputMode'), 'Input Mode', ['fields', 'json']) === 'json';
		const data = fromJson ? check.object(read('kitData'), 'Kit Data (JSON)') : kitFromForm(read);
		const kit = checkKit(check, data, fromJson ? 'data.' : '');
		const response = await requestForItem.call(this, 'kitCreate', { data: kit }, check);
		const missing = ['_id', 'new_kit_id'].filter((field) => !isIdLike(response[field]));
		return {
			...response,
			...answerLacks('created the kit', missing, `Find it by its SKU (${String(kit.sku)}).`),
		};
	});
}
