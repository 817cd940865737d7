import { randomInt } from 'crypto';
import { sleep, type IHookFunctions } from 'n8n-workflow';

import { callService, fullTextOf, type Failure } from '../transport';
import type { HandlerRecord } from './state';

type RemovalFailure = { record: HandlerRecord; failure: Failure };

// Unpublish tries at about 0, 1, 3 and 7 s; none starts later than 10 s after the first.
export const RETRY_WAITS_MS = [1000, 2000, 4000];
const RETRY_BUDGET_MS = 10_000;

// A leftover is tried again at every publish and unpublish until it has had both, then dropped from
// the records: a publish never waits for it (each uses a new secret, so the trigger refuses a
// leftover's deliveries).
export const LEFTOVER_TRIES = 10;
export const LEFTOVER_DAYS = 30;
const DAY_MS = 86_400_000;

export function warn(this: IHookFunctions, text: string): void {
	this.logger.warn(text, { workflowId: this.getWorkflow().id, node: this.getNode().name });
}

/** How every text names a handler, and how the user removes one this trigger cannot. */
export const describeHandler = ({ name, id, type, url }: HandlerRecord) =>
	`"${name}" (${id ? `id ${id}` : 'no id'}, event type ${type}, URL ${url})`;

export const removeByHand = ({ id }: HandlerRecord) =>
	`To remove it by hand, ${id ? `run the Inventory Ops node's Webhook Handler → Remove with ID ${id}, or ` : ''}find it by its name in Inventory Ops and remove it there.`;

export const unremovableNotice = (record: HandlerRecord) =>
	`This trigger cannot remove the webhook handler ${describeHandler(record)}. ${removeByHand(record)}`;
export const unremovableNotices = (records: HandlerRecord[]) =>
	records.filter(({ id }) => id === undefined).map(unremovableNotice);

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
// The alphabets an id may be written in, smallest first.
const ID_ALPHABETS = [
	'0123456789',
	'0123456789abcdef',
	'0123456789ABCDEF',
	`0123456789${LETTERS}${LETTERS.toUpperCase()}`,
];

/**
 * An id the service cannot know: random, in `id`'s length and alphabet (a UUID's dashes in place);
 * none when too few random bits to be safe from a live handler's.
 */
export function unknownIdLike(id: string): string | undefined {
	const chars = id.replace(/[^a-z\d]/gi, '');
	const [alphabet] = ID_ALPHABETS.filter((letters) =>
		[...chars].every((char) => letters.includes(char)),
	);
	if (chars.length * Math.log2(alphabet.length) < 64) return undefined;
	return id.replace(/[a-z\d]/gi, () => alphabet[randomInt(alphabet.length)]);
}

// All at once: while n8n republishes, events find no handler. Retried (`waits`) at unpublish, the
// last chance.
export async function removeHandlerRecords(
	this: IHookFunctions,
	records: HandlerRecord[],
	waits: readonly number[],
): Promise<RemovalFailure[]> {
	const started = Date.now();
	// Undefined when the handler is gone: removed, or the answer proves that the service does not
	// know it.
	const failureOf = async (record: HandlerRecord) => {
		const outcome = await callService.call(this, 'webhookRemoveHandler', { _id: record.id });
		return outcome.kind === 'answered' || outcome.handler?.gone === true ? undefined : outcome;
	};
	const attempt = async (list: HandlerRecord[]) =>
		(
			await Promise.all(list.map(async (record) => ({ record, failure: await failureOf(record) })))
		).filter((entry): entry is RemovalFailure => entry.failure !== undefined);
	let failures = await attempt(records.filter((record) => record.id !== undefined));
	for (const wait of waits) {
		// A 5xx, no answer, or no connection: a repeat is safe (an unknown handler may be proven gone);
		// a refusal would recur.
		const retried = failures.filter(
			({ failure: { kind, details } }) =>
				kind === 'failed' || kind === 'noAnswer' || (kind === 'notSent' && details !== undefined),
		);
		if (retried.length === 0 || Date.now() - started + wait > RETRY_BUDGET_MS) break;
		await sleep(wait);
		const again = await attempt(retried.map(({ record }) => record));
		failures = [...failures.filter((failure) => !retried.includes(failure)), ...again];
	}
	return failures;
}

/**
 * Counts a failed try on each record and logs it; a record past both limits is dropped. `lead`
 * names the handler.
 */
export function keepOrDrop(
	this: IHookFunctions,
	failures: RemovalFailure[],
	lead: (handler: string) => string,
): HandlerRecord[] {
	const now = Date.now();
	return failures.flatMap(({ record, failure }) => {
		const kept = { ...record, tries: (record.tries ?? 0) + 1, keptSince: record.keptSince ?? now };
		const tried = `tried ${kept.tries} time(s) since ${new Date(kept.keptSince).toISOString()}`;
		const keep = kept.tries < LEFTOVER_TRIES || now - kept.keptSince < LEFTOVER_DAYS * DAY_MS;
		const what = keep
			? `${lead(describeHandler(kept))} ${fullTextOf(failure)} It stays recorded and is tried again at every publish and unpublish, until it has had ${LEFTOVER_TRIES} tries over ${LEFTOVER_DAYS} days (${tried}).`
			: `gave up removing the webhook handler ${describeHandler(kept)}, which may still exist (${tried}): it is no longer recorded. The last answer: ${fullTextOf(failure)}`;
		warn.call(this, `Inventory Ops Trigger: ${what} ${removeByHand(kept)}`);
		return keep ? [kept] : [];
	});
}
