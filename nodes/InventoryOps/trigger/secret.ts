import { createHash, randomBytes, timingSafeEqual } from 'crypto';

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

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Compares in constant time. Both sides are hashed first so that the comparison never depends on, or leaks, the
 * length of what was received. Fails closed: no stored secret, or no received value, never matches.
 */
export function secretMatches(expected: unknown, received: unknown): boolean {
	if (typeof expected !== 'string' || expected === '') return false;
	if (typeof received !== 'string' || received === '') return false;
	return timingSafeEqual(digest(expected), digest(received));
}
