import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../transport';
import { optionsCollection, requiredText } from '../helpers/descriptions';
import { forEachItem } from '../helpers/perItem';
import { parameterForAllItems } from '../helpers/parameterForAllItems';
import { ItemValidator, MAX_TIMEOUT_MS } from '../helpers/validation';
import { BulkLookup, type LookUpResults, type LookUpSettings } from './bulkLookup';
import {
	itemOutput,
	OUTPUT_MODES,
	outputFor,
	UNMATCHED_BEHAVIOURS,
	type OutputSettings,
} from './output';
import { collectReferences, type AskedReference, type LookUp } from './references';

/** Display name, lowest, highest, default, description. */
const NUMBER_OPTIONS: Record<string, [string, number, number, number, string]> = {
	batchSize: [
		'Batch Size',
		1,
		10_000,
		100,
		'How many order references to send in one call (those of all input items, each sent once)',
	],
	callsInFlight: [
		'Calls in Flight',
		0,
		16,
		0,
		'How many bulk calls may run at the same time. 0 is Auto: more while calls stay fast, fewer on a 429 or a failure.',
	],
	maxCallsInFlight: [
		'Max Calls in Flight',
		1,
		64,
		16,
		'With Calls in Flight 0 (Auto): the most calls at the same time',
	],
	// Shown whatever Calls in Flight is: a condition on it would hide it by default, where it is not
	// in the options.
	maxBatchSize: [
		'Max Batch Size',
		1,
		10_000,
		1000,
		'With Calls in Flight 0 (Auto): the largest batch to grow to while that is faster. Not below Batch Size.',
	],
	rateLimitWait: [
		'Rate Limit Wait (Seconds)',
		0,
		3600,
		60,
		"The longest the lookup waits in all on 429 (rate limit) answers. It honours the service's Retry-After.",
	],
};

export const description: INodeProperties[] = [
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
					'Each input item has the store ID and order number in fields you name. Fastest for many items.',
			},
			{
				name: 'List of References (JSON)',
				value: 'list',
				description: 'Each input item gives a list of references',
			},
		],
		default: 'storeAndOrderNumber',
		description: 'How the input items name the orders to look up',
	},
	...updateDisplayOptions({ show: { lookUpBy: ['storeAndOrderNumber'] } }, [
		requiredText(
			'Store ID',
			'storeId',
			'The identifier of the store the order belongs to',
			'e.g. 1002',
		),
		requiredText(
			'Order Number',
			'orderNumber',
			'The number of the order within that store',
			'e.g. 1001',
		),
	]),
	...updateDisplayOptions({ show: { lookUpBy: ['itemFields'] } }, [
		{
			...requiredText(
				'Store ID Field',
				'storeIdField',
				'The input item field holding the store ID (e.g. order.store)',
			),
			default: 'store_id',
			noDataExpression: true,
		},
		{
			...requiredText(
				'Order Number Field',
				'orderNumberField',
				'The input item field holding the order number',
			),
			default: 'order_number',
			noDataExpression: true,
		},
	]),
	{
		...requiredText('References', 'references', 'A JSON array of {"store_id", "order_number"}'),
		type: 'json',
		default: '[\n  { "store_id": "", "order_number": "" }\n]',
		displayOptions: { show: { lookUpBy: ['list'] } },
	},
	// On by default (n8n's convention): an order record has 41 fields, 5-6 KB, and an AI agent needs
	// a compact one.
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		noDataExpression: true,
		default: true,
		description:
			'Whether to return a compact item per order (IDs, statuses, dates, tags, line items, tracking numbers)',
	},
	optionsCollection(
		[
			...Object.entries(NUMBER_OPTIONS).map(
				([name, [displayName, minValue, maxValue, fallback, description]]) => ({
					displayName,
					name,
					type: 'number' as const,
					noDataExpression: true,
					typeOptions: { minValue, maxValue },
					default: fallback,
					description,
				}),
			),
			{
				displayName: 'If an Order Is Not Found',
				name: 'unmatched',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Output Item with Found: False',
						value: 'foundFalse',
						description: 'Output {found: false, store_id, order_number}',
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
				displayOptions: { show: { '/simplify': [false] } },
				options: [
					{
						name: 'Order Only',
						value: 'order',
						description: 'The order record (and barcode_generation_failed)',
					},
					{
						name: 'Whole Result Entry',
						value: 'entry',
						description: 'The order, metrics and barcode_generation_failed',
					},
				],
				default: 'order',
			},
		],
		{ forAllItems: true },
	),
];

function reportPacing(this: IExecuteFunctions, batchSize: number, results: LookUpResults): void {
	const { batchSizeUsed: used, callsInFlight: auto, batchGrowth: growth } = results;
	const hint = (message: string, type: 'warning' | 'info' = 'info') =>
		this.addExecutionHints({ message, type, location: 'outputPane' });
	if (used !== undefined) {
		const message = `The service refused batches of ${batchSize} order references; batches of ${used} went through. Set Batch Size (in Options) to ${used} to save the refused calls.`;
		this.logger.warn(message, { node: this.getNode().name });
		hint(message, 'warning');
	}
	if (auto) {
		const causes = [
			auto.rateLimited
				? 'the service answered 429 (rate limit), so it kept below that for the rest of the run'
				: '',
			auto.failures > 0 ? `${auto.failures} call(s) failed or timed out, and each lowered it` : '',
		].filter(Boolean);
		const why = causes.length > 0 ? `: ${causes.join('; ')}` : '';
		const settled = `Calls in Flight (Auto) settled on ${auto.settledOn} at a time in this run`;
		hint(
			`${settled} (it reached ${auto.peak}; Max Calls in Flight is ${auto.cap})${why}. Set Calls in Flight (in Options) to a number to keep it fixed.`,
		);
	}
	if (growth) {
		const stop = {
			refused: `the service refused a batch of ${growth.triedSize}, and batches of ${growth.grewTo} went through`,
			notFaster: `batches of ${growth.triedSize} were not faster per reference`,
			max: 'that is Max Batch Size',
			other: 'too few references were left for larger batches, or Auto had room for more calls',
		}[growth.stoppedBy];
		const grew = `Batch Size grew from ${growth.from} to ${growth.grewTo} in this run, as no more calls could run at once`;
		hint(
			`${grew}. It stopped there because ${stop}. Set Batch Size (in Options) to ${growth.grewTo} to start there.`,
		);
	}
}

function readSettings(this: IExecuteFunctions) {
	const check = new ItemValidator(this.getNode(), 0);
	const setting = (name: string, displayName: string, fallback: unknown) =>
		parameterForAllItems.call(this, name, displayName, fallback);
	const text = (name: string, label: string, fallback: string) =>
		check.text(setting(name, label, fallback), label);
	const choice = <T extends string>(
		name: string,
		displayName: string,
		fallback: T,
		allowed: readonly T[],
	) => check.oneOf(setting(`options.${name}`, displayName, fallback), displayName, allowed);
	const count = (name: string, fallback = NUMBER_OPTIONS[name][3]) => {
		const [displayName, min, max] = NUMBER_OPTIONS[name];
		return check.count(setting(`options.${name}`, displayName, fallback), displayName, min, max);
	};
	const by = check.oneOf(setting('lookUpBy', 'Look Up By', undefined), 'Look Up By', [
		'storeAndOrderNumber',
		'itemFields',
		'list',
	]);
	const lookUpBy: LookUp =
		by !== 'itemFields'
			? { by }
			: {
					by,
					storeIdField: text('storeIdField', 'Store ID Field', 'store_id'),
					orderNumberField: text('orderNumberField', 'Order Number Field', 'order_number'),
				};
	const unmatched = choice(
		'unmatched',
		'If an Order Is Not Found',
		'foundFalse',
		UNMATCHED_BEHAVIOURS,
	);
	const mode = choice('output', 'Output', 'order', OUTPUT_MODES);
	// The editor shows Output only when Simplify is off.
	const simplify = check.optionalBoolean(setting('simplify', 'Simplify', true), 'Simplify') ?? true;
	const output: OutputSettings = { unmatched, output: simplify ? 'simple' : mode };
	const callsInFlight = count('callsInFlight');
	const batchSize = count('batchSize');
	// Left out, never below Batch Size.
	const maxBatchSize = count('maxBatchSize', Math.max(NUMBER_OPTIONS.maxBatchSize[3], batchSize));
	// With Auto the node cannot honour both, and sending less would undo a setting the user chose.
	if (callsInFlight === 0 && maxBatchSize < batchSize) {
		check.fail(
			'Max Batch Size',
			`must not be below Batch Size (${batchSize}), got ${maxBatchSize}`,
		);
	}
	const lookUp: LookUpSettings = {
		batchSize,
		callsInFlight: callsInFlight === 0 ? 'auto' : callsInFlight,
		maxCallsInFlight: count('maxCallsInFlight'),
		maxBatchSize,
		timeoutMs: check.count(
			setting('options.timeout', 'Timeout (Milliseconds)', DEFAULT_TIMEOUT_MS),
			'Timeout (Milliseconds)',
			1,
			MAX_TIMEOUT_MS,
		),
		rateLimitWaitMs: count('rateLimitWait') * 1000,
	};
	return { lookUpBy, lookUp, output };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { lookUpBy, lookUp, output } = readSettings.call(this);
	const { byItem, inputErrors, asked } = collectReferences.call(this, items, lookUpBy);

	const results = await new BulkLookup(this, lookUp, (entry) =>
		outputFor(entry, output.output),
	).run(asked);
	reportPacing.call(this, lookUp.batchSize, results);

	return await forEachItem.call(this, items, ({ itemIndex }) => {
		if (inputErrors.has(itemIndex)) throw inputErrors.get(itemIndex);
		// collectReferences puts every item in one of the two.
		const asked = byItem.get(itemIndex) as AskedReference[];
		return itemOutput.call(this, itemIndex, asked, results, output);
	});
}
