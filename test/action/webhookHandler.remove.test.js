// Webhook Handler -> Remove through n8n's engine against the sandbox.
const { useInventoryOps } = require('../helpers/inventoryOps');
const { answers, errorSeen } = require('../helpers/profile');

const REMOVE = '/api/webhook/remove_handler';
const ctx = useInventoryOps({ orders: 10 });

test('remove sends the _id and outputs the answer; an unknown _id is a 404 error item', async () => {
	const id = await ctx.sandbox.addHandler();
	const result = await ctx.run(
		{ resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json.id }}' },
		{ items: [{ id }, { id }], continueOnFail: true },
	);
	expect((await ctx.sandbox.calls(REMOVE)).map((call) => call.body)).toEqual([{ _id: id }, { _id: id }]);
	expect(result.items[0]).toEqual({ json: { _id: id, success: true, removed: true }, pairedItem: { item: 0 } });
	// The profile's service says "unknown handler" with a 404, or with a bare 200 success: false (nothing removed).
	expect(result.items[1]).toEqual(
		answers.removeUnknown === 'success-false'
			? {
					json: { _id: id, success: false, removed: false, notice: expect.stringMatching(/^Nothing was removed/) },
					pairedItem: { item: 1 },
				}
			: {
					json: {
						error: expect.any(String),
						details: expect.objectContaining({
							httpCode: '404',
							...(errorSeen(404).code ? { code: 'HANDLER_NOT_FOUND' } : {}),
						}),
					},
					pairedItem: { item: 1 },
				},
	);
	expect(await ctx.sandbox.handlers()).toEqual([]);
});
