// A credential whose address is empty (the field's default) or not an http(s) address: nothing can
// be sent, and the node says that in those words, naming the credential field, instead of reporting
// a lost connection that "may have applied" a write. Read at the sandbox: no call arrives.
const { useInventoryOps } = require('../helpers/inventoryOps');

const ctx = useInventoryOps({ orders: 5 });

const kitParameters = {
	resource: 'kit',
	operation: 'create',
	inputMode: 'fields',
	name: 'Bundle',
	sku: 'KIT-1',
	kitItems: { item: [{ itemId: 'i1', sku: '', quantity: 1, type: 'item' }] },
};
const restoreParameters = {
	resource: 'shipment',
	operation: 'restoreInventory',
	storeId: 's1',
	orderNumber: '1001',
	trackingNumber: 'T1',
};

test.each([
	[
		'an empty Base URL',
		kitParameters,
		{ baseUrl: '' },
		"The credential's Base URL is empty for item 0: nothing was sent to /kit/create.",
		'Base URL',
	],
	[
		'a Base URL of spaces',
		kitParameters,
		{ baseUrl: '   ' },
		"The credential's Base URL is empty for item 0: nothing was sent to /kit/create.",
		'Base URL',
	],
	[
		'a Base URL that is not text (a number from an import)',
		kitParameters,
		{ baseUrl: 5 },
		"The credential's Base URL is empty for item 0: nothing was sent to /kit/create.",
		'Base URL',
	],
	[
		'an App Base URL without http(s)',
		restoreParameters,
		{ appBaseUrl: 'ftp://files.example.com' },
		'The credential\'s App Base URL is "ftp://files.example.com", not an http(s) address for item 0: nothing was sent to /ship/shipping/restore_inventory.',
		'App Base URL',
	],
	[
		'an App Base URL with no host',
		restoreParameters,
		{ appBaseUrl: 'https:///s' },
		'The credential\'s App Base URL is "https:///s", not an http(s) address for item 0: nothing was sent to /ship/shipping/restore_inventory.',
		'App Base URL',
	],
])(
	'%s: the item fails naming the field, and no call is sent',
	async (_, parameters, address, message, field) => {
		const credentials = { ...ctx.sandbox.credentials(), ...address };
		const result = await ctx.run(parameters, { credentials, continueOnFail: true });
		expect(result.items.map((item) => item.json)).toEqual([
			{
				error: message,
				details: {
					description: `Set ${field} in the credential to the service's https:// (or http://) address, for example https://inventory.example.com/${field === 'Base URL' ? 'api' : 's'}. If it is an expression, it must give that address for every item.`,
				},
			},
		]);
		expect(await ctx.sandbox.calls()).toEqual([]);
	},
);

test('the other address may be empty: Kit -> Create needs only the Base URL', async () => {
	const credentials = { ...ctx.sandbox.credentials(), appBaseUrl: '' };
	const result = await ctx.run(
		{ ...kitParameters, kitItems: { item: [] } },
		{ credentials, continueOnFail: true },
	);
	expect(result.items[0].json.error ?? '').not.toMatch(/credential's/);
	expect(await ctx.sandbox.calls()).not.toEqual([]);
});

test('a host that does not resolve: nothing was sent, so nothing changed, and no time-out even when its name says "timeout"', async () => {
	// The verdict is read from the error's code (getaddrinfo's ENOTFOUND, or EAI_AGAIN where no
	// resolver answers), never from the host name inside the words ("getaddrinfo ENOTFOUND
	// timeout-replica.invalid").
	const credentials = {
		...ctx.sandbox.credentials(),
		baseUrl: 'http://timeout-replica.invalid/api',
	};
	const result = await ctx.run(kitParameters, { credentials, continueOnFail: true });
	expect(result.items.map((item) => item.json)).toEqual([
		{
			error: 'Could not connect to the service: /kit/create was not sent.',
			details: expect.objectContaining({
				sent: false,
				timedOut: false,
				changesData: true,
				endpoint: '/kit/create',
			}),
		},
	]);
	expect(result.items[0].json.details.description).toMatch(
		/^Nothing was sent \((ENOTFOUND|EAI_AGAIN|getaddrinfo)[^)]*\), so nothing changed: check the Base URL in the credential/,
	);
});

test('a Base URL pasted with spaces around it is used without them: the call reaches the service', async () => {
	const credentials = { ...ctx.sandbox.credentials(), baseUrl: `  ${ctx.sandbox.baseUrl}  ` };
	const result = await ctx.run(
		{ ...kitParameters, kitItems: { item: [] } },
		{ credentials, continueOnFail: true },
	);
	expect(result.items.map((item) => item.json)).toEqual([
		expect.objectContaining({ success: true }),
	]);
	expect((await ctx.sandbox.calls()).map((call) => call.status)).toEqual([200]);
});
