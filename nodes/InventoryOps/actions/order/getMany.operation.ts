import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, inventoryOpsApiRequest } from '../../transport';
import { chunk, runWithConcurrency } from '../helpers/concurrency';
import { optionsCollection } from '../helpers/descriptions';
import { appendAll, asNodeError, failedItemOutput, pairedOutput } from '../helpers/execution';
import { isPlainObject } from '../../shared/objects';
import { ItemValidator, MAX_TIMEOUT_MS } from '../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Look Up By',
		name: 'lookUpBy',
		type: 'options',
		options: [
			{
				name: 'Store ID and Order Number',
				value: 'fields',
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
		default: 'fields',
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
		displayOptions: { show: { lookUpBy: ['fields'] } },
	},
	{
		displayName: 'Order Number',
		name: 'orderNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: 'The number of the order within that store',
		displayOptions: { show: { lookUpBy: ['fields'] } },
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

const displayOptions = { show: { resource: ['order'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface OrderReference extends IDataObject {
	store_id: string;
	order_number: string;
}

interface ResultEntry extends IDataObject {
	order?: IDataObject;
	metrics?: IDataObject;
	barcode_generation_failed?: IDataObject;
}

const UNMATCHED_BEHAVIOURS = ['foundFalse', 'skip', 'error'] as const;
type UnmatchedBehaviour = (typeof UNMATCHED_BEHAVIOURS)[number];

/** (store_id, order_number) as one map key; the service's result order says nothing about which is which. */
function referenceKey(storeId: unknown, orderNumber: unknown): string {
	return JSON.stringify([String(storeId), String(orderNumber)]);
}

/** How each item names its orders; field names are read once for the run, like the other run-wide settings. */
type LookUp = { by: 'fields' | 'list' } | { by: 'itemFields'; storeIdField: string; orderNumberField: string };

function readLookUp(this: IExecuteFunctions): LookUp {
	const check = new ItemValidator(this.getNode(), 0);
	const by = check.oneOf(this.getNodeParameter('lookUpBy', 0), 'Look Up By', ['fields', 'itemFields', 'list']);
	if (by !== 'itemFields') return { by };
	return {
		by,
		storeIdField: check.text(this.getNodeParameter('storeIdField', 0, 'store_id'), 'Store ID Field'),
		orderNumberField: check.text(this.getNodeParameter('orderNumberField', 0, 'order_number'), 'Order Number Field'),
	};
}

function fieldValue(json: IDataObject, path: string): unknown {
	if (path in json) return json[path];
	let value: unknown = json;
	for (const part of path.split('.')) value = isPlainObject(value) ? value[part] : undefined;
	return value;
}

function readReferences(
	this: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	lookUp: LookUp,
): OrderReference[] {
	// Typed explicitly so that TypeScript treats check.fail() as the end of the path.
	const check: ItemValidator = new ItemValidator(this.getNode(), itemIndex);
	if (lookUp.by === 'itemFields') {
		return [
			{
				store_id: check.text(fieldValue(item.json, lookUp.storeIdField), lookUp.storeIdField),
				order_number: check.text(fieldValue(item.json, lookUp.orderNumberField), lookUp.orderNumberField),
			},
		];
	}
	if (lookUp.by === 'fields') {
		return [
			{
				store_id: check.text(this.getNodeParameter('storeId', itemIndex, ''), 'Store ID'),
				order_number: check.text(this.getNodeParameter('orderNumber', itemIndex, ''), 'Order Number'),
			},
		];
	}
	const raw = this.getNodeParameter('references', itemIndex, '[]');
	const parsed = isPlainObject(raw) ? [raw] : check.list(raw, 'References');
	if (parsed.length === 0) check.fail('References', 'must list at least one order reference');
	return parsed.map((entry, index) => {
		const field = `References[${index}]`;
		if (!isPlainObject(entry)) check.fail(field, 'must be an object with store_id and order_number');
		return {
			store_id: check.text(entry.store_id, `${field}.store_id`),
			order_number: check.text(entry.order_number, `${field}.order_number`),
		};
	});
}

/**
 * A new top-level object per output item, so items that asked for the same order never share one object that a
 * later node could change for both (nested parts are shared, as n8n shares them between branches).
 */
function outputFor(entry: ResultEntry, mode: string): IDataObject {
	if (mode === 'entry') return { ...entry };
	const order = { ...(entry.order ?? {}) };
	// The order record has no such field, so adding it cannot collide, and a failure is never hidden.
	if (entry.barcode_generation_failed !== undefined) {
		order.barcode_generation_failed = entry.barcode_generation_failed;
	}
	return order;
}

function unexpectedAnswer(this: IExecuteFunctions, itemIndex: number): NodeApiError {
	return new NodeApiError(this.getNode(), { endpoint: '/order/get_single_bulk' } as JsonObject, {
		message: 'The service answered the bulk order lookup with something other than a list',
		itemIndex,
	});
}

/**
 * Collects the references of ALL input items, sends each distinct one once, in batches with a bounded number of
 * calls in flight, and maps every returned order back to each item that asked for it by (store_id, order_number).
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	// These settings shape the calls and the output of the whole run, so they are read once, from the first item
	// (reading them per item costs more than the lookups themselves on large inputs).
	const lookUp = readLookUp.call(this);
	const check = new ItemValidator(this.getNode(), 0);
	const unmatchedOption = this.getNodeParameter('options.unmatched', 0, 'foundFalse');
	const unmatched = check.oneOf<UnmatchedBehaviour>(unmatchedOption, 'If an Order Is Not Found', UNMATCHED_BEHAVIOURS);
	const output = check.oneOf(this.getNodeParameter('options.output', 0, 'order'), 'Output', ['order', 'entry']);
	const batchSize = check.count(this.getNodeParameter('options.batchSize', 0, 100), 'Batch Size', 1, 10_000);
	const callsInFlight = check.count(this.getNodeParameter('options.callsInFlight', 0, 4), 'Calls in Flight', 1, 16);
	const timeoutMs = check.count(this.getNodeParameter('options.timeout', 0, DEFAULT_TIMEOUT_MS), 'Timeout', 1, MAX_TIMEOUT_MS);

	const referencesByItem = new Map<number, OrderReference[]>();
	const inputErrors = new Map<number, unknown>();
	const askedBy = new Map<string, { reference: OrderReference; itemIndexes: number[] }>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const references = readReferences.call(this, items[itemIndex], itemIndex, lookUp);
			referencesByItem.set(itemIndex, references);
			for (const reference of references) {
				const key = referenceKey(reference.store_id, reference.order_number);
				const asked = askedBy.get(key) ?? { reference, itemIndexes: [] };
				// Items are read in order, so a repeat within this item can only be the last entry.
				if (asked.itemIndexes.at(-1) !== itemIndex) asked.itemIndexes.push(itemIndex);
				askedBy.set(key, asked);
			}
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError.call(this, error, itemIndex);
			inputErrors.set(itemIndex, error);
		}
	}

	const found = new Map<string, ResultEntry>();
	const batchErrors = new Map<string, unknown>();
	let stoppingError: unknown;
	await runWithConcurrency(
		chunk([...askedBy.entries()], batchSize),
		callsInFlight,
		async (batch) => {
			const firstAsker = batch[0][1].itemIndexes[0];
			const wanted = new Set(batch.map(([key]) => key));
			try {
				const answer = await inventoryOpsApiRequest.call(
					this,
					'orderGetSingleBulk',
					{ order: batch.map(([, asked]) => asked.reference) },
					{ itemIndex: firstAsker, timeoutMs },
				);
				if (!Array.isArray(answer)) throw unexpectedAnswer.call(this, firstAsker);
				for (const entry of answer as unknown[]) {
					if (!isPlainObject(entry) || !isPlainObject(entry.order)) continue;
					const key = referenceKey(entry.order.store_id, entry.order.order_number);
					if (wanted.has(key) && !found.has(key)) found.set(key, entry as ResultEntry);
				}
			} catch (error) {
				if (!this.continueOnFail()) stoppingError ??= error;
				for (const key of wanted) batchErrors.set(key, error);
			}
		},
		() => stoppingError !== undefined,
	);
	if (stoppingError !== undefined) throw stoppingError;

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			if (inputErrors.has(itemIndex)) throw inputErrors.get(itemIndex);
			const references = referencesByItem.get(itemIndex) ?? [];
			const failedKey = references
				.map((reference) => referenceKey(reference.store_id, reference.order_number))
				.find((key) => batchErrors.has(key));
			if (failedKey !== undefined) throw batchErrors.get(failedKey);

			const results: IDataObject[] = [];
			for (const reference of references) {
				const key = referenceKey(reference.store_id, reference.order_number);
				const entry = found.get(key);
				if (entry !== undefined) {
					results.push(outputFor(entry, output));
				} else if (unmatched === 'foundFalse') {
					results.push({ found: false, ...reference });
				} else if (unmatched === 'error') {
					throw new NodeOperationError(
						this.getNode(),
						`Item ${itemIndex}: no order found for store_id '${reference.store_id}' and order_number '${reference.order_number}'`,
						{
							itemIndex,
							description:
								'The service returned no order for this pair. Check both values, or set "If an Order Is Not Found" to output an item instead.',
						},
					);
				}
			}
			appendAll(returnData, pairedOutput.call(this, results, itemIndex));
		} catch (error) {
			appendAll(returnData, failedItemOutput.call(this, error, itemIndex));
		}
	}
	return returnData;
}
