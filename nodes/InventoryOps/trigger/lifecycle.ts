import { randomBytes } from 'crypto';
import { NodeOperationError, type IDataObject, type IHookFunctions } from 'n8n-workflow';

import { addHandlerBody, findHandlerId, inventoryOpsApiRequest } from '../transport';
import {
	combineEventTypes,
	EVENT_TYPE_FORMAT_HINT,
	isEventTypeFormat,
	isWildcardPattern,
	parseCustomEventTypes,
	withoutCoveredTypes,
} from '../shared/events';
import {
	describeHandler,
	logContext,
	removeHandlerRecords,
	unremovableNotice,
	unremovedReport,
	type RemovalFailure,
} from './removal';
import { EVENT_TYPE_HEADER, SECRET_HEADER } from './delivery';
import { readState, writeState, type HandlerRecord, type RegistrationKind, type TriggerState } from './state';

// n8n builds the webhook URL from WEBHOOK_URL, or from its local address: right for the sandbox, not for a hosted service.
const PRIVATE_HOST =
	/^(127|10|192\.168|172\.(1[6-9]|2\d|3[01])|169\.254)\.|^0\.0\.0\.0$|(^|\.)localhost$|^\[(::1?\]|f[cd][0-9a-f]{2}:|fe80:)/i;

export function unreachableUrlWarning(url: string): string | undefined {
	const host = URL.canParse(url) ? new URL(url).hostname : '';
	if (!PRIVATE_HOST.test(host)) return undefined;
	return `The webhook URL n8n gives this trigger, ${url}, points at ${host}, a local or private address: a hosted Inventory Ops cannot deliver there. Set n8n's WEBHOOK_URL to its public address and restart n8n (fine for a service on this network, like the sandbox).`;
}

const EVENT_LISTS = {
	events: { label: 'Events', hint: '' },
	customEventTypes: { label: 'Custom Event Types', hint: ' Separate several types with commas.' },
};

/** Picked (a list), typed (a text) or from an expression (either, or a list of both). */
function readEventList(this: IHookFunctions, field: keyof typeof EVENT_LISTS): string[] {
	const { label, hint } = EVENT_LISTS[field];
	const value = this.getNodeParameter(field, '') as unknown;
	const entries = (Array.isArray(value) ? value : [value]).filter((entry) => entry !== null && entry !== undefined);
	const types = parseCustomEventTypes(entries);
	const invalid = [
		...entries.filter((entry) => typeof entry !== 'string').map((entry) => JSON.stringify(entry)),
		...types.filter((type) => !isEventTypeFormat(type)).map((type) => `"${type}"`),
	];
	if (invalid.length > 0) {
		const verdict = invalid.length > 1 ? 'are not event types' : 'is not an event type';
		throw new NodeOperationError(this.getNode(), `${label}: ${invalid.join(', ')} ${verdict}`, {
			description: `${EVENT_TYPE_FORMAT_HINT}${hint}`,
		});
	}
	return types;
}

function selectedEventTypes(this: IHookFunctions): string[] {
	return withoutCoveredTypes(combineEventTypes(readEventList.call(this, 'events'), readEventList.call(this, 'customEventTypes')));
}

function takeLeftovers(state: TriggerState, kind: RegistrationKind): HandlerRecord[] {
	const taken = state.leftovers.filter((record) => record.kind === kind);
	state.leftovers = state.leftovers.filter((record) => record.kind !== kind);
	return taken;
}

/** At any URL: it may have changed. */
function takeStaleHandlers(state: TriggerState, kind: RegistrationKind): HandlerRecord[] {
	const stale = Object.values(state.registrations).filter((registration) => registration.kind === kind);
	for (const { url } of stale) delete state.registrations[url];
	return [...stale.flatMap((registration) => registration.handlers), ...takeLeftovers(state, kind)];
}

/** Each handler once: by id, or (without one, only read from static data) as a record. */
function keepUnremoved(state: TriggerState, failures: RemovalFailure[]): void {
	const seen = new Set<unknown>();
	state.leftovers = [...state.leftovers, ...failures.map(({ record }) => record)].filter((record) => {
		const key = record.id ?? record;
		return !seen.has(key) && Boolean(seen.add(key));
	});
}

// All in the message (2.x's toast); set after construction, which would replace e.g. "EPERM" with a generic text.
function activationError(this: IHookFunctions, cause: unknown, message: string): NodeOperationError {
	return Object.assign(new NodeOperationError(this.getNode(), cause instanceof Error ? cause : String(cause)), { message });
}

function warnUnremovable(this: IHookFunctions, records: HandlerRecord[]): void {
	for (const record of records.filter((handler) => handler.id === undefined)) {
		this.logger.warn(unremovableNotice(record), logContext.call(this));
	}
}

/** checkExists, from our records: the service is not asked. */
export async function recordedHandlersMatchSelection(this: IHookFunctions): Promise<boolean> {
	const url = this.getNodeWebhookUrl('default') as string;
	const state = readState(this.getWorkflowStaticData('node'));
	const registration = state.registrations[url];
	if (!registration?.secret) return false;
	const stale = [...Object.values(state.registrations).filter((other) => other.url !== url), ...state.leftovers];
	if (stale.some(({ kind }) => kind === registration.kind)) return false;
	const selected = selectedEventTypes.call(this);
	const held = new Set(registration.handlers.map((record) => record.type));
	return held.size === selected.length && selected.every((type) => held.has(type));
}

async function addHandler(this: IHookFunctions, type: string, url: string, secret: string, kind: RegistrationKind): Promise<HandlerRecord> {
	const { id, name: workflowName } = this.getWorkflow();
	const name = `n8n: ${workflowName ?? 'workflow'} (workflow ${id ?? '?'}) - ${type}${kind === 'test' ? ' [test]' : ''}`;
	const headers = { [SECRET_HEADER]: secret, [EVENT_TYPE_HEADER]: type };
	const answer = await inventoryOpsApiRequest.call(this, 'webhookAddHandler', addHandlerBody({ type, name, url, method: 'POST', headers }));
	return { type, id: findHandlerId(answer), name, url, kind };
}

/** create, all or nothing. */
export async function registerHandlers(this: IHookFunctions): Promise<boolean> {
	const url = this.getNodeWebhookUrl('default') as string;
	const kind: RegistrationKind = this.getMode() === 'manual' ? 'test' : 'production';
	const warning = unreachableUrlWarning(url);
	if (warning !== undefined) this.logger.warn(warning, logContext.call(this));
	const types = selectedEventTypes.call(this);
	if (types.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Events: select at least one event or enter a custom event type');
	}
	const staticData = this.getWorkflowStaticData('node');
	const state = readState(staticData);

	const stale = takeStaleHandlers(state, kind);
	const staleFailures = await removeHandlerRecords.call(this, stale);
	keepUnremoved(state, staleFailures);
	warnUnremovable.call(this, stale);
	writeState(staticData, state);
	const doing = kind === 'test' ? 'Listening for a test event' : 'Publishing';
	if (staleFailures.length > 0) {
		throw activationError.call(
			this,
			staleFailures[0].error,
			`${doing} stopped before adding any handler, so that no event type gets two: ${unremovedReport(staleFailures, ' an earlier registration left')} They stay recorded; the next try removes them first.`,
		);
	}

	const secret = randomBytes(32).toString('hex');
	const added: HandlerRecord[] = [];
	for (const [index, type] of types.entries()) {
		try {
			added.push(await addHandler.call(this, type, url, secret, kind));
		} catch (error) {
			// n8n 2.x saves the static data of a failed attempt and tries again; 1.x drops it.
			const rollbackFailures = await removeHandlerRecords.call(this, added);
			keepUnremoved(state, rollbackFailures);
			writeState(staticData, state);
			const withoutId = added.filter((record) => record.id === undefined);
			const rolledBack = added.length - rollbackFailures.length - withoutId.length;
			const cause = (error instanceof Error ? error.message : String(error)).replace(/[^.!?]$/, '$&.');
			const message = [
				`${doing} failed at the webhook handler for "${type}" (${index + 1} of ${types.length}). ${cause}`,
				added.length > 0 ? `Handlers added before it and removed again: ${rolledBack} of ${added.length}.` : '',
				rollbackFailures.length > 0 ? unremovedReport(rollbackFailures) : '',
				withoutId.length > 0
					? `Added without an id, so they cannot be removed by this trigger: ${withoutId.map(describeHandler).join(', ')}.`
					: '',
				// Whether the service takes suffix wildcards is open (docs/service-interface.md).
				isWildcardPattern(type)
					? `If the service takes no wildcards, select the exact event types instead (for example ${type.slice(0, -1)}shipped).`
					: '',
			];
			throw activationError.call(this, error, message.filter(Boolean).join(' '));
		}
	}

	const options = this.getNodeParameter('options', {}) as IDataObject;
	const ignoreRepeats = options.ignoreRepeatedDeliveries !== false;
	state.registrations[url] = { url, kind, secret, handlers: added, ignoreRepeats, includeHeaders: options.includeHeaders === true };
	writeState(staticData, state);
	warnUnremovable.call(this, added);
	return true;
}

export async function removeHandlers(this: IHookFunctions): Promise<boolean> {
	const url = this.getNodeWebhookUrl('default') as string;
	const staticData = this.getWorkflowStaticData('node');
	const state = readState(staticData);
	const registration = state.registrations[url];
	if (registration === undefined) return true;

	delete state.registrations[url];
	const failures = await removeHandlerRecords.call(this, [...registration.handlers, ...takeLeftovers(state, registration.kind)], true);
	keepUnremoved(state, failures);
	writeState(staticData, state);

	warnUnremovable.call(this, registration.handlers);
	if (failures.length === 0) return true;
	// Neither n8n line shows an error of `delete`, and a throw would make 1.x skip saving the records (clearWebhooks).
	const doing = registration.kind === 'test' ? 'stopping the test listener' : 'unpublishing';
	this.logger.warn(
		`Inventory Ops Trigger: ${doing} left handlers on the service. ${unremovedReport(failures)} They stay recorded; the next publish of this workflow removes them first.`,
		logContext.call(this),
	);
	return false;
}
