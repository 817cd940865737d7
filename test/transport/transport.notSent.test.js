// A call that could not be sent changed nothing, and the node says so instead of "may or may not
// have applied" (transport/verdicts.ts, networkVerdict): through n8n's engine, to a port where
// nothing listens. A host that does not resolve: test/credential/inventoryOpsApi.addresses.test.js.
const { closedPort } = require('../helpers/closedPort');
const { useInventoryOps } = require('../helpers/inventoryOps');

const ctx = useInventoryOps({ orders: 5 });

test('a kit create to a port where nothing listens: not sent, nothing changed', async () => {
	const credentials = {
		...ctx.sandbox.credentials(),
		baseUrl: `http://127.0.0.1:${await closedPort()}/api`,
	};
	const result = await ctx.run(
		{ resource: 'kit', operation: 'create', name: 'Kit', sku: 'KIT-NOT-SENT' },
		{ credentials },
	);
	expect(result.error.errorResponse).toMatchObject({
		outcome: 'notSent',
		changeApplied: 'no',
		sent: false,
		changesData: true,
		endpoint: '/kit/create',
		networkError: expect.stringContaining('ECONNREFUSED'),
	});
	expect(result.error.message).toBe('Could not connect to the service: /kit/create was not sent.');
	expect(result.error.description).toMatch(
		/^Nothing was sent \([^)]*ECONNREFUSED[^)]*\), so nothing changed: check the Base URL in the credential, and that n8n can reach the service\.$/,
	);
	expect(await ctx.sandbox.kits()).toEqual([]);
});

test('a restore to a port where nothing listens names the App Base URL', async () => {
	const credentials = {
		...ctx.sandbox.credentials(),
		appBaseUrl: `http://127.0.0.1:${await closedPort()}/s`,
	};
	const result = await ctx.run(
		{
			resource: 'shipment',
			operation: 'restoreInventory',
			storeId: 's1',
			orderNumber: '1001',
			trackingNumber: 'T1',
		},
		{ credentials, continueOnFail: true },
	);
	expect(result.items[0].json.details).toMatchObject({
		outcome: 'notSent',
		changeApplied: 'no',
		endpoint: '/ship/shipping/restore_inventory',
	});
	// Which credential field to check: only the words say.
	expect(result.items[0].json.details.description).toMatch(
		/check the App Base URL in the credential/,
	);
});
