// Orders are built when first read (prebuild: false here). What a caller did before must never
// change how an order looks when it is built, and reset must bring back the seeded state.
const { start } = require('./support');

let client;
let pristine;
beforeAll(async () => {
	[client, pristine] = await Promise.all([
		start({ orders: 400, prebuild: false }),
		start({ orders: 400, prebuild: false }),
	]);
});
afterAll(() => Promise.all([client.close(), pristine.close()]));

const everyOrder = () =>
	Array.from({ length: 400 }, (_, i) => ({
		store_id: String(1001 + (i % 4)),
		order_number: String(1000 + Math.floor(i / 4)),
	}));
const lookUp = async (sandbox, refs) => (await sandbox.bulk(refs, {})).data;

test('kits created before an order is first read do not change the order', async () => {
	const items = (await client.admin.get('/items')).items;
	for (let i = 0; i < 5; i++) {
		const response = await client.api('/kit/create', {
			data: {
				name: `Kit ${i}`,
				sku: `KIT-D-${i}`,
				items: [{ item_id: items[i].item_id, quantity: 1 }],
			},
		});
		expect(response.status).toBe(200);
	}
	const refs = everyOrder().slice(0, 200);
	expect(await lookUp(client, refs)).toEqual(await lookUp(pristine, refs));
	await client.reset();
});

test('after a restore and reset, orders read in between look as seeded again', async () => {
	// Orders 200-399 were never read on `client` (the test above read 0-199). Restore a shipment of
	// an item that some of them hold, so that they carry the restored stock in their inventory
	// snapshot when first read.
	const unread = everyOrder().slice(200);
	const seeded = await lookUp(pristine, unread);
	const heldLater = new Set(
		seeded.flatMap((entry) => entry.order.items.map((item) => item.item_id)),
	);
	const { shipments } = await client.admin.get('/shipments', { deducted: 'true', limit: 100 });
	const shipment = shipments.find((s) =>
		s.request.order_items.some((line) => heldLater.has(line.item_id)),
	);
	const restored = await client.app('/ship/shipping/restore_inventory', {
		store_id: shipment.store_id,
		order_number: shipment.order_number,
		shipment_id: shipment._id,
	});
	expect(restored.status).toBe(200);
	expect(await lookUp(client, unread)).not.toEqual(seeded);
	// After reset every order is back to its seeded form.
	await client.reset();
	expect(await lookUp(client, everyOrder())).toEqual(await lookUp(pristine, everyOrder()));
});
