'use strict';

const { ServiceError } = require('../errors');
const { prng, KIND } = require('../seed');
const { OrderBook } = require('../orderBook');
const schemas = require('./schemas');

const SELECTORS = ['shipment_id', 'tracking_number', 'carrier_shipment_id'];

/**
 * A result entry (wrapped or bare) whose order record carries no store_id (an answer the service
 * may give).
 */
function withoutStoreId(buffer) {
	const entry = JSON.parse(buffer.toString('utf8'));
	delete (entry.order ?? entry).store_id;
	return Buffer.from(JSON.stringify(entry));
}

/**
 * The five operations (docs/service-interface.md, The five operations). Auth, rate limit and faults
 * run before them (see app.js).
 */
function serviceRoutes(state, { sendJsonChunks }) {
	return async function register(app) {
		app.post(
			'/api/order/get_single_bulk',
			{ schema: { body: schemas.getSingleBulk } },
			async (request, reply) => {
				const refs = request.body.order;
				const {
					bulkMaxLength,
					bulkTooLongStatus,
					bulkUnmatched,
					bulkOrder,
					bulkOrderFields,
					bulkReferencePattern,
					bulkEntries,
				} = state.config;
				if (refs.length > bulkMaxLength) {
					const code = bulkTooLongStatus === 413 ? 'PAYLOAD_TOO_LARGE' : 'ARRAY_TOO_LONG';
					throw new ServiceError(
						bulkTooLongStatus,
						code,
						`body.order has ${refs.length} entries; at most ${bulkMaxLength} are allowed`,
					);
				}
				if (bulkReferencePattern) {
					const pattern = new RegExp(bulkReferencePattern);
					const bad = refs.findIndex((ref) => !pattern.test(ref.order_number));
					if (bad >= 0)
						throw new ServiceError(
							400,
							'VALIDATION_ERROR',
							`body.order[${bad}].order_number is not a valid order number`,
						);
				}
				const seen = new Set();
				const parts = [];
				for (const { store_id: storeId, order_number: orderNumber } of refs) {
					const key = OrderBook.key(storeId, orderNumber);
					if (seen.has(key)) continue;
					seen.add(key);
					const entry = state.orders.find(storeId, orderNumber);
					if (entry) {
						const buffer = state.orders.entryBuffer(entry, bulkEntries === 'bare');
						parts.push(bulkOrderFields === 'noStoreId' ? withoutStoreId(buffer) : buffer);
					} else if (bulkUnmatched === 'entry') {
						parts.push(
							Buffer.from(
								JSON.stringify({
									store_id: storeId,
									order_number: orderNumber,
									metrics: { matched: false },
								}),
							),
						);
					}
				}
				if (bulkOrder === 'shuffled') shuffle(parts, ++state.shuffles);
				const { chunks, length } = jsonArray(parts);
				return sendJsonChunks(request, reply, chunks, length, state.config.latencyPerKbMs);
			},
		);

		app.post('/api/kit/create', { schema: { body: schemas.kitCreate } }, async (request) => {
			const data = request.body.data;
			const components = (data.items ?? []).map((component, index) =>
				resolveComponent(state, component, index),
			);
			const sku = comparableSku(data.sku);
			const clash = state.catalog.items.find((item) => comparableSku(item.sku) === sku);
			if (clash) {
				const what = state.kits.some((kit) => kit.new_kit_id === clash.item_id) ? 'kit' : 'item';
				throw new ServiceError(
					409,
					'DUPLICATE_SKU',
					`SKU "${data.sku}" is already used by ${what} ${clash.item_id}`,
				);
			}
			const kit = {
				...data,
				_id: state.newId(KIND.kit),
				new_kit_id: state.newId(KIND.kitItem),
				items: components,
				created_at: new Date().toISOString(),
			};
			// A kit is sold as an item of its own: new_kit_id is that catalogue item, _id the kit record.
			const item = {
				item_id: kit.new_kit_id,
				sku: data.sku,
				name: data.name,
				variant_id: kit.new_kit_id,
				price: data.retail ?? 0,
				inventory: [],
				kit_id: kit._id,
			};
			state.kits.push(kit);
			state.catalog.items.push(item);
			state.itemsById.set(item.item_id, item);
			return { success: true, _id: kit._id, new_kit_id: kit.new_kit_id };
		});

		// Switch `restoreChecks: 'order-first'`: the order is looked up before the request is checked
		// at all.
		const orderFirst = async (request) => {
			const body = request.body ?? {};
			if (
				state.config.restoreChecks === 'order-first' &&
				!state.orders.find(body.store_id, body.order_number)
			) {
				throw new ServiceError(404, undefined, 'order not found');
			}
		};
		app.post(
			'/s/ship/shipping/restore_inventory',
			{ schema: { body: schemas.restoreInventory }, preValidation: orderFirst },
			async (request) => {
				const body = request.body;
				const given = SELECTORS.filter((name) => body[name] !== undefined && body[name] !== '');
				if (given.length === 0) {
					throw new ServiceError(
						400,
						'MISSING_SHIPMENT_SELECTOR',
						`One of ${SELECTORS.join(', ')} is required to choose the shipment`,
					);
				}
				const entry = state.orders.find(body.store_id, body.order_number);
				if (!entry) {
					throw new ServiceError(
						404,
						'SHIPMENT_NOT_FOUND',
						`No order ${body.order_number} in store ${body.store_id}`,
					);
				}
				const record = entry.records.find((candidate) =>
					given.every((name) => selectorValue(candidate, name) === body[name]),
				);
				if (!record) {
					const wanted = given.map((name) => `${name} "${body[name]}"`).join(' and ');
					throw new ServiceError(
						404,
						'SHIPMENT_NOT_FOUND',
						`Order ${body.order_number} in store ${body.store_id} has no shipment with ${wanted}`,
					);
				}
				if (!record.deducted) {
					if (state.restored.has(record._id)) {
						throw new ServiceError(
							409,
							'ALREADY_RESTORED',
							`The inventory of shipment ${record._id} was already restored`,
						);
					}
					throw new ServiceError(
						409,
						'NOTHING_TO_RESTORE',
						`Shipment ${record._id} never deducted inventory, so there is nothing to restore`,
					);
				}
				const changes = record.request.order_items.map((line) => restoreLine(state, line));
				record.deducted = false;
				state.restored.add(record._id);
				const orderShipment = entry.order.shipments.find((shipment) => shipment._id === record._id);
				if (orderShipment) orderShipment.deducted = false;
				entry.order.log.push({
					user_id: 'api',
					action: 'inventory_restored',
					time: new Date().toISOString(),
					details: { shipment_id: record._id },
				});
				state.orders.changed(entry, { refreshInventory: body.no_refresh !== true });
				for (const change of changes) {
					state.deliverer.emit('item.inventory', {
						...change,
						reason: 'restore_inventory',
						store_id: entry.order.store_id,
						order_number: entry.order.order_number,
						shipment_id: record._id,
					});
				}
				return { _id: entry.order._id, shipments: entry.records };
			},
		);

		app.post(
			'/api/webhook/add_handler',
			{ schema: { body: schemas.addHandler } },
			async (request) => {
				const { type, name, handler } = request.body;
				if (state.config.wildcards === 'refused' && type.includes('*')) {
					throw new ServiceError(
						400,
						'WILDCARD_NOT_SUPPORTED',
						`Event type "${type}" is a wildcard; register each event type on its own`,
					);
				}
				const record = {
					_id: state.newId(KIND.handler),
					type,
					name,
					handler: {
						url: handler.url,
						method: handler.method ?? 'POST',
						headers: handler.headers ?? {},
					},
					created_at: new Date().toISOString(),
				};
				state.handlers.set(record._id, record);
				if (state.config.addHandlerId === 'nested')
					return { success: true, handler: { _id: record._id, type, name } };
				return state.config.addHandlerId === 'top'
					? { success: true, _id: record._id }
					: { success: true };
			},
		);

		app.post(
			'/api/webhook/remove_handler',
			{ schema: { body: schemas.removeHandler } },
			async (request) => {
				const id = request.body._id;
				if (state.handlers.delete(id)) return { success: true };
				if (state.config.removeUnknown === 404) {
					throw new ServiceError(404, 'HANDLER_NOT_FOUND', `No webhook handler with _id ${id}`);
				}
				return { success: false };
			},
		);
	};
}

/** SKUs are compared without case and surrounding spaces: `Kit-1 ` and `KIT-1` are the same SKU. */
function comparableSku(sku) {
	return sku.trim().toLowerCase();
}

function selectorValue(record, name) {
	if (name === 'shipment_id') return record._id;
	if (name === 'tracking_number') return record.response.tracking_number;
	return record.response.shipment_id;
}

function resolveComponent(state, component, index) {
	const byId = component.item_id && state.itemsById.get(component.item_id);
	const bySku =
		!component.item_id &&
		component.sku &&
		state.catalog.items.find((item) => item.sku === component.sku);
	const item = byId || bySku;
	if (!component.item_id && !component.sku) {
		throw new ServiceError(
			400,
			'MISSING_FIELD',
			`body.data.items[${index}] needs an item_id or a sku`,
		);
	}
	if (!item) {
		const which = component.item_id ? `item_id "${component.item_id}"` : `sku "${component.sku}"`;
		throw new ServiceError(
			400,
			'UNKNOWN_COMPONENT',
			`body.data.items[${index}]: no item with ${which}`,
		);
	}
	return {
		quantity: component.quantity,
		item_id: item.item_id,
		sku: item.sku,
		type: component.type ?? 'item',
	};
}

function restoreLine(state, line) {
	const item = state.itemsById.get(line.item_id);
	let place = item.inventory.find((candidate) => candidate.location_id === line.location_id);
	if (!place) {
		place = { location_id: line.location_id, on_hand: 0, alert: 0, inbound: 0 };
		item.inventory.push(place);
	}
	const previous = place.on_hand;
	place.on_hand += line.quantity;
	return {
		item_id: item.item_id,
		sku: item.sku,
		location_id: place.location_id,
		previous_on_hand: previous,
		on_hand: place.on_hand,
		change: line.quantity,
	};
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** The chunks of `[a,b,c]` from the JSON Buffers a, b, c, and their length in bytes. */
function jsonArray(parts) {
	const chunks = [OPEN];
	let length = 2 + Math.max(0, parts.length - 1);
	parts.forEach((part, i) => {
		if (i > 0) chunks.push(COMMA);
		chunks.push(part);
		length += part.length;
	});
	chunks.push(CLOSE);
	return { chunks, length };
}

/** A seeded shuffle that never leaves two or more results in request order. */
function shuffle(parts, seed) {
	const original = parts.slice();
	const random = prng(seed);
	for (let i = parts.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[parts[i], parts[j]] = [parts[j], parts[i]];
	}
	if (parts.length > 1 && parts.every((part, i) => part === original[i])) parts.push(parts.shift());
}

module.exports = { serviceRoutes };
