import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../../shared/nodeErrors';
import { isPlainObject } from '../../shared/objects';
import { parameterForAllItems } from '../helpers/parameterForAllItems';
import { ItemValidator } from '../helpers/validation';

export interface OrderReference extends IDataObject {
	store_id: string;
	order_number: string;
}

/** (store_id, order_number) as one map key; the service's result order says nothing about which is which. */
export function referenceKey(storeId: unknown, orderNumber: unknown): string {
	return JSON.stringify([String(storeId), String(orderNumber)]);
}

/** One distinct reference of the run, and who asked for it. */
export interface AskedReference {
	reference: OrderReference;
	key: string;
	/** The first input item that asked for it: a batch's call goes with the index (and credential) of its first. */
	itemIndex: number;
	/** How often the items asked for it in all, repeats within one item included (output.ts: copied or not). */
	asks: number;
}

export type AskedReferences = Map<string, AskedReference>;

/** How each item names its orders; the way and the field names hold for the whole run (parameterForAllItems.ts). */
type LookUp =
	| { by: 'storeAndOrderNumber' | 'list' }
	| { by: 'itemFields'; storeIdField: string; orderNumberField: string };

export function readLookUp(this: IExecuteFunctions, itemCount: number): LookUp {
	const check = new ItemValidator(this.getNode(), 0);
	const setting = (name: string, displayName: string, fallback: unknown) =>
		parameterForAllItems.call(this, name, displayName, fallback, itemCount);
	const by = check.oneOf(setting('lookUpBy', 'Look Up By', undefined), 'Look Up By', ['storeAndOrderNumber', 'itemFields', 'list']);
	if (by !== 'itemFields') return { by };
	return {
		by,
		storeIdField: check.text(setting('storeIdField', 'Store ID Field', 'store_id'), 'Store ID Field'),
		orderNumberField: check.text(setting('orderNumberField', 'Order Number Field', 'order_number'), 'Order Number Field'),
	};
}

function fieldValue(json: IDataObject, path: string): unknown {
	if (path in json) return json[path];
	let value: unknown = json;
	for (const part of path.split('.')) value = isPlainObject(value) ? value[part] : undefined;
	return value;
}

/**
 * The order references one input item asks for; a bad one throws an error naming the item and the field. `node` is
 * read once per run: n8n's getNode() deep-copies the node with its parameters on every call.
 */
function readReferences(
	this: IExecuteFunctions,
	node: INode,
	item: INodeExecutionData,
	itemIndex: number,
	lookUp: LookUp,
): OrderReference[] {
	// Typed explicitly so that TypeScript treats check.fail() as the end of the path.
	const check: ItemValidator = new ItemValidator(node, itemIndex);
	if (lookUp.by === 'itemFields') {
		return [
			{
				store_id: check.text(fieldValue(item.json, lookUp.storeIdField), lookUp.storeIdField),
				order_number: check.text(fieldValue(item.json, lookUp.orderNumberField), lookUp.orderNumberField),
			},
		];
	}
	if (lookUp.by === 'storeAndOrderNumber') {
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

/** What the input items ask for: each item's references (or why it cannot ask), and each distinct one once. */
interface CollectedReferences {
	/** The entries of `asked` each item asks for, in its order (one entry per mention, repeats included). */
	byItem: Map<number, AskedReference[]>;
	inputErrors: Map<number, unknown>;
	asked: AskedReferences;
}

/**
 * Reads every input item's references. Without continue-on-fail the first bad item stops the run before any call;
 * with it, the item's error is kept for its output and the other items are still looked up.
 */
export function collectReferences(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	lookUp: LookUp,
): CollectedReferences {
	const collected: CollectedReferences = { byItem: new Map(), inputErrors: new Map(), asked: new Map() };
	const node = this.getNode();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const references = readReferences.call(this, node, items[itemIndex], itemIndex, lookUp);
			collected.byItem.set(
				itemIndex,
				references.map((reference) => {
					const key = referenceKey(reference.store_id, reference.order_number);
					const entry = collected.asked.get(key);
					if (entry !== undefined) {
						entry.asks++;
						return entry;
					}
					const first: AskedReference = { reference, key, itemIndex, asks: 1 };
					collected.asked.set(key, first);
					return first;
				}),
			);
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(node, error, itemIndex);
			collected.inputErrors.set(itemIndex, error);
		}
	}
	return collected;
}
