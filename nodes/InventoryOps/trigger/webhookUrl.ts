/**
 * Whether the service can plausibly reach the URL n8n gives the trigger. n8n builds it from its WEBHOOK_URL
 * setting, or from its own local address when that is not set; a hosted service cannot call localhost or a
 * private network. Only a warning: against the local sandbox such a URL is exactly right.
 */
const PRIVATE_HOST = [
	/^localhost$/i,
	/\.localhost$/i,
	/^127\./,
	/^10\./,
	/^192\.168\./,
	/^172\.(1[6-9]|2\d|3[01])\./,
	/^169\.254\./,
	/^0\.0\.0\.0$/,
	/^\[?::1?\]?$/,
	/^\[?f[cd][0-9a-f]{2}:/i,
	/^\[?fe80:/i,
];

/** The reason the URL cannot be reached from outside, or undefined when it can (or cannot be read). */
export function unreachableHost(url: string): string | undefined {
	let host: string;
	try {
		host = new URL(url).hostname;
	} catch {
		return undefined;
	}
	return PRIVATE_HOST.some((pattern) => pattern.test(host)) ? host : undefined;
}

export function webhookUrlWarning(url: string, host: string): string {
	return (
		`The webhook URL n8n gives this trigger, ${url}, points at ${host}, a local or private address: a hosted ` +
		'Inventory Ops service cannot deliver events there, so no event would arrive. Set n8n\'s WEBHOOK_URL ' +
		'environment variable to the public address of this n8n (e.g. https://n8n.example.com/) and restart n8n. ' +
		'Against a service on this machine or network (like the local sandbox), this is fine.'
	);
}
