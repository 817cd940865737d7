import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../helpers/descriptions';

/**
 * "Look Up By: Store ID and Order Number" used to be stored as 'fields', which kit's Input Mode uses for form
 * fields. Workflows saved with the old value still show the two fields and run the same way (see CHANGELOG.md).
 */
export const STORE_AND_ORDER_NUMBER_VALUES = ['storeAndOrderNumber', 'fields'];

export const properties: INodeProperties[] = [
	{
		displayName: 'Look Up By',
		name: 'lookUpBy',
		type: 'options',
		options: [
			{
				name: 'Store ID and Order Number',
				value: 'storeAndOrderNumber',
				description: 'Each input item names one order',
			},
			{
				name: 'Fields of Each Input Item',
				value: 'itemFields',
				description:
					'Each input item carries the store ID and order number in fields you name. Fastest for many items: no expression is evaluated per item.',
			},
			{
				name: 'List of References (JSON)',
				value: 'list',
				description: 'Each input item gives a list of {store_id, order_number} pairs',
			},
		],
		default: 'storeAndOrderNumber',
		description: 'How the input items name the orders to look up',
	},
	{
		displayName: 'Store ID',
		name: 'storeId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. store_1',
		description: 'The identifier of the store the order belongs to',
		displayOptions: { show: { lookUpBy: STORE_AND_ORDER_NUMBER_VALUES } },
	},
	{
		displayName: 'Order Number',
		name: 'orderNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: 'The number of the order within that store',
		displayOptions: { show: { lookUpBy: STORE_AND_ORDER_NUMBER_VALUES } },
	},
	{
		displayName: 'Store ID Field',
		name: 'storeIdField',
		type: 'string',
		required: true,
		default: 'store_id',
		description: 'The name of the input item field holding the store ID (use dots for nested fields, e.g. order.store)',
		displayOptions: { show: { lookUpBy: ['itemFields'] } },
	},
	{
		displayName: 'Order Number Field',
		name: 'orderNumberField',
		type: 'string',
		required: true,
		default: 'order_number',
		description: 'The name of the input item field holding the order number (use dots for nested fields)',
		displayOptions: { show: { lookUpBy: ['itemFields'] } },
	},
	{
		displayName: 'References',
		name: 'references',
		type: 'json',
		required: true,
		default: '[\n  { "store_id": "", "order_number": "" }\n]',
		description: 'A JSON array of objects, each with "store_id" and "order_number" (text)',
		displayOptions: { show: { lookUpBy: ['list'] } },
	},
	optionsCollection([
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 10000 },
			default: 100,
			description:
				'How many order references to send in one call. References of all input items are collected, duplicates dropped, and sent in calls of this size.',
		},
		{
			displayName: 'Calls in Flight',
			name: 'callsInFlight',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 16 },
			default: 4,
			description: 'How many bulk calls may run at the same time',
		},
		{
			displayName: 'Rate Limit Wait (Seconds)',
			name: 'rateLimitWait',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 3600 },
			default: 60,
			description:
				"The longest the lookup waits in all when the service answers 429 (rate limit). The service's Retry-After is honoured, and while one call waits no other call of the run is sent.",
		},
		{
			displayName: 'If an Order Is Not Found',
			name: 'unmatched',
			type: 'options',
			options: [
				{
					name: 'Output Item with Found: False',
					value: 'foundFalse',
					description: 'Output {found: false, store_id, order_number} for the reference',
				},
				{
					name: 'Output Nothing',
					value: 'skip',
					description: 'The reference gives no output item',
				},
				{
					name: 'Fail the Item',
					value: 'error',
					description: 'The input item fails with an error naming the reference',
				},
			],
			default: 'foundFalse',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'Order Only',
					value: 'order',
					description: 'The order record; barcode_generation_failed is added to it when the service reports it',
				},
				{
					name: 'Whole Result Entry',
					value: 'entry',
					description: 'The entry as the service returns it: order, metrics, barcode_generation_failed',
				},
			],
			default: 'order',
		},
	]),
];
