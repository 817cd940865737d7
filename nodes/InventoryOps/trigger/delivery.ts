import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { matchesAnyEventType } from '../shared/events';
import { unremovableNotice } from './removal';
import { SECRET_HEADER, secretMatches } from './secret';
import { isRepeatedDelivery, registrationKey } from './repeats';
import { readDeliveryOptions } from './selection';
import { readRegistration, readState, type Registration } from './state';
import { EVENT_TYPE_HEADER, readDeliveredEvents } from './eventBody';

function reply(this: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	this.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * The registration of the URL this request arrived on: the test URL while listening for a test event, the
 * production URL otherwise. getWebhookResourceUrl names the served URL; n8n versions without it only give the
 * production URL, so there a test request (manual mode) is matched with the one test registration.
 */
function findRegistration(this: IWebhookFunctions, staticData: IDataObject): Registration | undefined {
	if (typeof this.getWebhookResourceUrl === 'function') {
		const url = this.getWebhookResourceUrl('default');
		return url === undefined ? undefined : readRegistration(staticData, url);
	}
	if (this.getMode() !== 'manual') {
		const url = this.getNodeWebhookUrl('default');
		return url === undefined ? undefined : readRegistration(staticData, url);
	}
	const state = readState(staticData);
	const testRegistrations = Object.values(state.registrations).filter((registration) => registration.kind === 'test');
	return testRegistrations.length === 1 ? testRegistrations[0] : undefined;
}

function headersWithoutSecret(headers: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== SECRET_HEADER));
}

/**
 * Checks one delivery and turns it into one item. Nothing runs unless the secret header matches the secret stored
 * for the URL it arrived on: a missing or wrong secret, or no stored secret at all, gets 401.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const registration = findRegistration.call(this, this.getWorkflowStaticData('node'));
	const headers = this.getHeaderData() as IDataObject;
	if (registration === undefined || !secretMatches(registration.secret, headers[SECRET_HEADER])) {
		return reply.call(this, 401, { error: 'Missing or invalid webhook secret' });
	}

	// An empty header names no type (HTTP strips the spaces around a value): the same as none, not a type ''.
	const typeHeader = headers[EVENT_TYPE_HEADER];
	const registeredType = typeof typeHeader === 'string' && typeHeader !== '' ? typeHeader : undefined;
	const events = readDeliveredEvents(this.getBodyData(), registeredType);
	if (events === undefined) {
		return reply.call(this, 400, {
			error: 'The body is not an Inventory Ops event: expected JSON (an event, an array of events, or a record)',
		});
	}

	// The types the handlers were registered for and the Options kept at activation are the published version's:
	// no parameter read (a registration from before the Options were kept reads them).
	const registeredTypes = registration.handlers.map((record) => record.type);
	const options = registration.delivery ?? readDeliveryOptions.call(this);
	// The handlers the service gave no id for: the user has to remove them by hand later.
	const warnings = registration.handlers.filter((record) => record.id === undefined).map(unremovableNotice);
	const receivedAt = new Date().toISOString();
	const ignored: string[] = [];
	const items: IDataObject[] = [];
	let repeatsKey: string | undefined;
	for (const event of events) {
		if (!matchesAnyEventType(registeredTypes, event.type)) {
			ignored.push(`event type ${event.type} is not selected`);
			continue;
		}
		if (options.ignoreRepeats && event.id !== undefined) {
			repeatsKey ??= registrationKey(registration.url, registration.secret);
			if (isRepeatedDelivery(repeatsKey, event.id)) {
				ignored.push(`event ${event.id} was already received`);
				continue;
			}
		}
		const json: IDataObject = {
			eventId: event.id ?? null,
			eventType: event.type,
			createdAt: event.createdAt ?? null,
			receivedAt,
			data: event.data as IDataObject,
		};
		if (event.raw !== undefined) json.rawBody = event.raw as IDataObject;
		if (options.includeHeaders) json.headers = headersWithoutSecret(headers);
		if (warnings.length > 0) json.warnings = warnings;
		items.push(json);
	}
	if (items.length === 0) {
		return { webhookResponse: { received: true, ignored: ignored.length === 1 ? ignored[0] : ignored } };
	}
	return { workflowData: [this.helpers.returnJsonArray(items)] };
}
