export function joinUrl(base: string, path: string): string {
	return `${base.replace(/\/+$/, '')}${path}`;
}

export function isHttpUrl(value: string): boolean {
	return /^https?:\/\/[^/]/i.test(value);
}

/**
 * The last segment of a path that no operation serves. An answer proves little alone: a 404 may be
 * the service's "no such handler" or anyone's "no such path" (the service's own, a gateway's, a
 * wrong address's). The same request to the path beside it, which nothing serves, tells them apart
 * (docs/service-interface.md, Authentication).
 */
export const NOWHERE = 'no-such-operation-n8n-path-check';

export function pathBeside(url: string): string {
	return url.slice(0, url.lastIndexOf('/') + 1) + NOWHERE;
}
