import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { EVENT_TYPE_FORMAT, EVENT_TYPE_FORMAT_HINT, EVENT_TYPE_OPTIONS } from '../../shared/events';
import { withoutUrlCredentials, withoutUrlCredentialsDeep } from '../../shared/redact';
import { addHandlerBody, findHandlerId } from '../../transport';
import { optionsCollection, requiredText } from '../helpers/descriptions';
import { answerLacks, forEachItem, requestForItem } from '../helpers/perItem';

const CUSTOM_EVENT = 'custom';
const HTTP_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'];
const EVENT_TYPES = [
	...EVENT_TYPE_OPTIONS,
	{ name: 'Custom', value: CUSTOM_EVENT, description: 'Any other event type, typed below' },
];

export const description: INodeProperties[] = [
	{
		displayName: 'Event Type',
		name: 'eventType',
		type: 'options',
		options: EVENT_TYPES,
		default: 'order.shipped',
		description: 'One ending in .* matches every event type under it',
	},
	{
		...requiredText(
			'Custom Event Type',
			'customEventType',
			'End it with .* to match every event type under it',
			'e.g. order.status.*',
		),
		displayOptions: { show: { eventType: [CUSTOM_EVENT] } },
	},
	requiredText('Name', 'name', 'A name for the handler', 'e.g. Notify warehouse'),
	requiredText(
		'URL',
		'url',
		'The address the service calls when the event happens',
		'e.g. https://example.com/hooks/inventory',
	),
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: HTTP_METHODS.map((name) => ({ name, value: name })),
		default: 'POST',
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
				values: ['Name', 'Value'].map((displayName) => ({
					displayName,
					name: displayName.toLowerCase(),
					type: 'string',
					default: '',
				})),
			},
		],
	},
	optionsCollection(),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (check, read) => {
		const custom = read('eventType') === CUSTOM_EVENT;
		const typeField = custom ? 'Custom Event Type' : 'Event Type';
		const type = check.text(read(custom ? 'customEventType' : 'eventType'), typeField);
		if (!EVENT_TYPE_FORMAT.test(type))
			check.fail(
				typeField,
				`must be an event type, not ${JSON.stringify(type)}. ${EVENT_TYPE_FORMAT_HINT}`,
			);
		const url = check.url(read('url'), 'URL');
		const method = check.oneOf(
			check.text(read('method', 'POST'), 'Method').toUpperCase(),
			'Method',
			HTTP_METHODS,
		);
		const name = check.text(read('name'), 'Name');
		const headers = check.headers(read('headers.header', []) as IDataObject[], 'Headers');
		const response = await requestForItem.call(
			this,
			'webhookAddHandler',
			addHandlerBody({ type, name, url, method, headers }),
			check,
		);
		const warning =
			'The user name and password are removed here, but the service stores the URL as given: prefer a header for secrets.';
		const removed =
			withoutUrlCredentials(url) !== url ? { urlCredentialsRemoved: true, warning } : {};
		// Header values and a password in the URL may be secrets, so they are not echoed back.
		const result = withoutUrlCredentialsDeep({ ...response, type, name, url, method, ...removed });
		const _id = findHandlerId(response);
		const identified =
			_id === undefined
				? answerLacks('added the handler', ['_id'], 'Find it on the service to remove it.')
				: { _id };
		return { ...result, ...identified, idReturned: _id !== undefined };
	});
}
