import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { EVENT_TYPE_FORMAT_HINT, EVENT_TYPE_OPTIONS, isEventTypeFormat } from '../../shared/events';
import { optionsCollection } from '../helpers/descriptions';
import { forEachItem, requestForItem } from '../helpers/execution';
import { ItemValidator } from '../helpers/validation';
import { withoutUrlCredentialsDeep } from '../../shared/redact';
import { addHandlerBody, findHandlerId } from '../../transport';

const CUSTOM_EVENT = 'custom';
const HTTP_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'];

const EVENT_TYPE_CHOICES: INodePropertyOptions[] = [
	...EVENT_TYPE_OPTIONS,
	{
		name: 'Custom',
		value: CUSTOM_EVENT,
		description: 'Any other event type, typed below (the service list is not closed)',
	},
];

const properties: INodeProperties[] = [
	{
		displayName: 'Event Type',
		name: 'eventType',
		type: 'options',
		options: EVENT_TYPE_CHOICES,
		default: 'order.shipped',
		description: 'The event type the handler is registered for; a value ending in .* matches every event under it',
	},
	{
		displayName: 'Custom Event Type',
		name: 'customEventType',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. order.status.* or item.created',
		description: 'The event type the handler is for. End it with .* to match every type under it.',
		displayOptions: { show: { eventType: [CUSTOM_EVENT] } },
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Notify warehouse',
		description: 'A friendly name for the handler',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/hooks/inventory',
		description: 'The address the service calls when the event happens',
	},
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: HTTP_METHODS.map((method) => ({ name: method, value: method })),
		default: 'POST',
		description: 'The HTTP method the service uses to call the URL',
	},
	{
		displayName: 'Headers',
		name: 'headers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Header',
		default: {},
		description: 'Headers the service sends with each call, e.g. a shared secret',
		options: [
			{
				displayName: 'Header',
				name: 'header',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	optionsCollection(),
];

const displayOptions = { show: { resource: ['webhookHandler'], operation: ['add'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const check = new ItemValidator(this.getNode(), itemIndex);
		const selected = this.getNodeParameter('eventType', itemIndex) as string;
		const type =
			selected === CUSTOM_EVENT
				? check.text(this.getNodeParameter('customEventType', itemIndex, ''), 'Custom Event Type')
				: check.text(selected, 'Event Type');
		if (!isEventTypeFormat(type)) {
			check.fail(selected === CUSTOM_EVENT ? 'Custom Event Type' : 'Event Type', `must be an event type, not ${JSON.stringify(type)}. ${EVENT_TYPE_FORMAT_HINT}`);
		}
		const url = check.url(this.getNodeParameter('url', itemIndex, ''), 'URL');
		const method = check.text(this.getNodeParameter('method', itemIndex, 'POST'), 'Method').toUpperCase();
		if (!HTTP_METHODS.includes(method)) check.fail('Method', `must be one of ${HTTP_METHODS.join(', ')}`);
		const request = {
			type,
			name: check.text(this.getNodeParameter('name', itemIndex, ''), 'Name'),
			url: url.url,
			method,
			headers: check.headers(this.getNodeParameter('headers.header', itemIndex, []), 'Headers'),
		};
		const response = await requestForItem.call(this, 'webhookAddHandler', addHandlerBody(request), itemIndex);
		// Header values and a password in the URL may be secrets, so they are not echoed back.
		const result: IDataObject = withoutUrlCredentialsDeep({
			...response,
			type,
			name: request.name,
			url: url.shown,
			method,
		});
		if (url.hasCredentials) {
			result.urlCredentialsRemoved = true;
			result.warning =
				'The URL carries a user name or password. It was removed from this output, but the service stores the URL as given and sends it with every delivery: prefer a header for secrets.';
		}
		const handlerId = findHandlerId(response);
		if (handlerId === undefined) {
			result.idReturned = false;
			result.notice =
				'The service did not return an _id for the new handler, so this node cannot give one. Find the handler on the service before removing it.';
		} else {
			result._id = handlerId;
			result.idReturned = true;
		}
		return result;
	});
}
