import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { isPlainObject } from '../../shared/objects';
import { hasUrlCredentials, withoutUrlCredentials } from '../../shared/redact';

/**
 * Longest text we forward. The service names no limit (docs/service-interface.md, Size limits); this only stops
 * runaway expressions from being sent.
 */
const MAX_TEXT_LENGTH = 10_000;

/** The longest time-out a timer can wait (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** A number written in decimal: "12", "-3", "12.50", ".5". Not "0x10", "1e3", "Infinity" or "12 kg". */
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;
/** HTTP's token: the characters a header name may have. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A control character: C0 (NUL, CR, LF, tab...), DEL or C1. */
function isControl(code: number): boolean {
	return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** What an HTTP header value may not hold: control characters other than tab (CR, LF, NUL...), and non-Latin-1. */
function unfitForHeaderValue(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		// Latin-1's upper half (0x80-0xff, C1 included) is HTTP's obs-text, which a field value may hold.
		if ((isControl(code) && code !== 0x09 && code < 0x80) || code > 0xff) return true;
	}
	return false;
}

/** Whitespace and control characters, none of which may appear anywhere in a URL we send. */
function unfitForUrl(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		if (isControl(text.charCodeAt(index))) return true;
	}
	return /\s/.test(text);
}

/** A checked http(s) URL: `url` as sent, `shown` without user name and password, for outputs. */
interface CheckedUrl {
	url: string;
	shown: string;
	hasCredentials: boolean;
}

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

	/** A non-empty text; numbers are accepted and sent as text because the service's identifiers are strings. */
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

	/** A finite number, not negative; decimal text such as "12.50" is accepted and sent as a number. */
	optionalNumber(value: unknown, field: string): number | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'string' && !DECIMAL.test(value.trim())) {
			this.fail(field, `must be a decimal number such as 12 or 12.50, got ${describe(value)}`);
		}
		// Number() skips the same surrounding whitespace as trim(), which the decimal check above allowed.
		const number = typeof value === 'string' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isFinite(number)) {
			this.fail(field, `must be a number, got ${describe(value)}`);
		}
		if (number < 0) this.fail(field, `must not be negative, got ${number}`);
		return number;
	}

	/** A whole number from `min` to `max` (an option such as a batch size or a time-out); decimal text is accepted. */
	count(value: unknown, field: string, min: number, max: number): number {
		const number = this.optionalNumber(value, field);
		if (number === undefined || !Number.isInteger(number) || number < min || number > max) {
			this.fail(field, `must be a whole number from ${min} to ${max}`);
		}
		return number;
	}

	/** One of the values an options field offers (an expression can give anything). */
	oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
		if (!(allowed as readonly unknown[]).includes(value)) {
			this.fail(field, `must be one of ${allowed.join(', ')}, got ${describe(value)}`);
		}
		return value as T;
	}

	optionalBoolean(value: unknown, field: string): boolean | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'boolean') return value;
		if (value === 'true' || value === 'false') return value === 'true';
		this.fail(field, `must be true or false, got ${describe(value)}`);
	}

	/** A list of texts; a single text or a comma-separated text is read as a list too. */
	textList(value: unknown, field: string): string[] | undefined {
		// Empty text needs no case of its own: its one empty entry is dropped below like any other.
		if (value === undefined || value === null) return undefined;
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

	/**
	 * An http:// or https:// address with a host, read in full: no whitespace or control character anywhere (they
	 * would be stored by the service and break every call to the address).
	 */
	url(value: unknown, field: string): CheckedUrl {
		const url = this.text(value, field);
		if (unfitForUrl(url)) this.fail(field, 'must not contain spaces, line breaks or other control characters');
		let parsed: URL | undefined;
		try {
			parsed = new URL(url);
		} catch {
			// Not a URL at all: refused below with the other unusable addresses.
		}
		// Read as written, not as a lenient parser repairs it: "https:///x" or "https:\\x" are not taken as a host.
		const written = /^https?:\/\/[^/?#\\][^\\]*$/i.test(url);
		// An http(s) URL with an empty host does not parse, so a parsed one always has a host.
		if (parsed === undefined || !written || !['http:', 'https:'].includes(parsed.protocol)) {
			this.fail(field, 'must be an http:// or https:// address with a host, e.g. https://example.com/hook');
		}
		// A user name or password the URL parser finds is an '@' in the authority, which hasUrlCredentials finds too.
		return { url, shown: withoutUrlCredentials(url), hasCredentials: hasUrlCredentials(url) };
	}

	/**
	 * HTTP headers from name/value rows: names by HTTP's token rule and unique regardless of letter case (HTTP does
	 * not tell them apart), values without control characters.
	 */
	headers(rows: unknown, field: string): IDataObject {
		const entries: Array<[string, string]> = [];
		const seen = new Map<string, number>();
		this.list(rows ?? [], field).forEach((row, index) => {
			const at = `${field}[${index}]`;
			if (!isPlainObject(row)) this.fail(at, 'must be an object with name and value');
			this.knownKeys(row, ['name', 'value'], `${at}.`, 'a header');
			const name = this.text(row.name, `${at}.name`);
			if (!HEADER_NAME.test(name)) this.fail(`${at}.name`, 'is not a valid HTTP header name');
			const first = seen.get(name.toLowerCase());
			if (first !== undefined) {
				this.fail(`${at}.name`, `repeats the header of ${field}[${first}] (header names ignore letter case)`);
			}
			seen.set(name.toLowerCase(), index);
			const value = this.optionalText(row.value, `${at}.value`) ?? '';
			if (unfitForHeaderValue(value)) {
				this.fail(`${at}.value`, 'must not contain line breaks, NUL or other control characters (HTTP forbids them)');
			}
			entries.push([name, value]);
		});
		// fromEntries: a header named like an Object.prototype key stays an ordinary entry.
		return Object.fromEntries(entries);
	}

	/** Refuses keys that are not known: a misspelt field would otherwise be dropped without anyone noticing. */
	knownKeys(object: IDataObject, known: readonly string[], prefix: string, what: string): void {
		for (const key of Object.keys(object)) {
			if (known.includes(key)) continue;
			// A key with quotes, spaces or control characters is shown as JSON text, so the message stays one line.
			const shortened = key.length > 60 ? `${key.slice(0, 60)}…` : key;
			const shown = /^[\w$-]+$/.test(shortened) ? shortened : JSON.stringify(shortened);
			this.fail(`${prefix}${shown}`, `is not a field of ${what} (known: ${known.join(', ')})`);
		}
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
	if (value === undefined) return 'nothing';
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
