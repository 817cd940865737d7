import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { isPlainObject } from '../../shared/objects';

// The service names no limit; this stops runaway expressions.
const MAX_TEXT_LENGTH = 10_000;
// The longest a timer can wait (2^31 - 1 ms).
export const MAX_TIMEOUT_MS = 2_147_483_647;
// Not "0x10", "1e3" or "Infinity", which Number() reads.
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A bad value described without repeating it (it may be a secret). */
function describe(value: unknown): string {
	if (value === undefined || value === null) return value === null ? 'null' : 'nothing';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'number')
		return Number.isFinite(value) ? `the number ${value}` : String(value);
	if (typeof value === 'string') return value.trim() === '' ? 'empty text' : 'text';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A value named in a message: as JSON, so that it stays on one line, and cut after 60 characters.
 */
export function shown(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** Without keys holding undefined: a body carries only what the user gave. */
export function compact<T extends IDataObject>(object: T): T {
	return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

/** Checks one input item's values before any call; every failure names the item and the field. */
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

	text(value: unknown, field: string): string {
		return this.optionalText(value, field) ?? this.fail(field, 'is required and must not be empty');
	}

	/** A number is read as text: the service's identifiers are strings. */
	optionalText(value: unknown, field: string): string | undefined {
		if (value === undefined || value === null) return undefined;
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		if (typeof value !== 'string') this.fail(field, `must be text, got ${describe(value)}`);
		const text = value.trim();
		if (text.length > MAX_TEXT_LENGTH)
			this.fail(field, `is longer than ${MAX_TEXT_LENGTH} characters`);
		return text === '' ? undefined : text;
	}

	optionalNumber(value: unknown, field: string): number | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		// Number() skips the same surrounding whitespace as trim().
		const number = typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isFinite(number))
			this.fail(field, `must be a number, got ${describe(value)}`);
		if (number < 0) this.fail(field, `must not be negative, got ${number}`);
		return number;
	}

	count(value: unknown, field: string, min: number, max: number): number {
		const number = this.optionalNumber(value, field);
		if (number === undefined || !Number.isInteger(number) || number < min || number > max) {
			this.fail(field, `must be a whole number from ${min} to ${max}`);
		}
		return number;
	}

	oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
		if (allowed.includes(value as T)) return value as T;
		return this.fail(field, `must be one of ${allowed.join(', ')}, got ${describe(value)}`);
	}

	optionalBoolean(value: unknown, field: string): boolean | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'boolean') return value;
		if (value === 'true' || value === 'false') return value === 'true';
		this.fail(field, `must be true or false, got ${describe(value)}`);
	}

	textList(value: unknown, field: string): string[] | undefined {
		if (value === undefined || value === null) return undefined;
		if (!Array.isArray(value) && typeof value !== 'string')
			this.fail(field, `must be a list of texts, got ${describe(value)}`);
		const texts = (Array.isArray(value) ? value : value.split(','))
			.map((entry, index) => this.optionalText(entry, `${field}[${index}]`))
			.filter((entry) => entry !== undefined);
		return texts.length > 0 ? texts : undefined;
	}

	/** An http(s) address with a host as written (a lenient parser finds one in "https:///x"). */
	url(value: unknown, field: string): string {
		const url = this.text(value, field);
		// Whitespace or a C0, DEL or C1 control: the service would store the URL and fail every call.
		if (/\s|[^!-~\xa0-\uffff]/.test(url))
			this.fail(field, 'must not contain spaces, line breaks or other control characters');
		if (!/^https?:\/\/[^/?#\\][^\\]*$/i.test(url) || !URL.canParse(url)) {
			this.fail(
				field,
				'must be an http:// or https:// address with a host, e.g. https://example.com/hook',
			);
		}
		return url;
	}

	headers(rows: IDataObject[], field: string): IDataObject {
		const seen = new Map<string, number>();
		const entries = rows.map((row, index) => {
			const at = `${field}[${index}]`;
			const name = this.text(row.name, `${at}.name`);
			if (!HEADER_NAME.test(name)) this.fail(`${at}.name`, 'is not a valid HTTP header name');
			const first = seen.get(name.toLowerCase());
			if (first !== undefined)
				this.fail(`${at}.name`, `repeats the header of ${field}[${first}] (letter case aside)`);
			seen.set(name.toLowerCase(), index);
			const value = this.optionalText(row.value, `${at}.value`) ?? '';
			// Tab and Latin-1's upper half (HTTP's obs-text) are allowed.
			if (/[^\t -~\x80-\xff]/.test(value))
				this.fail(`${at}.value`, 'must not contain line breaks or other control characters');
			return [name, value];
		});
		// fromEntries: a header named like an Object.prototype key stays an ordinary entry.
		return Object.fromEntries(entries) as IDataObject;
	}

	/** Refuses unknown keys: a misspelt field would be dropped unnoticed. */
	knownKeys(object: IDataObject, known: readonly string[], prefix: string, what: string): void {
		for (const key of Object.keys(object)) {
			if (known.includes(key)) continue;
			this.fail(
				`${prefix}${/^[\w$-]{1,60}$/.test(key) ? key : shown(key)}`,
				`is not a field of ${what} (known: ${known.join(', ')})`,
			);
		}
	}

	object(value: unknown, field: string): IDataObject {
		return this.json(value, field, isPlainObject, 'object') as IDataObject;
	}

	list(value: unknown, field: string): unknown[] {
		return this.json(value, field, Array.isArray, 'array') as unknown[];
	}

	private json(
		value: unknown,
		field: string,
		fits: (parsed: unknown) => boolean,
		kind: string,
	): unknown {
		let parsed = value;
		try {
			if (typeof value === 'string') parsed = JSON.parse(value);
		} catch {
			this.fail(field, 'is not valid JSON');
		}
		return fits(parsed)
			? parsed
			: this.fail(field, `must be a JSON ${kind}, got ${describe(parsed)}`);
	}
}
