/** How many recent event ids each registration remembers to recognise a repeated delivery. */
const RECENT_EVENT_IDS = 1000;
/** How many registrations (published triggers) one n8n process remembers ids for; the oldest is forgotten first. */
const REMEMBERED_REGISTRATIONS = 500;

/**
 * Event ids seen per registration, in this process's memory. Static data is no place for them: n8n writes a
 * delivery's whole static data back after the run (1.x), so concurrent deliveries overwrite each other's ids and a
 * delivery that loaded before a re-activation puts the old registration back; 2.x does not save a delivery's change
 * at all. Memory is checked and updated in one synchronous step, so deliveries in flight in one process never both
 * pass. Its reach: one process, until it restarts (see README, "Repeated deliveries").
 */
const seenByRegistration = new Map<string, Set<string>>();

/**
 * A registration is one activation: its URL and its fresh secret. The key keeps the secret's first 16 hex digits
 * (64 random bits): enough to tell activations apart, not enough to stand in for the secret. No hash per delivery.
 */
export function registrationKey(url: string, secret: string): string {
	return `${url}\n${secret.slice(0, 16)}`;
}

/** True when `eventId` was already seen for this registration; otherwise remembers it and returns false. */
export function isRepeatedDelivery(key: string, eventId: string): boolean {
	let seen = seenByRegistration.get(key);
	if (seen === undefined) {
		seen = new Set();
		seenByRegistration.set(key, seen);
		if (seenByRegistration.size > REMEMBERED_REGISTRATIONS) {
			seenByRegistration.delete(seenByRegistration.keys().next().value as string);
		}
	}
	if (seen.has(eventId)) return true;
	seen.add(eventId);
	// A Set iterates in insertion order, so its first entry is the oldest id.
	if (seen.size > RECENT_EVENT_IDS) seen.delete(seen.values().next().value as string);
	return false;
}
