'use strict';

const { buildOrder, FIRST_ORDER_NUMBER } = require('./seed');

/**
 * Snapshot of the current stock of an order's items, as the order record's `inventory` field
 * carries it.
 */
function inventorySnapshot(order, itemsById) {
	const snapshot = [];
	for (const line of order.items) {
		const item = itemsById.get(line.item_id);
		if (!item) continue;
		for (const place of item.inventory) {
			snapshot.push({
				item_id: item.item_id,
				location_id: place.location_id,
				on_hand: place.on_hand,
				alert: place.alert,
				inbound: place.inbound,
			});
		}
	}
	return snapshot;
}

/**
 * All seeded orders, indexed by `store_id + order_number`. Orders are built on first read and
 * cached with the JSON of their bulk result entry, so a bulk lookup only joins bytes.
 */
class OrderBook {
	constructor(seed, count, catalog, itemsById) {
		this.seed = seed;
		this.count = count;
		this.catalog = catalog;
		this.itemsById = itemsById;
		this.byKey = new Map();
		this.built = new Map();
		this.dirty = new Set();
		this.tainted = new Set();
		const storeCount = catalog.stores.length;
		for (let index = 0; index < count; index++) {
			const storeId = catalog.stores[index % storeCount].store_id;
			this.byKey.set(
				OrderBook.key(storeId, String(FIRST_ORDER_NUMBER + Math.floor(index / storeCount))),
				index,
			);
		}
	}

	static key(storeId, orderNumber) {
		return `${storeId}\u0000${orderNumber}`;
	}

	indexOf(storeId, orderNumber) {
		return this.byKey.get(OrderBook.key(storeId, orderNumber));
	}

	/** The built entry `{ index, order, records, barcodeFailure, entryBuffer }` of order `index`. */
	get(index) {
		let entry = this.built.get(index);
		if (!entry) {
			entry = buildOrder(this.seed, index, this.catalog);
			entry.order.inventory = inventorySnapshot(entry.order, this.itemsById);
			this.built.set(index, entry);
			// Built after a change of stock, its inventory snapshot is not the seeded one.
			if (this.dirty.size > 0) this.tainted.add(index);
		}
		return entry;
	}

	/**
	 * Indices of the orders matching the filters, in seed order, using the index rather than building
	 * orders.
	 */
	*indices({ storeId, orderNumber } = {}) {
		const stores = this.catalog.stores.map((store) => store.store_id);
		if (orderNumber !== undefined) {
			for (const store of storeId === undefined ? stores : [storeId]) {
				const index = this.indexOf(store, orderNumber);
				if (index !== undefined) yield index;
			}
			return;
		}
		const offset = storeId === undefined ? 0 : stores.indexOf(storeId);
		if (offset < 0) return;
		const step = storeId === undefined ? 1 : stores.length;
		for (let index = offset; index < this.count; index += step) yield index;
	}

	find(storeId, orderNumber) {
		const index = this.indexOf(storeId, orderNumber);
		return index === undefined ? undefined : this.get(index);
	}

	/**
	 * The bulk lookup result entry as UTF-8 JSON, cached until the order changes. A Buffer, because
	 * joining 100 cached Buffers costs a memcpy, while joining 100 strings and encoding them costs ~8
	 * times more. `bare` (switch `bulkEntries`): the order record itself, with
	 * barcode_generation_failed at its top when it failed.
	 */
	entryBuffer(entry, bare = false) {
		if (bare) {
			const failure = entry.barcodeFailure
				? { barcode_generation_failed: entry.barcodeFailure }
				: {};
			entry.bareBuffer ??= Buffer.from(JSON.stringify({ ...entry.order, ...failure }));
			return entry.bareBuffer;
		}
		if (entry.entryBuffer === undefined) {
			const result = {
				order: entry.order,
				metrics: {
					matched: true,
					line_count: entry.order.items.length,
					shipment_count: entry.order.shipments.length,
				},
			};
			if (entry.barcodeFailure) result.barcode_generation_failed = entry.barcodeFailure;
			entry.entryBuffer = Buffer.from(JSON.stringify(result));
		}
		return entry.entryBuffer;
	}

	changed(entry, { refreshInventory }) {
		if (refreshInventory) entry.order.inventory = inventorySnapshot(entry.order, this.itemsById);
		entry.entryBuffer = undefined;
		entry.bareBuffer = undefined;
		this.dirty.add(entry.index);
	}

	/**
	 * Builds and serialises orders `from` to `to` (exclusive) now, so that no lookup pays for them.
	 */
	prebuild(from = 0, to = this.count) {
		for (let index = from; index < Math.min(to, this.count); index++)
			this.entryBuffer(this.get(index));
	}

	/**
	 * Back to the seeded state over a fresh catalogue. Orders that changed, or were built after a
	 * change of stock, are built again; every other built order already equals its seeded form and is
	 * kept.
	 */
	restart(catalog, itemsById) {
		this.catalog = catalog;
		this.itemsById = itemsById;
		const stale = [...this.dirty, ...this.tainted].filter((index) => this.built.delete(index));
		this.dirty.clear();
		this.tainted.clear();
		for (const index of stale) this.entryBuffer(this.get(index));
	}
}

module.exports = { OrderBook };
