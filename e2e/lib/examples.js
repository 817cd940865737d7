// The example workflows `npm run dev` puts in n8n: one per action-node operation and one trigger workflow, each
// filled with data that exists in the seeded sandbox, so that "Execute workflow" works on the first click.
const { actionWorkflow, triggerWorkflow } = require('./workflows');

async function admin(sandbox, path) {
	const response = await fetch(`${sandbox.adminUrl}${path}`);
	if (!response.ok) throw new Error(`sandbox admin ${path} answered ${response.status}`);
	return await response.json();
}

/** Seeded records the examples point at: two orders, one with a deducted shipment, and two items. */
async function seededSamples(sandbox) {
	const { orders } = await admin(sandbox, '/orders?limit=200');
	const withDeductedShipment = orders.find((order) => order.shipments.some((s) => s.deducted && !s.voided));
	const shipment = withDeductedShipment.shipments.find((s) => s.deducted && !s.voided);
	const { items } = await admin(sandbox, '/items');
	return { orders: orders.slice(0, 2), withDeductedShipment, shipment, items: items.slice(0, 2) };
}

async function exampleWorkflows(sandbox, credential) {
	const { orders, withDeductedShipment, shipment, items } = await seededSamples(sandbox);
	return [
		actionWorkflow('Inventory Ops: look up orders in bulk', credential, [
			{
				name: 'Look Up Orders',
				parameters: {
					resource: 'order',
					operation: 'getMany',
					lookUpBy: 'list',
					references: JSON.stringify(
						orders.map(({ store_id, order_number }) => ({ store_id, order_number })),
						null,
						2,
					),
				},
			},
		]),
		actionWorkflow('Inventory Ops: create a kit', credential, [
			{
				name: 'Create Kit',
				parameters: {
					resource: 'kit',
					operation: 'create',
					name: 'Mug gift set',
					// A new SKU on every run: the service refuses a duplicate kit SKU.
					sku: "={{ 'KIT-MUGS-' + $now.toMillis() }}",
					kitItems: {
						item: items.map((item) => ({ itemId: item.item_id, sku: item.sku, quantity: 1, type: 'item' })),
					},
					additionalFields: { retail: 24.9, description: 'Two mugs in a gift box' },
				},
			},
		]),
		actionWorkflow('Inventory Ops: restore the inventory a shipment deducted', credential, [
			{
				name: 'Restore Inventory',
				parameters: {
					resource: 'shipment',
					operation: 'restoreInventory',
					storeId: withDeductedShipment.store_id,
					orderNumber: withDeductedShipment.order_number,
					trackingNumber: shipment.response.tracking_number,
				},
			},
		]),
		actionWorkflow('Inventory Ops: add and remove a webhook handler', credential, [
			{
				name: 'Add Handler',
				parameters: {
					resource: 'webhookHandler',
					operation: 'add',
					eventType: 'order.shipped',
					name: 'Example handler',
					url: 'https://example.com/hooks/order-shipped',
				},
			},
			{
				name: 'Remove Handler',
				parameters: { resource: 'webhookHandler', operation: 'remove', handlerId: '={{ $json._id }}' },
			},
		]),
		triggerWorkflow('Inventory Ops: when an order ships, look it up', credential, ['order.shipped'], {
			triggerName: 'When An Order Ships',
			steps: [
				{
					name: 'Look Up The Order',
					parameters: {
						resource: 'order',
						operation: 'getMany',
						lookUpBy: 'fields',
						storeId: '={{ $json.data.store_id }}',
						orderNumber: '={{ $json.data.order_number }}',
					},
				},
			],
		}),
	];
}

module.exports = { exampleWorkflows, seededSamples };
