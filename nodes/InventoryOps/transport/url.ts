/** A base URL from the credential and an operation's path, without a doubled slash between them. */
export function joinUrl(base: unknown, path: string): string {
	return `${String(base ?? '').replace(/\/+$/, '')}${path}`;
}
