'use strict';

// What every lookup scenario shares: the input items it is given, and a fingerprint of the orders
// it found, so the parent can check that ours, per item and limit all found the same set of orders.
const { createHash } = require('node:crypto');

/** One input item per reference: `{ store_id, order_number }`, as a workflow would carry them. */
const inputItems = (references) =>
	references.map(({ store_id, order_number }) => ({ store_id, order_number }));

/**
 * Counts the distinct (store_id, order_number) pairs of the orders found and hashes their sorted
 * list.
 */
function fingerprint(orders) {
	const keys = new Set();
	for (const order of orders) {
		if (order && typeof order._id === 'string') keys.add(`${order.store_id}/${order.order_number}`);
	}
	const sorted = [...keys].sort();
	return {
		found: sorted.length,
		digest: createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 16),
	};
}

module.exports = { inputItems, fingerprint };
