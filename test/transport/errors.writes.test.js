// The whole text a user reads when a write fails (issue 59): the error item's `error` (n8n's
// message) and `details.description`, under Continue On Fail, through n8n's engine against the
// sandbox, for each operation that changes data (Kit -> Create, Shipment -> Restore Inventory,
// Webhook Handler -> Add and Remove), when the service answers a 5xx, answers nothing after it
// acted (`drop: 'after'`), answers a 2xx the node cannot read, or refuses. Each text is written out
// whole, so that a sentence added anywhere fails it. These tests guard mutants Stryker once listed
// as equivalent, each an empty string replaced by "Stryker was here!":
// - nodes/InventoryOps/transport/outcome.ts, failureFromNetwork, the advice of a write:
//   `changesData ? '' : advice` (the no-answer texts below);
// - outcome.ts, failureFromUnreadable, the advice of a write:
//   `changesData ? '' : 'This call only reads data; nothing was changed.'` (the unreadable texts);
// - outcome.ts, failureFromAnswer, the advice:
//   `applied === 'maybe' || handler?.evidence !== undefined ? '' : advice` (the 5xx texts, and
//   Remove's refusal with a doubt), and `moreThanSaid ? overview.trim() : ''` (all but the 503s);
// - nodes/InventoryOps/transport/render.ts, APPLIED_DOUBTS `no: ''` (the refusals), and doubtsOf's
//   handler doubt `... : ''` (every text but Remove's refusal, which has a doubt).
// Every answer is a fault with its body given verbatim, and the switches that shape the sandbox's
// own answers are fixed, so every profile gives the same words.
const { useInventoryOps } = require('../helpers/inventoryOps');

const KIT = '/api/kit/create';
const RESTORE = '/s/ship/shipping/restore_inventory';
const ADD = '/api/webhook/add_handler';
const REMOVE = '/api/webhook/remove_handler';
const ctx = useInventoryOps({
	orders: 50,
	config: {
		errorBodies: 'spec',
		errorCodes: 'sandbox',
		refusals: 'status',
		removeUnknown: '404',
		wildcards: 'suffix',
		addHandlerId: 'top',
	},
});

// The doubts render.ts words, as the user reads them (written out, not read from the code).
const MAYBE =
	'The service may or may not have applied this change, so it was not sent again: check the service before trying again.';
const PROBABLY =
	'The success status says the change was probably applied, so it was not sent again: check the service before trying again.';

let shipment; // a seeded shipment that deducted inventory: { store_id, order_number, _id }
beforeAll(async () => {
	const orders = await ctx.sandbox.orders({ limit: 50 });
	const order = orders.find((candidate) =>
		candidate.shipments.some((record) => record.deducted && !record.voided),
	);
	const record = order.shipments.find((candidate) => candidate.deducted && !candidate.voided);
	shipment = { store_id: order.store_id, order_number: order.order_number, _id: record._id };
});

const OPERATIONS = {
	'Kit -> Create': {
		route: KIT,
		path: '/kit/create',
		parameters: async () => ({
			resource: 'kit',
			operation: 'create',
			name: 'Kit',
			sku: 'KIT-WRITE-TEXTS',
		}),
		applied: async () => (await ctx.sandbox.kits()).length === 1,
	},
	'Shipment -> Restore Inventory': {
		route: RESTORE,
		path: '/ship/shipping/restore_inventory',
		parameters: async () => ({
			resource: 'shipment',
			operation: 'restoreInventory',
			storeId: shipment.store_id,
			orderNumber: shipment.order_number,
			shipmentId: shipment._id,
		}),
		applied: async () => {
			const [order] = await ctx.sandbox.orders({
				store_id: shipment.store_id,
				order_number: shipment.order_number,
			});
			return order.shipments.find((record) => record._id === shipment._id).deducted === false;
		},
	},
	'Webhook Handler -> Add': {
		route: ADD,
		path: '/webhook/add_handler',
		parameters: async () => ({
			resource: 'webhookHandler',
			operation: 'add',
			eventType: 'order.status.*',
			name: 'Write texts',
			url: 'https://example.com/hooks/write-texts',
			method: 'POST',
		}),
		applied: async () => (await ctx.sandbox.handlers()).length === 1,
	},
	'Webhook Handler -> Remove': {
		route: REMOVE,
		path: '/webhook/remove_handler',
		parameters: async () => ({
			resource: 'webhookHandler',
			operation: 'remove',
			handlerId: await ctx.sandbox.addHandler(),
		}),
		applied: async () => (await ctx.sandbox.handlers()).length === 0,
	},
};
const each = Object.entries(OPERATIONS);

/**
 * Runs the operation once under Continue On Fail; returns its one item's json, after checking it is
 * an error item.
 */
async function failedItem(name) {
	const result = await ctx.run(await OPERATIONS[name].parameters(), { continueOnFail: true });
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].pairedItem).toEqual({ item: 0 });
	return result.items[0].json;
}

describe('a 5xx: the change may have been made', () => {
	test.each(each)('%s, a 500 with only a message', async (name, { route, path }) => {
		await ctx.sandbox.fault({
			route,
			count: 1,
			status: 500,
			body: { error: { message: 'disk full' } },
		});
		const json = await failedItem(name);
		expect(json.error).toBe(
			`The service failed (500) during ${path}. The service said: disk full. ${MAYBE}`,
		);
		expect(json.details.description).toBe(MAYBE);
		expect(json.details).toMatchObject({
			httpCode: '500',
			outcome: 'failed',
			changeApplied: 'maybe',
		});
		expect(await ctx.sandbox.calls(route)).toHaveLength(1);
	});

	test.each(each)(
		'%s, a 503 with an overview beyond its message, a code and a trace id',
		async (name, { route, path }) => {
			const body = {
				error: {
					message: 'Try later',
					overview: 'The warehouse database is being upgraded.',
					code: 'UPGRADING',
					serviceTraceId: 'trace-503',
				},
			};
			await ctx.sandbox.fault({ route, count: 1, status: 503, body });
			const json = await failedItem(name);
			expect(json.error).toBe(
				`The service failed (503) during ${path}. The service said: Try later. ${MAYBE}`,
			);
			expect(json.details.description).toBe(
				`${MAYBE} The warehouse database is being upgraded. The service's code: UPGRADING. Trace id: trace-503.`,
			);
			expect(json.details).toMatchObject({
				httpCode: '503',
				outcome: 'failed',
				changeApplied: 'maybe',
			});
		},
	);
});

describe('no answer after the service acted (the connection closed before the answer)', () => {
	test.each(each)('%s', async (name, { route, path, applied }) => {
		await ctx.sandbox.fault({ route, count: 1, drop: 'after' });
		const json = await failedItem(name);
		expect(json.error).toBe(
			`The connection to the service was lost during ${path} before an answer arrived. ${MAYBE}`,
		);
		expect(json.details.description).toBe(MAYBE);
		expect(json.details).toMatchObject({
			outcome: 'noAnswer',
			changeApplied: 'maybe',
			sent: true,
			timedOut: false,
		});
		// The service did act, and the write was not sent again.
		expect(await applied()).toBe(true);
		expect(await ctx.sandbox.calls(route)).toHaveLength(1);
	});
});

describe('a 2xx the node cannot read: the change was probably made', () => {
	const UNREADABLE = {
		'Kit -> Create': ['OK', 'text "OK" where an object was expected'],
		'Shipment -> Restore Inventory': [[], 'a list of 0 entries where an object was expected'],
		'Webhook Handler -> Add': [[{ _id: 'h-1' }], 'a list of 1 entry where an object was expected'],
		// remove_handler says whether it removed: without success true or false, it is unreadable.
		'Webhook Handler -> Remove': [
			{ removed: 1 },
			'an object with removed, without success true or false',
		],
	};
	test.each(each)('%s', async (name, { route, path }) => {
		const [body, what] = UNREADABLE[name];
		await ctx.sandbox.fault({ route, count: 1, status: 200, body });
		const json = await failedItem(name);
		expect(json.error).toBe(`The service answered ${path} with ${what}. ${PROBABLY}`);
		expect(json.details.description).toBe(PROBABLY);
		expect(json.details).toMatchObject({ outcome: 'unreadable', changeApplied: 'probably' });
		expect(await ctx.sandbox.calls(route)).toHaveLength(1);
	});
});

// A refusal says the change was not made: no doubt at all, only the reading's advice
// (APPLIED_DOUBTS `no: ''`).
describe('a refusal: nothing changed, and no doubt is added', () => {
	const REFUSALS = {
		'Kit -> Create': [
			409,
			'SKU taken',
			'The service refused /kit/create as a conflict (409)',
			'Its SKU may be used by another item or kit already.',
		],
		'Shipment -> Restore Inventory': [
			409,
			'already restored',
			'The service refused the restore as a conflict (409), so nothing was restored',
			'It may be already restored, or never have deducted stock: check the shipment in Inventory Ops.',
		],
		'Webhook Handler -> Add': [
			400,
			'bad url',
			'The service refused /webhook/add_handler as invalid (400)',
			'Check the fields the service names.',
		],
	};
	test.each(Object.entries(REFUSALS))('%s', async (name, [status, said, conclusion, advice]) => {
		await ctx.sandbox.fault({
			route: OPERATIONS[name].route,
			count: 1,
			status,
			body: { error: { message: said } },
		});
		const json = await failedItem(name);
		expect(json.error).toBe(`${conclusion}. The service said: ${said}.`);
		expect(json.details.description).toBe(advice);
		expect(json.details).toMatchObject({
			httpCode: String(status),
			outcome: 'refused',
			changeApplied: 'no',
		});
	});

	// A doubt on the handler replaces the refusal's advice (in failureFromAnswer:
	// `handler?.evidence !== undefined ? ''`).
	test('Webhook Handler -> Remove, a bare success: false: the handler doubt, in both texts, and nothing else', async () => {
		await ctx.sandbox.fault({ route: REMOVE, count: 1, status: 200, body: { success: false } });
		const json = await failedItem('Webhook Handler -> Remove');
		const doubt =
			'Nothing shows that the service does not know the handler: the answer held nothing to tell it apart. The handler may still exist: check it in Inventory Ops.';
		expect(json.error).toBe(
			`The service refused /webhook/remove_handler with success: false. ${doubt}`,
		);
		expect(json.details.description).toBe(doubt);
		expect(json.details).toMatchObject({
			httpCode: '200',
			outcome: 'refused',
			changeApplied: 'no',
			handlerGone: false,
		});
	});
});
