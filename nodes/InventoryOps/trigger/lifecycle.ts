import { randomBytes } from 'crypto';
import { NodeOperationError, type IDataObject, type IHookFunctions } from 'n8n-workflow';

import {
	addHandlerBody,
	callService,
	findHandlerId,
	fullTextOf,
	learnUnknownIdAnswer,
	publishErrorOf,
	type Failure,
} from '../transport';
import {
	EVENT_TYPE_FORMAT,
	EVENT_TYPE_FORMAT_HINT,
	parseCustomEventTypes,
	withoutCoveredTypes,
} from '../shared/events';
import {
	describeHandler,
	keepOrDrop,
	removeByHand,
	removeHandlerRecords,
	RETRY_WAITS_MS,
	unknownIdLike,
	unremovableNotice,
	unremovableNotices,
	warn,
} from './removal';
import { EVENT_TYPE_HEADER, SECRET_HEADER } from './delivery';
import {
	readState,
	writeState,
	type HandlerRecord,
	type RegistrationKind,
	type TriggerState,
} from './state';

/** Picked (a list), typed (a text) or from an expression (either, or a list of both). */
function readEventList(this: IHookFunctions, field: string, label: string, hint = ''): string[] {
	const value = this.getNodeParameter(field, '') as unknown;
	const entries = (Array.isArray(value) ? value : [value]).filter(
		(entry) => entry !== null && entry !== undefined,
	);
	const types = parseCustomEventTypes(entries);
	const invalid = [
		...entries.filter((entry) => typeof entry !== 'string'),
		...types.filter((type) => !EVENT_TYPE_FORMAT.test(type)),
	];
	if (invalid.length === 0) return types;
	const verdict = invalid.length > 1 ? 'are not event types' : 'is not an event type';
	const message = `${label}: ${invalid.map((entry) => JSON.stringify(entry)).join(', ')} ${verdict}`;
	throw new NodeOperationError(this.getNode(), message, {
		description: EVENT_TYPE_FORMAT_HINT + hint,
	});
}

function selectedEventTypes(this: IHookFunctions): string[] {
	const events = readEventList.call(this, 'events', 'Events');
	const custom = readEventList.call(
		this,
		'customEventTypes',
		'Custom Event Types',
		' Separate several types with commas.',
	);
	return withoutCoveredTypes([...new Set([...events, ...custom])]);
}

/**
 * Takes out the handlers of `kind` at `url` (or any URL: it may have changed) and its leftovers.
 */
function takeHandlers(state: TriggerState, kind: RegistrationKind, url?: string): HandlerRecord[] {
	const taken = Object.values(state.registrations).filter(
		(entry) => entry.kind === kind && (url ?? entry.url) === entry.url,
	);
	for (const entry of taken) delete state.registrations[entry.url];
	const leftovers = state.leftovers.filter((record) => record.kind === kind);
	state.leftovers = state.leftovers.filter((record) => record.kind !== kind);
	return [...taken.flatMap((entry) => entry.handlers), ...leftovers];
}

/**
 * Failures are kept for the next try (keepOrDrop: `lead` logs each), each handler once: by id, or
 * as a record.
 */
async function removeOrKeep(
	this: IHookFunctions,
	state: TriggerState,
	records: HandlerRecord[],
	lead: (handler: string) => string,
	waits: readonly number[] = [],
) {
	const failures = await removeHandlerRecords.call(this, records, waits);
	const kept = [...state.leftovers, ...keepOrDrop.call(this, failures, lead)];
	state.leftovers = kept.filter(
		(record, index) =>
			kept.findIndex((other) => (other.id ?? other) === (record.id ?? record)) === index,
	);
	writeState(this.getWorkflowStaticData('node'), state);
	return failures;
}

/** checkExists, from our records alone. */
export async function recordedHandlersMatchSelection(this: IHookFunctions): Promise<boolean> {
	const url = this.getNodeWebhookUrl('default') as string;
	const state = readState(this.getWorkflowStaticData('node'));
	const registration = state.registrations[url];
	if (!registration?.secret) return false;
	const stale = [
		...Object.values(state.registrations).filter((other) => other.url !== url),
		...state.leftovers,
	];
	if (stale.some(({ kind }) => kind === registration.kind)) return false;
	const selected = selectedEventTypes.call(this);
	const held = new Set(registration.handlers.map((record) => record.type));
	return held.size === selected.length && selected.every((type) => held.has(type));
}

/**
 * Removes what a failed publish had added (n8n 2.x saves the static data of a failed attempt and
 * tries again; 1.x drops it), and the error that says what became of each handler. `failed`: the
 * handler whose add failed, `at` where in the selection.
 */
async function rollBack(
	this: IHookFunctions,
	state: TriggerState,
	added: HandlerRecord[],
	failed: HandlerRecord,
	outcome: Failure,
	at: string,
) {
	const doing = failed.kind === 'test' ? 'Listening for a test event' : 'Publishing';
	const failures = await removeOrKeep.call(
		this,
		state,
		added,
		(handler) =>
			`${doing.toLowerCase()} failed, and the webhook handler ${handler} it had added could not be removed.`,
	);
	const withoutId = added.filter((record) => record.id === undefined);
	const message = [
		`${doing} failed at the webhook handler for "${failed.type}" ${at}. ${fullTextOf(outcome)}`,
		added.length > 0
			? `Handlers added before it and removed again: ${added.length - failures.length - withoutId.length} of ${added.length}.`
			: '',
		...failures.map(
			({ record, failure }) =>
				`The webhook handler ${describeHandler(record)} could not be removed. ${fullTextOf(failure)} ${removeByHand(record)}`,
		),
		...withoutId.map(unremovableNotice),
		outcome.applied === 'no'
			? ''
			: `The failed add may have created its handler all the same. ${unremovableNotice(failed)} Each publish uses a new secret, so the trigger refuses its deliveries meanwhile.`,
		// Whether the service takes wildcards is open.
		failed.type.endsWith('.*')
			? `If the service takes no wildcards, select exact types instead, such as ${failed.type.slice(0, -1)}shipped.`
			: '',
	];
	return publishErrorOf(this.getNode(), outcome, message.filter(Boolean).join(' '));
}

/** create, all or nothing. */
export async function registerHandlers(this: IHookFunctions): Promise<boolean> {
	const url = this.getNodeWebhookUrl('default') as string;
	const kind: RegistrationKind = this.getMode() === 'manual' ? 'test' : 'production';
	const types = selectedEventTypes.call(this);
	if (types.length === 0)
		throw new NodeOperationError(
			this.getNode(),
			'Events: select at least one event or enter a custom event type',
		);
	const state = readState(this.getWorkflowStaticData('node'));
	const doing = kind === 'test' ? 'Listening for a test event' : 'Publishing';
	// Not a reason to stop: the new secret makes the trigger refuse a leftover's deliveries.
	const stale = takeHandlers(state, kind);
	await removeOrKeep.call(
		this,
		state,
		stale,
		(handler) =>
			`${doing.toLowerCase()} goes ahead without removing the webhook handler ${handler}, which an earlier registration left.`,
	);
	for (const notice of unremovableNotices(stale)) warn.call(this, notice);

	const secret = randomBytes(32).toString('hex');
	const workflow = this.getWorkflow();
	const added: HandlerRecord[] = [];
	for (const [index, type] of types.entries()) {
		const name = `n8n: ${workflow.name ?? 'workflow'} (workflow ${workflow.id ?? '?'}) - ${type}${kind === 'test' ? ' [test]' : ''}`;
		const headers = { [SECRET_HEADER]: secret, [EVENT_TYPE_HEADER]: type };
		const outcome = await callService.call(
			this,
			'webhookAddHandler',
			addHandlerBody({ type, name, url, method: 'POST', headers }),
		);
		if (outcome.kind === 'answered') {
			added.push({ type, id: findHandlerId(outcome.body), name, url, kind });
			continue;
		}
		throw await rollBack.call(
			this,
			state,
			added,
			{ type, name, url, kind },
			outcome,
			`(${index + 1} of ${types.length})`,
		);
	}

	// The adds just showed the service working: what it answers for an id it cannot know is what
	// proves a handler gone.
	const probeId = unknownIdLike(added.find((record) => record.id !== undefined)?.id ?? '');
	if (probeId) await learnUnknownIdAnswer.call(this, probeId);
	const { ignoreRepeatedDeliveries, includeHeaders } = this.getNodeParameter(
		'options',
		{},
	) as IDataObject;
	state.registrations[url] = {
		url,
		kind,
		secret,
		handlers: added,
		ignoreRepeats: ignoreRepeatedDeliveries !== false,
		includeHeaders: includeHeaders === true,
	};
	writeState(this.getWorkflowStaticData('node'), state);
	for (const notice of unremovableNotices(added)) warn.call(this, notice);
	return true;
}

export async function removeHandlers(this: IHookFunctions): Promise<boolean> {
	const url = this.getNodeWebhookUrl('default') as string;
	const state = readState(this.getWorkflowStaticData('node'));
	const registration = state.registrations[url];
	if (!registration) return true;

	const doing = registration.kind === 'test' ? 'stopping the test listener' : 'unpublishing';
	const failures = await removeOrKeep.call(
		this,
		state,
		takeHandlers(state, registration.kind, url),
		(handler) => `${doing} could not remove the webhook handler ${handler}.`,
		RETRY_WAITS_MS,
	);
	for (const notice of unremovableNotices(registration.handlers)) warn.call(this, notice);
	// n8n shows no error of `delete`, and a throw would make 1.x skip saving the records.
	return failures.length === 0;
}
