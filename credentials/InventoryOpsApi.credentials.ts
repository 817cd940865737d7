import type { IAuthenticateGeneric, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

export class InventoryOpsApi implements ICredentialType {
	name = 'inventoryOpsApi';

	displayName = 'Inventory Ops API';

	icon: Icon = { light: 'file:inventoryOps.svg', dark: 'file:inventoryOps.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-inventory-ops/n8n-nodes-inventory-ops#set-up-the-credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The access token (a JWT) your Inventory Ops account issued for n8n',
		},
		// No default address: a saved credential must never point at a machine the user did not choose.
		// `npm run dev`, the e2e harness, the tests and the benchmarks fill in the sandbox's addresses
		// themselves.
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://inventory.example.com/api',
			description:
				'The API address your Inventory Ops account uses: the start of every API address, before /order/…. Orders, kits and webhook handlers are reached here.',
		},
		{
			displayName: 'App Base URL',
			name: 'appBaseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://inventory.example.com/s',
			description:
				'The address your Inventory Ops account uses for shipping, usually ending in /s: the start of the address before /ship/…. Restore Inventory is reached here.',
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

	// No declarative `test` here: n8n prefers it over the nodes' `testedBy`, and the nodes' test
	// method (nodes/InventoryOps/transport/credentialTest.ts) retries a transient 429, checks the App
	// Base URL too, and says what a 401, a 403 or a wrong address means.
}
