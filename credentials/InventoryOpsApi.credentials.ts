import type {
	IAuthenticateGeneric,
	ICredentialType,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

export class InventoryOpsApi implements ICredentialType {
	name = 'inventoryOpsApi';

	displayName = 'Inventory Ops API';

	icon: Icon = { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-inventory-ops/n8n-nodes-inventory-ops#set-up-the-credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The bearer token (a JWT) issued for your account',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:5680/api',
			description:
				'The {base_url} of the service, used for orders, kits and webhook handlers. The default points at the local sandbox.',
		},
		{
			displayName: 'App Base URL',
			name: 'appBaseUrl',
			type: 'string',
			required: true,
			default: 'http://127.0.0.1:5680/s',
			description:
				'The {app_base_url} of the service, ending in /s, used to restore shipment inventory. The default points at the local sandbox.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	// No declarative `test` here: n8n prefers it over the nodes' `testedBy`, and the nodes' test method
	// (nodes/InventoryOps/transport/credentialTest.ts) retries a transient 429 and says what a 401, a 403 or a
	// wrong Base URL means.
}
