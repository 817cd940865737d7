/**
 * Removes the user-info part (`user:password@`) of URLs, so that credentials given inside a URL never leave
 * through an output or an error message. The one place that knows how; outputs and errors call it.
 */

// scheme://userinfo@ : the user-info runs to the LAST '@' before the characters that end the authority part, as
// URL parsers read it (so a password holding '@' is removed whole).
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\\?#\s]*@/gi;

/** The text with the user-info part of every URL in it removed. */
export function withoutUrlCredentials(text: string): string {
	return text.replace(USER_INFO, '$1');
}

/** Whether a text holds a URL with a user-info part. */
export function hasUrlCredentials(text: string): boolean {
	return withoutUrlCredentials(text) !== text;
}

/** A JSON value with URL credentials removed from every string in it (keys are kept as they are). */
export function withoutUrlCredentialsDeep<T>(value: T): T {
	if (typeof value === 'string') return withoutUrlCredentials(value) as T;
	if (Array.isArray(value)) return value.map((entry: unknown) => withoutUrlCredentialsDeep(entry)) as T;
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [key, withoutUrlCredentialsDeep(entry as unknown)]),
	) as T;
}
