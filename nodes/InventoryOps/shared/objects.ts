import type { IDataObject } from 'n8n-workflow';

export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A dotted path (`order.store`) is read inside its objects, unless a field has that name itself.
 */
export function valueAt(object: IDataObject, path: string): unknown {
	if (path in object) return object[path];
	let value: unknown = object;
	for (const part of path.split('.')) value = isPlainObject(value) ? value[part] : undefined;
	return value;
}
