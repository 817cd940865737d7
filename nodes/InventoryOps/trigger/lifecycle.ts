import { NodeOperationError, type IHookFunctions } from 'n8n-workflow';

import { addHandlerBody, findHandlerId, inventoryOpsApiRequest } from '../transport';
import { isWildcardPattern } from '../shared/events';
import {
	describeHandler,
	logContext,
	removeHandlerRecords,
	unremovableNotice,
	unremovedReport,
	type RemovalFailure,
} from './removal';
import { EVENT_TYPE_HEADER } from './eventBody';
import { createSecret, SECRET_HEADER } from './secret';
import { readDeliveryOptions, readSelectedEventTypes } from './selection';
import { unreachableHost, webhookUrlWarning } from './webhookUrl';
import { readState, writeState, type HandlerRecord, type RegistrationKind, type TriggerState } from './state';

function currentWebhookUrl(this: IHookFunctions): string {
	const url = this.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(this.getNode(), 'n8n gave this trigger no webhook URL');
	return url;
}

/** n8n activates a test registration ("listen for test event") in manual mode, a published workflow otherwise. */
function activationKind(this: IHookFunctions): RegistrationKind {
	return this.getMode() === 'manual' ? 'test' : 'production';
}

function handlerName(this: IHookFunctions, type: string, kind: RegistrationKind): string {
	const { id, name } = this.getWorkflow();
	return `n8n: ${name ?? 'workflow'} (workflow ${id ?? '?'}) - ${type}${kind === 'test' ? ' [test]' : ''}`;
}

/**
 * Takes out of the state everything of this kind that an earlier activation left: its registrations (at any
 * URL, since the URL may have changed since) and the handlers whose removal failed before.
 */
function takeStaleHandlers(state: TriggerState, kind: RegistrationKind): HandlerRecord[] {
	let stale: HandlerRecord[] = [];
	for (const [url, registration] of Object.entries(state.registrations)) {
		if (registration.kind !== kind) continue;
		stale = stale.concat(registration.handlers);
		delete state.registrations[url];
	}
	stale = stale.concat(state.leftovers.filter((record) => record.kind === kind));
	state.leftovers = state.leftovers.filter((record) => record.kind !== kind);
	return stale;
}

/**
 * Records what could not be removed, so that the next activation tries again. Handlers without an id are not kept:
 * nothing could ever remove them; the user is told about them in the log (and in every event while active).
 */
function keepUnremoved(state: TriggerState, failures: RemovalFailure[]): void {
	const seen = new Set<string>();
	state.leftovers = [...state.leftovers, ...failures.map(({ record }) => record)].filter((record) => {
		const key = record.id ?? `${record.type} ${record.name} ${record.addedAt}`;
		return !seen.has(key) && Boolean(seen.add(key));
	});
}

/**
 * All in the message, which 2.x's toast and n8n's activation-error record show; n8n 1.x's toast would show a
 * NodeApiError's description instead (workflow.service.js). Set after construction, which would replace a message
 * containing e.g. "EPERM" with a generic text.
 */
function userError(this: IHookFunctions, cause: unknown, message: string): NodeOperationError {
	const error = new NodeOperationError(this.getNode(), cause instanceof Error ? cause : String(cause));
	error.message = message;
	return error;
}

/**
 * checkExists: true only when our records (static data, not the service: it is not asked) hold one handler per
 * selected type for this URL from an activation of ours.
 */
export async function recordedHandlersMatchSelection(this: IHookFunctions): Promise<boolean> {
	const url = currentWebhookUrl.call(this);
	const state = readState(this.getWorkflowStaticData('node'));
	const registration = state.registrations[url];
	if (registration === undefined || registration.secret === '') return false;
	const kind = registration.kind;
	const otherRegistrations = Object.values(state.registrations).filter(
		(other) => other.kind === kind && other.url !== url,
	);
	if (otherRegistrations.length > 0 || state.leftovers.some((record) => record.kind === kind)) return false;
	const selected = readSelectedEventTypes.call(this);
	const held = new Set(registration.handlers.map((record) => record.type));
	return held.size === selected.length && selected.every((type) => held.has(type));
}

async function addHandler(
	this: IHookFunctions,
	type: string,
	url: string,
	secret: string,
	kind: RegistrationKind,
): Promise<HandlerRecord> {
	const name = handlerName.call(this, type, kind);
	const body = addHandlerBody({ type, name, url, method: 'POST', headers: { [SECRET_HEADER]: secret, [EVENT_TYPE_HEADER]: type } });
	const answer = await inventoryOpsApiRequest.call(this, 'webhookAddHandler', body);
	return { type, id: findHandlerId(answer), name, url, kind, addedAt: new Date().toISOString() };
}

/**
 * Activation: removes what earlier activations left, then adds one handler per selected type with a fresh secret.
 * All or nothing: when one add fails, the handlers added so far are removed again before the error is thrown.
 */
export async function registerHandlers(this: IHookFunctions): Promise<boolean> {
	const url = currentWebhookUrl.call(this);
	const kind = activationKind.call(this);
	const unreachable = unreachableHost(url);
	if (unreachable !== undefined) this.logger.warn(webhookUrlWarning(url, unreachable), logContext.call(this));
	const types = readSelectedEventTypes.call(this);
	if (types.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Events: select at least one event or enter a custom event type');
	}
	const staticData = this.getWorkflowStaticData('node');
	const state = readState(staticData);

	const stale = takeStaleHandlers(state, kind);
	const staleFailures = await removeHandlerRecords.call(this, stale);
	const staleWithoutId = stale.filter((record) => record.id === undefined);
	keepUnremoved(state, staleFailures);
	for (const record of staleWithoutId) this.logger.warn(unremovableNotice(record), logContext.call(this));
	writeState(staticData, state);
	const doing = kind === 'test' ? 'Listening for a test event' : 'Publishing';
	if (staleFailures.length > 0) {
		throw userError.call(
			this,
			staleFailures[0].error,
			`${doing} stopped before adding any handler, so that no event type gets two: ${unremovedReport(staleFailures, ' an earlier registration left')} They stay recorded; the next try removes them first.`,
		);
	}

	const secret = createSecret();
	const added: HandlerRecord[] = [];
	for (const [index, type] of types.entries()) {
		try {
			added.push(await addHandler.call(this, type, url, secret, kind));
		} catch (error) {
			// Kept for the next try: n8n 2.x saves the static data of a failed attempt and tries again; 1.x drops it.
			const rollbackFailures = await removeHandlerRecords.call(this, added);
			keepUnremoved(state, rollbackFailures);
			writeState(staticData, state);
			const withoutId = added.filter((record) => record.id === undefined);
			const rolledBack = added.length - rollbackFailures.length - withoutId.length;
			const cause = error instanceof Error ? error.message : String(error);
			const message = [
				`${doing} failed at the webhook handler for "${type}" (${index + 1} of ${types.length}). ${cause.replace(/[^.!?]$/, '$&.')}`,
				added.length > 0 ? `Handlers added before it and removed again: ${rolledBack} of ${added.length}.` : '',
				rollbackFailures.length > 0 ? unremovedReport(rollbackFailures) : '',
				withoutId.length > 0
					? `Added without an id, so they cannot be removed by this trigger: ${withoutId.map(describeHandler).join(', ')}.`
					: '',
				// A service may not take suffix wildcards (docs/service-interface.md, Complete list of event types and the wildcard syntax).
				isWildcardPattern(type)
					? `If the service takes no wildcards, select the exact event types instead (for example ${type.slice(0, -1)}shipped).`
					: '',
			];
			throw userError.call(this, error, message.filter(Boolean).join(' '));
		}
	}

	state.registrations[url] = {
		url,
		kind,
		secret,
		handlers: added,
		delivery: readDeliveryOptions.call(this),
	};
	writeState(staticData, state);
	for (const record of added.filter((handler) => handler.id === undefined)) {
		this.logger.warn(unremovableNotice(record), logContext.call(this));
	}
	return true;
}

/**
 * Deactivation: removes every handler this URL's activation added. A handler the service no longer knows counts
 * as removed; a failed removal is tried again for a few seconds, then stays recorded for the next activation.
 */
export async function removeHandlers(this: IHookFunctions): Promise<boolean> {
	const url = currentWebhookUrl.call(this);
	const staticData = this.getWorkflowStaticData('node');
	const state = readState(staticData);
	const registration = state.registrations[url];
	if (registration === undefined) return true;

	delete state.registrations[url];
	const retried = state.leftovers.filter((record) => record.kind === registration.kind);
	state.leftovers = state.leftovers.filter((record) => record.kind !== registration.kind);
	const failures = await removeHandlerRecords.call(this, [...registration.handlers, ...retried], true);
	const withoutId = registration.handlers.filter((record) => record.id === undefined);
	keepUnremoved(state, failures);
	writeState(staticData, state);

	for (const record of withoutId) this.logger.warn(unremovableNotice(record), logContext.call(this));
	if (failures.length > 0) {
		// Only the log: neither n8n line shows the user an error of `delete` (1.x's ActiveWorkflowManager.remove and 2.x's
		// publication service log it), and a throw would make 1.x skip saving these records (clearWebhooks).
		this.logger.warn(
			`Inventory Ops Trigger: ${registration.kind === 'test' ? 'stopping the test listener' : 'unpublishing'} left handlers on the service. ${unremovedReport(failures)} They stay recorded; the next publish of this workflow removes them first.`,
			logContext.call(this),
		);
		return false;
	}
	return true;
}
