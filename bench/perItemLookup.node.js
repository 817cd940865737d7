'use strict';

// Bench only (never shipped): what a user without this package builds with the HTTP Request node,
// reduced to its HTTP work so that it is not slowed by anything but the calls: one get_single_bulk
// call per input item, one item at a time, through n8n's own request helper with the same
// credential. It runs through the same engine as ours, so the engine's share of the time is the
// same on both sides.
class BenchPerItemLookup {
	description = {
		displayName: 'Bench Per-Item Lookup',
		name: 'benchPerItemLookup',
		group: ['transform'],
		version: 1,
		description: 'One bulk lookup call per input item (benchmark baseline)',
		defaults: { name: 'Per-Item Lookup' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'inventoryOpsApi', required: true }],
		properties: [
			{ displayName: 'Store ID', name: 'storeId', type: 'string', default: '' },
			{ displayName: 'Order Number', name: 'orderNumber', type: 'string', default: '' },
		],
	};

	async execute() {
		const items = this.getInputData();
		const { baseUrl } = await this.getCredentials('inventoryOpsApi');
		const url = `${String(baseUrl).replace(/\/+$/, '')}/order/get_single_bulk`;
		const output = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			const reference = {
				store_id: this.getNodeParameter('storeId', itemIndex),
				order_number: this.getNodeParameter('orderNumber', itemIndex),
			};
			const answer = await this.helpers.httpRequestWithAuthentication.call(
				this,
				'inventoryOpsApi',
				{
					method: 'POST',
					url,
					body: { order: [reference] },
					json: true,
				},
			);
			for (const entry of answer)
				output.push({ json: entry.order ?? entry, pairedItem: { item: itemIndex } });
		}
		return [output];
	}
}

module.exports = { BenchPerItemLookup };
