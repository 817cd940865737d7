import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../transport';
import { optionsCollection } from '../helpers/descriptions';
import { forEachItem } from '../helpers/perItem';
import { parameterForAllItems } from '../helpers/parameterForAllItems';
import { ItemValidator, MAX_TIMEOUT_MS } from '../helpers/validation';
import type { BatchGrowthReport } from '../helpers/batchGrowth';
import type { CallsInFlightReport } from '../helpers/callsInFlight';
import { lookUpOrders, type LookUpSettings } from './bulkLookup';
import { itemOutput, OUTPUT_MODES, outputFor, UNMATCHED_BEHAVIOURS, type OutputSettings } from './output';
import { collectReferences, readLookUp, STORE_AND_ORDER_NUMBER_VALUES } from './references';
import { simplifyProperty } from './simplify';

/** Max Batch Size when the options leave it out; raised to Batch Size when that is larger. */
const DEFAULT_MAX_BATCH_SIZE = 1000;

const properties: INodeProperties[] = [
	{
		displayName: 'Look Up By',
		name: 'lookUpBy',
		type: 'options',
		noDataExpression: true,
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
		placeholder: 'e.g. 1002',
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
		noDataExpression: true,
		required: true,
		default: 'store_id',
		description: 'The name of the input item field holding the store ID (use dots for nested fields, e.g. order.store)',
		displayOptions: { show: { lookUpBy: ['itemFields'] } },
	},
	{
		displayName: 'Order Number Field',
		name: 'orderNumberField',
		type: 'string',
		noDataExpression: true,
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
	simplifyProperty,
	optionsCollection([
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			noDataExpression: true,
			typeOptions: { minValue: 1, maxValue: 10000 },
			default: 100,
			description:
				'How many order references to send in one call. References of all input items are collected, duplicates dropped, and sent in calls of this size.',
		},
		{
			displayName: 'Calls in Flight',
			name: 'callsInFlight',
			type: 'number',
			noDataExpression: true,
			typeOptions: { minValue: 0, maxValue: 16 },
			default: 0,
			description:
				'How many bulk calls may run at the same time. 0 is Auto: the node raises the number while calls stay as fast as the fastest and the service answers well, and lowers it at once on a 429, a 5xx or a time-out, up to Max Calls in Flight. A number from 1 to 16 keeps it fixed.',
		},
		{
			displayName: 'Max Calls in Flight',
			name: 'maxCallsInFlight',
			type: 'number',
			noDataExpression: true,
			typeOptions: { minValue: 1, maxValue: 64 },
			default: 16,
			description: 'With Calls in Flight 0 (Auto): the most bulk calls the node keeps running at the same time',
		},
		{
			// Shown beside Calls in Flight like Max Calls in Flight: a condition on Calls in Flight would hide it in the
			// default case, where Calls in Flight is not added to the options at all.
			displayName: 'Max Batch Size',
			name: 'maxBatchSize',
			type: 'number',
			noDataExpression: true,
			typeOptions: { minValue: 1, maxValue: 10000 },
			default: DEFAULT_MAX_BATCH_SIZE,
			description:
				'With Calls in Flight 0 (Auto): the largest batch the node may grow to when calls are slow and no more can run at the same time. Batches are doubled from Batch Size while that makes each reference faster, and never above what the service accepts. Must not be below Batch Size.',
		},
		{
			displayName: 'Rate Limit Wait (Seconds)',
			name: 'rateLimitWait',
			type: 'number',
			noDataExpression: true,
			typeOptions: { minValue: 0, maxValue: 3600 },
			default: 60,
			description:
				"The longest the lookup waits in all when the service answers 429 (rate limit). The service's Retry-After is honoured, and while one call waits no other call of the run is sent.",
		},
		{
			displayName: 'If an Order Is Not Found',
			name: 'unmatched',
			type: 'options',
			noDataExpression: true,
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
			noDataExpression: true,
			// What the whole record is made of; the compact item of Simplify has one shape.
			displayOptions: { show: { '/simplify': [false] } },
			options: [
				{
					name: 'Order Only',
					value: 'order',
					description: 'The order record; barcode_generation_failed is added to it when the service reports it',
				},
				{
					name: 'Whole Result Entry',
					value: 'entry',
					description: 'The whole result entry: order, metrics, barcode_generation_failed (an entry that is the order record itself is put under order)',
				},
			],
			default: 'order',
		},
	], { forAllItems: true }),
];

const displayOptions = { show: { resource: ['order'], operation: ['lookUp'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Said once per run: the user can set Batch Size so that later runs need no refused calls. */
function reportBatchSize(this: IExecuteFunctions, asked: number, used: number): void {
	const message = `The service refused ${asked} order references in one call; batches of ${used} went through and were used for the rest of this run. Set Batch Size (in Options) to ${used} to save the refused calls.`;
	this.logger.warn(message, { node: this.getNode().name });
	this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

/** Said when Auto had room to move (more calls than it starts with): what the run settled on, for a fixed setting. */
function reportCallsInFlight(this: IExecuteFunctions, report: CallsInFlightReport): void {
	const causes = [
		report.rateLimited ? 'the service answered 429 (rate limit), so it kept below that for the rest of the run' : '',
		report.failures > 0 ? `${report.failures} call(s) failed or timed out, and each lowered it` : '',
	].filter(Boolean);
	const message = `Calls in Flight (Auto) settled on ${report.settledOn} at a time in this run (it reached ${report.peak}; Max Calls in Flight is ${report.cap})${causes.length > 0 ? `: ${causes.join('; ')}` : ''}. Set Calls in Flight (in Options) to a number to keep it fixed.`;
	this.addExecutionHints({ message, type: 'info', location: 'outputPane' });
}

/** Said when Auto grew the batches: the size the run kept and why it stopped there, for a setting that starts there. */
function reportBatchGrowth(this: IExecuteFunctions, report: BatchGrowthReport): void {
	const stop = {
		refused: `the service refused a batch of ${report.triedSize}, and batches of ${report.grewTo} went through`,
		notFaster: `batches of ${report.triedSize} were not faster per reference`,
		max: `that is Max Batch Size`,
		other: 'the references left were too few to fill the calls in flight with larger batches (or Auto had room for more calls again)',
	}[report.stoppedBy];
	const message = `Batch Size grew from ${report.from} to ${report.grewTo} in this run: calls took about as long with more references in each, and Calls in Flight (Auto) could run no more at the same time. It stopped there because ${stop}. Set Batch Size (in Options) to ${report.grewTo} to start there.`;
	this.addExecutionHints({ message, type: 'info', location: 'outputPane' });
}

/**
 * The options that shape the calls and the output of the whole run, read once (parameterForAllItems.ts: an expression that
 * gives items different values stops the run, naming the option).
 */
function readSettings(this: IExecuteFunctions, itemCount: number): { lookUp: LookUpSettings; output: OutputSettings } {
	const check = new ItemValidator(this.getNode(), 0);
	const option = (name: string, displayName: string, fallback: unknown) =>
		parameterForAllItems.call(this, `options.${name}`, displayName, fallback, itemCount);
	const output: OutputSettings = {
		unmatched: check.oneOf(option('unmatched', 'If an Order Is Not Found', 'foundFalse'), 'If an Order Is Not Found', UNMATCHED_BEHAVIOURS),
		output: check.oneOf(option('output', 'Output', 'order'), 'Output', OUTPUT_MODES),
	};
	// Simplify's compact item replaces the Output choice, which the editor only shows when Simplify is off.
	if (check.optionalBoolean(parameterForAllItems.call(this, 'simplify', 'Simplify', true, itemCount), 'Simplify') ?? true) {
		output.output = 'simple';
	}
	const callsInFlight = check.count(option('callsInFlight', 'Calls in Flight', 0), 'Calls in Flight', 0, 16);
	const batchSize = check.count(option('batchSize', 'Batch Size', 100), 'Batch Size', 1, 10_000);
	const lookUp: LookUpSettings = {
		batchSize,
		callsInFlight: callsInFlight === 0 ? 'auto' : callsInFlight,
		maxCallsInFlight: check.count(option('maxCallsInFlight', 'Max Calls in Flight', 16), 'Max Calls in Flight', 1, 64),
		maxBatchSize: readMaxBatchSize(check, option('maxBatchSize', 'Max Batch Size', null), batchSize, callsInFlight === 0),
		timeoutMs: check.count(option('timeout', 'Timeout', DEFAULT_TIMEOUT_MS), 'Timeout', 1, MAX_TIMEOUT_MS),
		rateLimitWaitMs:
			check.count(option('rateLimitWait', 'Rate Limit Wait (Seconds)', 60), 'Rate Limit Wait (Seconds)', 0, 3600) * 1000,
	};
	return { lookUp, output };
}

/**
 * Max Batch Size as given, or the default (at least Batch Size). Given below Batch Size with Auto, it is an error:
 * the node cannot honour both, and sending less than Batch Size would undo a setting the user chose.
 */
function readMaxBatchSize(check: ItemValidator, given: unknown, batchSize: number, auto: boolean): number {
	// Not set: n8n gives the fallback, null (it throws for a parameter it gets as undefined).
	if (given === null) return Math.max(DEFAULT_MAX_BATCH_SIZE, batchSize);
	const maxBatchSize = check.count(given, 'Max Batch Size', 1, 10_000);
	if (auto && maxBatchSize < batchSize) {
		check.fail('Max Batch Size', `must not be below Batch Size (${batchSize}), got ${maxBatchSize}`);
	}
	return Math.max(maxBatchSize, batchSize);
}

/**
 * Collects the references of ALL input items (references.ts), sends each distinct one once (bulkLookup.ts), and
 * gives every input item the orders it asked for (output.ts).
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const lookUp = readLookUp.call(this, items.length);
	const settings = readSettings.call(this, items.length);
	const { byItem, inputErrors, asked } = collectReferences.call(this, items, lookUp);

	const results = await lookUpOrders.call(this, asked, settings.lookUp, (entry) => outputFor(entry, settings.output.output));
	if (results.batchSizeUsed !== undefined) reportBatchSize.call(this, settings.lookUp.batchSize, results.batchSizeUsed);
	if (results.callsInFlight?.moved) reportCallsInFlight.call(this, results.callsInFlight);
	if (results.batchGrowth) reportBatchGrowth.call(this, results.batchGrowth);

	return await forEachItem.call(this, items, (itemIndex) => {
		if (inputErrors.has(itemIndex)) throw inputErrors.get(itemIndex);
		return itemOutput.call(this, itemIndex, byItem.get(itemIndex) ?? [], results, settings.output);
	});
}
