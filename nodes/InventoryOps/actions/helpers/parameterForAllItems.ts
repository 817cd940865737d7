import { NodeOperationError, type IExecuteFunctions, type INodeParameters } from 'n8n-workflow';

import { isPlainObject } from '../../shared/objects';

/** The stored value of a parameter, `options.batchSize` read inside its collection. */
function storedValue(parameters: INodeParameters, name: string): unknown {
	let value: unknown = parameters;
	for (const part of name.split('.')) value = isPlainObject(value) ? value[part] : undefined;
	return value;
}

function shown(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * A setting that holds for the whole run (it shapes the calls or the output of all items together), so it is read
 * once. The editor offers no expression for it (noDataExpression), but workflows also arrive by import and API
 * with one: newer n8n passes it on as text, which fails naming the setting; the oldest n8n line we support evaluates it, so it is
 * evaluated for every item, and items that disagree stop the run naming the setting, instead of every item silently
 * getting item 0's value.
 */
export function parameterForAllItems(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	fallback: unknown,
	itemCount: number,
): unknown {
	const first = this.getNodeParameter(name, 0, fallback);
	if (typeof first === 'string' && /\{\{[\s\S]*\}\}/.test(first)) {
		// n8n 1.1xx and later pass an expression on as text where the setting takes none (noDataExpression).
		throw new NodeOperationError(this.getNode(), `'${displayName}' takes no expression: it holds for the whole run, and n8n passed ${shown(first)} on as text`, {
			itemIndex: 0,
			description: `Choose a value for '${displayName}' instead of an expression.`,
		});
	}
	const stored = storedValue(this.getNode().parameters, name);
	if (typeof stored !== 'string' || !stored.startsWith('=')) return first;
	for (let itemIndex = 1; itemIndex < itemCount; itemIndex++) {
		const value = this.getNodeParameter(name, itemIndex, fallback);
		if (JSON.stringify(value) === JSON.stringify(first)) continue;
		throw new NodeOperationError(
			this.getNode(),
			`'${displayName}' must be the same for every input item: item 0 gives ${shown(first)}, item ${itemIndex} gives ${shown(value)}`,
			{
				itemIndex,
				description: `'${displayName}' applies to the whole run, so it cannot differ per item. Set it without an expression that depends on the item, or split the items into separate runs.`,
			},
		);
	}
	return first;
}
