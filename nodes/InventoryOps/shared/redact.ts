// A URL's `user:password@`, so that they never reach an output or an error. To the LAST '@' of the
// authority, as URL parsers read it: a password holding '@' is removed whole.
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\\?#\s]*@/gi;

export function withoutUrlCredentials(text: string): string {
	return text.replace(USER_INFO, '$1');
}

/** A JSON value with URL credentials removed from every string in it (keys kept as they are). */
export function withoutUrlCredentialsDeep<T>(value: T): T {
	if (typeof value === 'string') return withoutUrlCredentials(value) as T;
	if (Array.isArray(value))
		return value.map((entry: unknown) => withoutUrlCredentialsDeep(entry)) as T;
	if (typeof value !== 'object' || value === null) return value;
	const entries = Object.entries(value).map(([key, entry]) => [
		key,
		withoutUrlCredentialsDeep(entry as unknown),
	]);
	return Object.fromEntries(entries) as T;
}
