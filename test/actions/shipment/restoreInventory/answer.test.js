// The reading of a restore's answer (actions/shipment/answer.ts): which shipment record is the one
// restored, and what the answer lacks. The same reading over real HTTP:
// restoreInventory.answers.test.js beside this file.
const path = require('node:path');

const answer = require(
	path.resolve(__dirname, '../../../../dist/nodes/InventoryOps/actions/shipment/answer.js'),
);

describe('readRestoreAnswer picks the restored shipment by every selector given', () => {
	const record = (id, tracking, carrier) => ({
		_id: id,
		response: { tracking_number: tracking, shipment_id: carrier },
		request: { order_items: [{ sku: id, quantity: 1 }] },
	});
	const shipments = [record('s1', 'T1', 'C1'), record('s2', 'T2', 'C2'), record('s3', 'T2', 'C3')];

	test.each([
		[{ shipment_id: 's2' }, 's2'],
		[{ tracking_number: 'T1' }, 's1'],
		[{ carrier_shipment_id: 'C3' }, 's3'],
		[{ tracking_number: 'T2', carrier_shipment_id: 'C2' }, 's2'],
	])('%j -> %s', (selectors, id) => {
		const restored = shipments.find((shipment) => shipment._id === id);
		const restoredItems = [{ sku: id, quantity: 1 }];
		expect(answer.readRestoreAnswer({ _id: 'o', shipments }, selectors)).toEqual({
			shipments,
			restored,
			restoredItems,
			missing: [],
		});
	});

	test('two records matching, or none, is named rather than guessed', () => {
		expect(
			answer.readRestoreAnswer({ _id: 'o', shipments }, { tracking_number: 'T2' }).missing,
		).toEqual(['the restored shipment (got 2 records matching it)']);
		expect(
			answer.readRestoreAnswer({ _id: 'o', shipments }, { shipment_id: 'nope' }).restored,
		).toBeUndefined();
	});

	test('shipments that are not a list of records, and a missing _id', () => {
		expect(
			answer.readRestoreAnswer({ shipments: [record('s1'), 'x', 3] }, { shipment_id: 's1' }),
		).toEqual({
			missing: ['_id (got nothing)', 'shipments (got a list with 2 entries that are not records)'],
		});
		expect(answer.readRestoreAnswer({ _id: 'o', shipments: 'none' }, {}).missing).toEqual([
			'shipments (got text "none")',
		]);
	});

	test("restoredItems: the restored record's request.order_items; a record without a list of them is named as lacking it", () => {
		const lacks = {
			restoredItems: undefined,
			missing: ["the restored shipment's request.order_items"],
		};
		for (const restored of [{ _id: 's1', request: { order_items: 'A' } }, { _id: 's1' }]) {
			expect(
				answer.readRestoreAnswer({ _id: 'o', shipments: [restored] }, { shipment_id: 's1' }),
			).toEqual({ shipments: [restored], restored, ...lacks });
		}
	});
});
