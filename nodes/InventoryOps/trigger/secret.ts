import { randomBytes, timingSafeEqual } from 'crypto';

/**
 * The header that carries the shared secret on every delivery. The service sends a handler's headers verbatim
 * and signs nothing (docs/service-interface.md, Delivery retries, time-outs and signing), so the secret itself is the
 * proof of origin.
 */
export const SECRET_HEADER = 'x-inventory-ops-webhook-secret';

/** A fresh secret for one activation: 32 random bytes, hex encoded. */
export function createSecret(): string {
	return randomBytes(32).toString('hex');
}

/**
 * Compares in constant time. Every secret this trigger creates is 64 hex characters, so a received value of another
 * length is refused without comparing and its length tells nothing that is not public. Fails closed: no stored
 * secret, or no received value, never matches.
 */
export function secretMatches(expected: unknown, received: unknown): boolean {
	if (typeof expected !== 'string' || expected === '') return false;
	if (typeof received !== 'string' || received.length !== expected.length) return false;
	const expectedBytes = Buffer.from(expected, 'utf8');
	const receivedBytes = Buffer.from(received, 'utf8');
	return receivedBytes.length === expectedBytes.length && timingSafeEqual(expectedBytes, receivedBytes);
}
