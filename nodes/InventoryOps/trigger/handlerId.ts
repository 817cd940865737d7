import { isPlainObject } from '../shared/objects';

const ID_KEYS = ['_id', 'id', 'handler_id', 'handlerId'];
const CONTAINER_KEYS = ['handler', 'data', 'result', 'webhook'];

function idAt(object: Record<string, unknown>): string | undefined {
	for (const key of ID_KEYS) {
		const value = object[key];
		if (typeof value === 'string' && value.trim() !== '') return value;
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	}
	return undefined;
}

/**
 * The spec does not say how a new handler's `_id` is obtained (4.4), so this looks where services usually put it:
 * at the top of the answer, or one level down in `handler`, `data`, `result` or `webhook`.
 */
export function findHandlerId(answer: unknown): string | undefined {
	if (!isPlainObject(answer)) return undefined;
	const direct = idAt(answer);
	if (direct !== undefined) return direct;
	for (const key of CONTAINER_KEYS) {
		const nested = answer[key];
		if (isPlainObject(nested)) {
			const id = idAt(nested);
			if (id !== undefined) return id;
		}
	}
	return undefined;
}
