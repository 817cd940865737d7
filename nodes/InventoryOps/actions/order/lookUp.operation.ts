import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../transport';
import { optionsCollection } from '../helpers/descriptions';
import { forEachItem } from '../helpers/execution';
import { parameterForAllItems } from '../helpers/parameterForAllItems';
import { ItemValidator, MAX_TIMEOUT_MS } from '../helpers/validation';
import { lookUpOrders, type LookUpResults, type LookUpSettings } from './bulkLookup';
import { itemOutput, OUTPUT_MODES, outputFor, simplifyProperty, UNMATCHED_BEHAVIOURS, type OutputSettings } from './output';
import { collectReferences, readLookUp } from './references';

/** The number options: display name, lowest, highest, default, description. */
const NUMBER_OPTIONS: Record<string, [string, number, number, number, string]> = {
	batchSize: [
		'Batch Size', 1, 10_000, 100,
		'How many order references to send in one call. The references of all input items are collected and each is sent once.',
	],
	callsInFlight: [
		'Calls in Flight', 0, 16, 0,
		'How many bulk calls may run at the same time. 0 is Auto: more while calls stay fast, fewer at once on a 429, a 5xx or a time-out.',
	],
	maxCallsInFlight: ['Max Calls in Flight', 1, 64, 16, 'With Calls in Flight 0 (Auto): the most bulk calls at the same time'],
	// Shown whatever Calls in Flight is: a condition on it would hide it by default, where it is not in the options.
	maxBatchSize: [
		'Max Batch Size', 1, 10_000, 1000,
		'With Calls in Flight 0 (Auto): the largest batch to grow to while that makes each reference faster. Not below Batch Size.',
	],
	rateLimitWait: [
		'Rate Limit Wait (Seconds)', 0, 3600, 60,
		"The longest the lookup waits in all on 429 (rate limit) answers. It honours the service's Retry-After.",
	],
};

/** Required fields shown for one way of Look Up By: display name, name, default, description, placeholder. */
const fieldsFor = (lookUpBy: string, shared: Partial<INodeProperties>, fields: string[][]): INodeProperties[] =>
	fields.map(([displayName, name, fallback, description, placeholder]) => ({
		displayName,
		name,
		type: 'string',
		required: true,
		default: fallback,
		...(placeholder ? { placeholder } : {}),
		description,
		...shared,
		displayOptions: { show: { lookUpBy: [lookUpBy] } },
	}));

const properties: INodeProperties[] = [
	{
		displayName: 'Look Up By',
		name: 'lookUpBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Store ID and Order Number', value: 'storeAndOrderNumber', description: 'Each input item names one order' },
			{
				name: 'Fields of Each Input Item',
				value: 'itemFields',
				description: 'Each input item has the store ID and order number in fields you name. Fastest for many items.',
			},
			{ name: 'List of References (JSON)', value: 'list', description: 'Each input item gives {store_id, order_number} pairs' },
		],
		default: 'storeAndOrderNumber',
		description: 'How the input items name the orders to look up',
	},
	...fieldsFor('storeAndOrderNumber', {}, [
		['Store ID', 'storeId', '', 'The identifier of the store the order belongs to', 'e.g. 1002'],
		['Order Number', 'orderNumber', '', 'The number of the order within that store', 'e.g. 1001'],
	]),
	...fieldsFor('itemFields', { noDataExpression: true }, [
		['Store ID Field', 'storeIdField', 'store_id', 'The input item field holding the store ID (dots for nested fields: order.store)'],
		['Order Number Field', 'orderNumberField', 'order_number', 'The input item field holding the order number'],
	]),
	...fieldsFor('list', { type: 'json' }, [
		['References', 'references', '[\n  { "store_id": "", "order_number": "" }\n]', 'A JSON array of {"store_id", "order_number"}'],
	]),
	simplifyProperty,
	optionsCollection([
		...Object.entries(NUMBER_OPTIONS).map(([name, [displayName, minValue, maxValue, fallback, description]]) => ({
			displayName,
			name,
			type: 'number' as const,
			noDataExpression: true,
			typeOptions: { minValue, maxValue },
			default: fallback,
			description,
		})),
		{
			displayName: 'If an Order Is Not Found',
			name: 'unmatched',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Output Item with Found: False', value: 'foundFalse', description: 'Output {found: false, store_id, order_number}' },
				{ name: 'Output Nothing', value: 'skip', description: 'The reference gives no output item' },
				{ name: 'Fail the Item', value: 'error', description: 'The input item fails with an error naming the reference' },
			],
			default: 'foundFalse',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { '/simplify': [false] } },
			options: [
				{ name: 'Order Only', value: 'order', description: 'The order record, with barcode_generation_failed when reported' },
				{ name: 'Whole Result Entry', value: 'entry', description: 'The order, metrics and barcode_generation_failed' },
			],
			default: 'order',
		},
	], { forAllItems: true }),
];

const displayOptions = { show: { resource: ['order'], operation: ['lookUp'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** What the run learnt about pacing, as notices the user can act on (a refused Batch Size is also logged). */
function reportPacing(this: IExecuteFunctions, batchSize: number, results: LookUpResults): void {
	const { batchSizeUsed: used, callsInFlight: auto, batchGrowth: growth } = results;
	const notices: Array<[string, 'warning' | 'info']> = [];
	if (used !== undefined) {
		const message = `The service refused batches of ${batchSize} order references; batches of ${used} went through. Set Batch Size (in Options) to ${used} to save the refused calls.`;
		this.logger.warn(message, { node: this.getNode().name });
		notices.push([message, 'warning']);
	}
	if (auto) {
		const causes = [
			auto.rateLimited ? 'the service answered 429 (rate limit), so it kept below that for the rest of the run' : '',
			auto.failures > 0 ? `${auto.failures} call(s) failed or timed out, and each lowered it` : '',
		].filter(Boolean);
		const why = causes.length > 0 ? `: ${causes.join('; ')}` : '';
		const message = `Calls in Flight (Auto) settled on ${auto.settledOn} at a time in this run (it reached ${auto.peak}; Max Calls in Flight is ${auto.cap})${why}.`;
		notices.push([`${message} Set Calls in Flight (in Options) to a number to keep it fixed.`, 'info']);
	}
	if (growth) {
		const stop = {
			refused: `the service refused a batch of ${growth.triedSize}, and batches of ${growth.grewTo} went through`,
			notFaster: `batches of ${growth.triedSize} were not faster per reference`,
			max: 'that is Max Batch Size',
			other: 'too few references were left for larger batches, or Auto had room for more calls',
		}[growth.stoppedBy];
		const message = `Batch Size grew from ${growth.from} to ${growth.grewTo} in this run, as no more calls could run at once. It stopped there because ${stop}.`;
		notices.push([`${message} Set Batch Size (in Options) to ${growth.grewTo} to start there.`, 'info']);
	}
	for (const [message, type] of notices) this.addExecutionHints({ message, type, location: 'outputPane' });
}

/** The run-wide options, read once (an expression giving items different values stops the run, naming it). */
function readSettings(this: IExecuteFunctions, itemCount: number): { lookUp: LookUpSettings; output: OutputSettings } {
	const check = new ItemValidator(this.getNode(), 0);
	const option = (name: string, displayName: string, fallback: unknown) =>
		parameterForAllItems.call(this, `options.${name}`, displayName, fallback, itemCount);
	const count = (name: string) => {
		const [displayName, min, max, fallback] = NUMBER_OPTIONS[name];
		return check.count(option(name, displayName, fallback), displayName, min, max);
	};
	const output: OutputSettings = {
		unmatched: check.oneOf(option('unmatched', 'If an Order Is Not Found', 'foundFalse'), 'If an Order Is Not Found', UNMATCHED_BEHAVIOURS),
		output: check.oneOf(option('output', 'Output', 'order'), 'Output', OUTPUT_MODES),
	};
	// Simplify's compact item replaces the Output choice, which the editor shows only when Simplify is off.
	const simplify = parameterForAllItems.call(this, 'simplify', 'Simplify', true, itemCount);
	if (check.optionalBoolean(simplify, 'Simplify') ?? true) output.output = 'simple';
	const callsInFlight = count('callsInFlight');
	const batchSize = count('batchSize');
	const maxCallsInFlight = count('maxCallsInFlight');
	// Not set, n8n gives the fallback null (it throws for undefined): then the default, or Batch Size when larger.
	const givenMax = option('maxBatchSize', 'Max Batch Size', null);
	const maxBatchSize = givenMax === null ? Math.max(1000, batchSize) : check.count(givenMax, 'Max Batch Size', 1, 10_000);
	// Below Batch Size with Auto the node cannot honour both, and sending less would undo a setting the user chose.
	if (callsInFlight === 0 && maxBatchSize < batchSize) {
		check.fail('Max Batch Size', `must not be below Batch Size (${batchSize}), got ${maxBatchSize}`);
	}
	const lookUp: LookUpSettings = {
		batchSize,
		callsInFlight: callsInFlight === 0 ? 'auto' : callsInFlight,
		maxCallsInFlight,
		maxBatchSize: Math.max(maxBatchSize, batchSize),
		timeoutMs: check.count(option('timeout', 'Timeout', DEFAULT_TIMEOUT_MS), 'Timeout', 1, MAX_TIMEOUT_MS),
		rateLimitWaitMs: count('rateLimitWait') * 1000,
	};
	return { lookUp, output };
}

/** Collects the references of all input items, looks each distinct one up once, and gives each item its orders. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const lookUp = readLookUp.call(this, items.length);
	const settings = readSettings.call(this, items.length);
	const { byItem, inputErrors, asked } = collectReferences.call(this, items, lookUp);

	const results = await lookUpOrders.call(this, asked, settings.lookUp, (entry) => outputFor(entry, settings.output.output));
	reportPacing.call(this, settings.lookUp.batchSize, results);

	return await forEachItem.call(this, items, (itemIndex) => {
		if (inputErrors.has(itemIndex)) throw inputErrors.get(itemIndex);
		return itemOutput.call(this, itemIndex, byItem.get(itemIndex) ?? [], results, settings.output);
	});
}
