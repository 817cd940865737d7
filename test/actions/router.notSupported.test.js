// The router's last word: a resource it does not know stops the run with an error naming the pair,
// and no call goes out. The editor only offers known pairs, but workflows also arrive by import and
// API; n8n passes a stored value it cannot display on as it is. Through n8n's engine, against the
// sandbox over real HTTP.
const { useInventoryOps } = require('../helpers/inventoryOps');

const ctx = useInventoryOps({ orders: 10 });

test('a resource given as a list instead of one name: the run fails naming the operation and resource, nothing is sent', async () => {
	// n8n's display rules read a list as any of its entries, so the Webhook Handler fields are kept
	// and filled; the router compares the resource as given, which is no resource it knows.
	const result = await ctx.run(
		{
			resource: ['webhookHandler'],
			operation: 'add',
			eventType: 'order.shipped',
			name: 'Notify warehouse',
			url: 'https://example.com/hooks/inventory',
		},
		{ items: [{}, {}] },
	);
	expect(result.items).toEqual([]);
	expect(result.error).toMatchObject({
		name: 'NodeOperationError',
		message: 'The operation "add" of resource ["webhookHandler"] is not supported',
		description: 'Choose the resource and operation again.',
	});
	expect(await ctx.sandbox.calls()).toEqual([]);
});

test('a resource given as a list whose entry looks like an expression is no expression: the run fails naming the pair', async () => {
	// Only text is an expression passed on as text; a list is compared as given, like any other list.
	const result = await ctx.run(
		{
			resource: ['webhookHandler', '{{ $json.r }}'],
			operation: 'add',
			eventType: 'order.shipped',
			name: 'Notify warehouse',
			url: 'https://example.com/hooks/inventory',
		},
		{ items: [{}] },
	);
	expect(result.items).toEqual([]);
	expect(result.error).toMatchObject({
		name: 'NodeOperationError',
		message: 'The operation "add" of resource ["webhookHandler","{{ $json.r }}"] is not supported',
	});
	expect(await ctx.sandbox.calls()).toEqual([]);
});

test.each([
	['an operation of another resource', 'kit', 'add'],
	['an operation no resource has', 'webhookHandler', 'nope'],
	['a name that is not an operation but is exported beside them', 'kit', 'description'],
	// A list of one name would read as that name as a key: the router takes only a name.
	['an operation given as a list of one name', 'webhookHandler', ['add']],
])(
	'%s: the run fails naming the pair, not with a TypeError, and nothing is sent',
	async (_, resource, operation) => {
		const result = await ctx.run(
			{ resource, operation, eventType: 'order.shipped', name: 'n', url: 'https://example.com/h' },
			{ items: [{}] },
		);
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: `The operation ${JSON.stringify(operation)} of resource "${resource}" is not supported`,
		});
		expect(await ctx.sandbox.calls()).toEqual([]);
	},
);

// The pair is read once for all items, so an imported expression for it must name the setting it
// sits in.
test.each([
	[{ resource: '={{ $json.r }}', operation: 'add' }, 'Resource'],
	[{ resource: 'webhookHandler', operation: '={{ $json.r }}' }, 'Operation'],
])(
	'%j: the run fails naming %s as taking no expression, and nothing is sent',
	async (pair, setting) => {
		const result = await ctx.run(
			{
				...pair,
				eventType: 'order.shipped',
				name: 'Notify warehouse',
				url: 'https://example.com/hooks/inventory',
			},
			{ items: [{ json: { r: 'webhookHandler' } }, { json: { r: 'add' } }] },
		);
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: `'${setting}' takes no expression: it holds for the whole run, and n8n passed "{{ $json.r }}" on as text`,
		});
		expect(await ctx.sandbox.calls()).toEqual([]);
	},
);
