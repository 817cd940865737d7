import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../helpers/perItem';
import { isPlainObject, valueAt } from '../../shared/objects';
import { ItemValidator } from '../helpers/validation';

export function referenceKey(storeId: unknown, orderNumber: unknown): string {
	return JSON.stringify([String(storeId), String(orderNumber)]);
}

export interface AskedReference {
	reference: { store_id: string; order_number: string };
	key: string;
	/** The first item that asked: a call goes with its batch's first (and credential). */
	itemIndex: number;
	/** How often items asked for it, repeats included. */
	asks: number;
}

export type LookUp =
	| { by: 'storeAndOrderNumber' | 'list' }
	| { by: 'itemFields'; storeIdField: string; orderNumberField: string };

function readReferences(
	this: IExecuteFunctions,
	check: ItemValidator,
	json: IDataObject,
	lookUp: LookUp,
) {
	const reference = (
		storeId: unknown,
		storeField: string,
		orderNumber: unknown,
		numberField: string,
	) => ({
		store_id: check.text(storeId, storeField),
		order_number: check.text(orderNumber, numberField),
	});
	if (lookUp.by === 'itemFields') {
		const { storeIdField, orderNumberField } = lookUp;
		return [
			reference(
				valueAt(json, storeIdField),
				storeIdField,
				valueAt(json, orderNumberField),
				orderNumberField,
			),
		];
	}
	if (lookUp.by === 'storeAndOrderNumber') {
		const parameter = (name: string) => this.getNodeParameter(name, check.itemIndex, '');
		return [reference(parameter('storeId'), 'Store ID', parameter('orderNumber'), 'Order Number')];
	}
	const raw = this.getNodeParameter('references', check.itemIndex, '[]');
	const parsed = isPlainObject(raw) ? [raw] : check.list(raw, 'References');
	if (parsed.length === 0) check.fail('References', 'must list at least one order reference');
	return parsed.map((entry, index) => {
		const field = `References[${index}]`;
		if (!isPlainObject(entry))
			check.fail(field, 'must be an object with store_id and order_number');
		return reference(
			entry.store_id,
			`${field}.store_id`,
			entry.order_number,
			`${field}.order_number`,
		);
	});
}

/** Each item's references, and each distinct one once; a bad item's error is kept, or thrown. */
export function collectReferences(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	lookUp: LookUp,
) {
	const byItem = new Map<number, AskedReference[]>();
	const inputErrors = new Map<number, unknown>();
	const asked = new Map<string, AskedReference>();
	const node = this.getNode();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const references = readReferences.call(
				this,
				new ItemValidator(node, itemIndex),
				items[itemIndex].json,
				lookUp,
			);
			byItem.set(
				itemIndex,
				references.map((reference) => {
					const key = referenceKey(reference.store_id, reference.order_number);
					const entry = asked.get(key) ?? { reference, key, itemIndex, asks: 0 };
					entry.asks++;
					asked.set(key, entry);
					return entry;
				}),
			);
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(node, error, itemIndex);
			inputErrors.set(itemIndex, error);
		}
	}
	return { byItem, inputErrors, asked };
}
