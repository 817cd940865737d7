import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { valueAt } from '../../shared/objects';
import { shown } from './validation';

/**
 * A setting for the whole run (noDataExpression), read once. An imported workflow may give it an
 * expression: newer n8n passes it on as text, which fails; n8n 1.99 evaluates it per item, and
 * items that disagree stop the run.
 */
export function parameterForAllItems(
	this: IExecuteFunctions,
	name: string,
	displayName: string,
	fallback: unknown,
) {
	const first = this.getNodeParameter(name, 0, fallback);
	const fail = (problem: string, itemIndex: number, description: string) => {
		throw new NodeOperationError(this.getNode(), `'${displayName}' ${problem}`, {
			itemIndex,
			description,
		});
	};
	if (typeof first === 'string' && /\{\{[\s\S]*\}\}/.test(first)) {
		const passed = `takes no expression: it holds for the whole run, and n8n passed ${shown(first)} on as text`;
		fail(passed, 0, `Choose a value for '${displayName}' instead of an expression.`);
	}
	// As stored, where an expression is text starting with "=".
	const stored = valueAt(this.getNode().parameters, name);
	if (typeof stored !== 'string' || !stored.startsWith('=')) return first;
	for (let itemIndex = 1; itemIndex < this.getInputData().length; itemIndex++) {
		const value = this.getNodeParameter(name, itemIndex, fallback);
		if (JSON.stringify(value) === JSON.stringify(first)) continue;
		const differs = `must be the same for every input item: item 0 gives ${shown(first)}, item ${itemIndex} gives ${shown(value)}`;
		fail(
			differs,
			itemIndex,
			'Set it without an expression that depends on the item, or split the items into separate runs.',
		);
	}
	return first;
}
