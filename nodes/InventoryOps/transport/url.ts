/** A base URL from the credential and an operation's path, without a doubled slash between them. */
export function joinUrl(base: unknown, path: string): string {
	return `${String(base ?? '').replace(/\/+$/, '')}${path}`;
}

/** An address a call can be sent to: http(s) with a host. */
export function isHttpUrl(value: string): boolean {
	return /^https?:\/\/[^/]/i.test(value);
}
