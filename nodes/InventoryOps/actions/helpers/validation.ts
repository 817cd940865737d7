import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { isPlainObject } from '../../shared/objects';

/** Longest text we forward; the spec names no limit, this only stops runaway expressions from being sent. */
export const MAX_TEXT_LENGTH = 10_000;

/**
 * Checks one input item's values before any call is made. Every failure is a NodeOperationError that names the
 * field and the item, so a user (or an AI agent) can fix exactly that value.
 */
export class ItemValidator {
	constructor(
		private readonly node: INode,
		readonly itemIndex: number,
	) {}

	fail(field: string, problem: string): never {
		throw new NodeOperationError(this.node, `Item ${this.itemIndex}: '${field}' ${problem}`, {
			itemIndex: this.itemIndex,
			description: `Fix the value of '${field}' in input item ${this.itemIndex} and run again.`,
		});
	}

	/** A non-empty text; numbers are accepted and sent as text because identifiers are strings in the spec. */
	text(value: unknown, field: string): string {
		const text = this.optionalText(value, field);
		if (text === undefined) this.fail(field, 'is required and must not be empty');
		return text;
	}

	optionalText(value: unknown, field: string): string | undefined {
		if (value === undefined || value === null) return undefined;
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		if (typeof value !== 'string') this.fail(field, `must be text, got ${describe(value)}`);
		const text = value.trim();
		if (text === '') return undefined;
		if (text.length > MAX_TEXT_LENGTH) this.fail(field, `is longer than ${MAX_TEXT_LENGTH} characters`);
		return text;
	}

	/** A finite number, not negative; numeric text such as "12.50" is accepted and sent as a number. */
	optionalNumber(value: unknown, field: string): number | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
		if (typeof number !== 'number' || !Number.isFinite(number)) {
			this.fail(field, `must be a number, got ${describe(value)}`);
		}
		if (number < 0) this.fail(field, `must not be negative, got ${number}`);
		return number;
	}

	optionalBoolean(value: unknown, field: string): boolean | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'boolean') return value;
		if (value === 'true' || value === 'false') return value === 'true';
		this.fail(field, `must be true or false, got ${describe(value)}`);
	}

	/** A list of texts; a single text or a comma-separated text is read as a list too. */
	textList(value: unknown, field: string): string[] | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		const entries = Array.isArray(value)
			? value
			: typeof value === 'string'
				? value.split(',')
				: this.fail(field, `must be a list of texts, got ${describe(value)}`);
		const texts = entries
			.map((entry, index) => this.optionalText(entry, `${field}[${index}]`))
			.filter((entry): entry is string => entry !== undefined);
		return texts.length > 0 ? texts : undefined;
	}

	object(value: unknown, field: string): IDataObject {
		const parsed = typeof value === 'string' ? this.parseJson(value, field) : value;
		if (!isPlainObject(parsed)) this.fail(field, `must be a JSON object, got ${describe(parsed)}`);
		return parsed;
	}

	list(value: unknown, field: string): unknown[] {
		const parsed = typeof value === 'string' ? this.parseJson(value, field) : value;
		if (!Array.isArray(parsed)) this.fail(field, `must be a JSON array, got ${describe(parsed)}`);
		return parsed;
	}

	private parseJson(text: string, field: string): unknown {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return this.fail(field, 'is not valid JSON');
		}
	}
}

/** A short, token-free description of a bad value for error messages. */
function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : String(value);
	if (typeof value === 'string') return value.trim() === '' ? 'empty text' : 'text';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** Drops keys whose value is undefined so that the request body only carries what the user gave. */
export function compact<T extends IDataObject>(object: T): T {
	return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}
