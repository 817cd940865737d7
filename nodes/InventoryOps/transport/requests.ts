import type { IDataObject } from 'n8n-workflow';

/** What a webhook handler is registered with; the one shape both nodes send to add_handler. */
interface HandlerRegistration {
	type: string;
	name: string;
	url: string;
	method: string;
	headers: IDataObject;
}

/** The add_handler body (docs/service-interface.md, The five operations): `type`, `name`, `handler`. */
export function addHandlerBody(registration: HandlerRegistration): IDataObject {
	const { type, name, url, method, headers } = registration;
	return { type, name, handler: { url, method, headers } };
}
