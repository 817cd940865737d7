'use strict';

/**
 * Deterministic seed data: the catalogue (stores, locations, items) and any one order, from the
 * seed and the order's index alone. orderBook.js decides when orders are built and keeps them.
 */

const BASE_TIME = Date.UTC(2026, 0, 1);
const HOUR = 60 * 60 * 1000;
const STORE_COUNT = 4;
const ITEM_COUNT = 200;
const FIRST_ORDER_NUMBER = 1000;
const BARCODE_FAILURE_EVERY = 50;

/** mulberry32: small, fast and good enough for test data. */
function prng(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function mix(a, b) {
	return (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x27d4eb2f, 0xc2b2ae35)) >>> 0;
}

/** A 24-hex identifier like the service's own (`kind` keeps record types apart). */
function objectId(kind, seed, index) {
	return (
		kind.toString(16).padStart(2, '0') +
		(seed >>> 0).toString(16).padStart(8, '0').slice(-8) +
		index.toString(16).padStart(14, '0')
	);
}

const iso = (ms) => new Date(ms).toISOString();
const day = (ms) => iso(ms).slice(0, 10);
const money = (value) => Math.round(value * 100) / 100;

const KIND = {
	store: 1,
	location: 2,
	item: 3,
	order: 4,
	line: 5,
	log: 6,
	scan: 7,
	note: 8,
	shipment: 9,
	fulfillment: 10,
	transaction: 11,
	return: 12,
	purchaseOrder: 13,
	user: 14,
	kit: 15,
	handler: 16,
	carrier: 17,
	request: 18,
	kitItem: 19,
};

const FIRST_NAMES = [
	'Ada',
	'Grace',
	'Linus',
	'Margaret',
	'Alan',
	'Barbara',
	'Ken',
	'Radia',
	'Donald',
	'Frances',
];
const LAST_NAMES = [
	'Lovelace',
	'Hopper',
	'Torvalds',
	'Hamilton',
	'Turing',
	'Liskov',
	'Thompson',
	'Perlman',
];
const CITIES = [
	['Austin', 'TX', '78701'],
	['Denver', 'CO', '80202'],
	['Portland', 'OR', '97201'],
	['Boston', 'MA', '02108'],
];
const PRODUCTS = [
	'Mug',
	'Tote',
	'Poster',
	'Sticker',
	'Notebook',
	'Cap',
	'Shirt',
	'Socks',
	'Pin',
	'Lamp',
];
const COLOURS = ['Red', 'Blue', 'Green', 'Black', 'White'];
const CARRIERS = [
	{ provider: 'USPS', service: 'Priority', service_code: 'usps_priority' },
	{ provider: 'UPS', service: 'Ground', service_code: 'ups_ground' },
	{ provider: 'FedEx', service: 'Home Delivery', service_code: 'fedex_home' },
];

/** Stores, warehouses/locations and items with inventory per location. */
function buildCatalog(seed) {
	const random = prng(mix(seed, 1));
	const stores = Array.from({ length: STORE_COUNT }, (_, i) => ({
		store_id: String(1001 + i),
		name: ['Main Street Shop', 'Online Outlet', 'Wholesale Desk', 'Marketplace'][i],
	}));
	const warehouses = ['wh_east', 'wh_west'];
	const locations = Array.from({ length: 4 }, (_, i) => ({
		location_id: objectId(KIND.location, seed, i),
		name: `${['A', 'B', 'C', 'D'][i]}-${i + 1}-01`,
		warehouse_id: warehouses[i % 2],
	}));
	const items = Array.from({ length: ITEM_COUNT }, (_, i) => {
		const first = i % locations.length;
		const second = (i + 1 + (i % 3)) % locations.length;
		const places = first === second ? [first] : [first, second];
		return {
			item_id: objectId(KIND.item, seed, i),
			sku: `SKU-${String(i + 1).padStart(4, '0')}`,
			name: `${COLOURS[i % COLOURS.length]} ${PRODUCTS[Math.floor(i / COLOURS.length) % PRODUCTS.length]} ${i + 1}`,
			variant_id: objectId(KIND.item, seed, 100000 + i),
			price: money(5 + random() * 45),
			inventory: places.map((p) => ({
				location_id: locations[p].location_id,
				on_hand: 20 + Math.floor(random() * 480),
				alert: 5,
				inbound: Math.floor(random() * 20),
			})),
		};
	});
	return { stores, warehouses, locations, items };
}

function address(random, name) {
	const [city, state, zip] = CITIES[Math.floor(random() * CITIES.length)];
	return {
		name,
		company: random() < 0.3 ? 'Acme Corp' : '',
		street: `${100 + Math.floor(random() * 900)} Main St`,
		street_2: random() < 0.2 ? 'Suite 5' : '',
		city,
		state,
		zip,
		country: 'US',
		phone: `555-01${String(Math.floor(random() * 100)).padStart(2, '0')}`,
		email: `${name.split(' ')[0].toLowerCase()}@example.com`,
		residential: random() < 0.7,
	};
}

const ORIGIN_ADDRESS = {
	name: 'Inventory Ops Warehouse',
	company: 'Inventory Ops',
	street: '1 Dock Rd',
	street_2: '',
	city: 'Reno',
	state: 'NV',
	zip: '89501',
	country: 'US',
	phone: '555-0100',
	email: 'warehouse@example.com',
	residential: false,
};

/**
 * Builds order number `index` in full: the order record and its shipment records.
 * Everything comes from (seed, index), so the same order looks the same in every run.
 */
function buildOrder(seed, index, catalog) {
	const random = prng(mix(seed, index + 1000));
	const pick = (list) => list[Math.floor(random() * list.length)];
	const { stores, locations, items } = catalog;
	const store = stores[index % stores.length];
	const orderNumber = String(FIRST_ORDER_NUMBER + Math.floor(index / stores.length));
	const orderId = objectId(KIND.order, seed, index);
	const userId = objectId(KIND.user, seed, index % 7);
	const opened = BASE_TIME + index * 7 * 60 * 1000;
	const status = ['unstarted', 'shipped', 'shipped', 'pending'][index % 4];
	const shipped = status === 'shipped';
	const customer = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
	const shipTo = address(random, customer);
	const sub = (kind, n) => objectId(kind, seed, index * 16 + n);

	const lineCount = 1 + Math.floor(random() * 3);
	const chosen = [];
	for (let n = 0; n < lineCount; n++) {
		// Only seeded items: kits created later join the catalogue, and must not change what an order
		// holds.
		const item = items[(index * 7 + n * 31 + Math.floor(random() * 5)) % ITEM_COUNT];
		if (!chosen.includes(item)) chosen.push(item);
	}
	const lines = chosen.map((item, n) => ({
		id: sub(KIND.line, n),
		variant_id: item.variant_id,
		lineName: item.name,
		quantity: 1 + Math.floor(random() * 3),
		price: item.price,
		sku: item.sku,
		line_id: `L${index}-${n + 1}`,
		metadata: n === 0 ? { gift: random() < 0.2 } : null,
		dropshipped: false,
		item,
	}));
	const subtotal = money(lines.reduce((sum, line) => sum + line.price * line.quantity, 0));
	const tax = money(subtotal * 0.08);
	const shippingCost = 5.99;
	const discount = index % 9 === 0 ? 5 : 0;
	const total = money(subtotal + tax + shippingCost - discount);
	const orderLines = () =>
		lines.map(({ item, ...line }) => ({
			...line,
			metadata: line.metadata && { ...line.metadata },
		}));
	const snapshot = (notes) => ({
		store_id: store.store_id,
		id: `${store.store_id}-${orderNumber}`,
		date: day(opened),
		items: orderLines(),
		shipping_information: {
			name: shipTo.name,
			email: shipTo.email,
			address: shipTo.street,
			street2: shipTo.street_2,
			city: shipTo.city,
			state: shipTo.state,
			zip: shipTo.zip,
			country: shipTo.country,
			phone: shipTo.phone,
			company: shipTo.company,
			method: 'Standard',
			is_residential: shipTo.residential,
			is_valid: true,
			hash: `addr${(mix(seed, index) >>> 0).toString(16)}`,
			address_type: shipTo.residential ? 'residential' : 'commercial',
			address_validation_data: { validated: true, provider: 'sandbox' },
		},
		total,
		tax,
		shipping: shippingCost,
		discount,
		notes,
		alternate_order_id: `ALT-${orderNumber}`,
		order_id: `ext_${store.store_id}_${orderNumber}`,
		currency: 'USD',
	});

	const shipmentCount = shipped ? 1 + (index % 3 === 1 ? 1 : 0) : 0;
	const shipments = [];
	const records = [];
	for (let n = 0; n < shipmentCount; n++) {
		const carrier = CARRIERS[(index + n) % CARRIERS.length];
		const shipmentId = sub(KIND.shipment, n);
		const tracking = `TRK${String(index).padStart(8, '0')}${n}`;
		const carrierShipmentId = `shp_${(seed >>> 0).toString(16)}${String(index).padStart(7, '0')}${n}`;
		// Every 7th order shipped without deducting stock, so a restore of it has nothing to give back.
		const deducted = !(index % 7 === 0 && n === 0);
		const time = opened + (2 + n) * HOUR;
		const linesHere = n === 0 ? lines : lines.slice(0, 1);
		const parcel = {
			length: 10,
			width: 8,
			height: 4,
			weight: 12 + Math.floor(random() * 20),
			weight_unit: 'oz',
			dimensions_unit: 'in',
		};
		const amount = money(6 + random() * 10);
		const labelUrl = `https://labels.example.com/${carrierShipmentId}.pdf`;
		const trackingUrl = `https://track.example.com/${carrier.provider.toLowerCase()}/${tracking}`;
		const carrierAccount = {
			_id: objectId(KIND.carrier, seed, (index + n) % CARRIERS.length),
			name: `${carrier.provider} account`,
		};
		shipments.push({
			_id: shipmentId,
			user_id: userId,
			time: iso(time),
			voided: false,
			return_label: false,
			deducted,
			response: {
				provider: carrier.provider,
				service: carrier.service,
				label_url: labelUrl,
				tracking_number: tracking,
				tracking_url: trackingUrl,
				currency: 'USD',
				shipment_id: carrierShipmentId,
				amount,
				signature: false,
			},
			request: {
				order_items: linesHere.map((line) => ({
					item_id: line.item.item_id,
					variant_id: line.variant_id,
					sku: line.sku,
					quantity: line.quantity,
				})),
				parcel,
				address: shipTo,
				carrier_account_ids: [carrierAccount._id],
				provider: carrier.provider,
				service: carrier.service_code,
			},
		});
		records.push({
			_id: shipmentId,
			request: {
				parcel: { ...parcel, template: '', template_carrier: '' },
				address: shipTo,
				origin_address: ORIGIN_ADDRESS,
				return_address: ORIGIN_ADDRESS,
				_id: sub(KIND.request, n),
				store_id: store.store_id,
				origin: 'order',
				rate: {
					service: carrier.service,
					service_code: carrier.service_code,
					carrier_account: carrierAccount,
				},
				carrier_account_ids: [carrierAccount._id],
				order_items: linesHere.map((line) => ({
					sku: line.sku,
					item_id: line.item.item_id,
					quantity: line.quantity,
					location_id: line.item.inventory[0].location_id,
				})),
				customs_items: [],
				signature_confirmation: false,
				return_label: false,
				should_deduct: deducted,
				insurance_amount: 0,
				insurance_type: '',
				reference_1: orderNumber,
				reference_2: '',
				format: 'PDF',
				currency: 'USD',
				shipping_date: day(time),
			},
			response: {
				provider: carrier.provider,
				service: carrier.service,
				tracking_number: tracking,
				shipment_id: carrierShipmentId,
				label_url: labelUrl,
				amount,
				fees: 0.25,
			},
			time: iso(time),
			state: 'shipped',
			manual_shipment: false,
			deducted,
		});
	}

	const order = {
		_id: orderId,
		store_id: store.store_id,
		order_number: orderNumber,
		status,
		financial_status: index % 5 === 0 ? 'pending' : 'paid',
		type: index % 3 === 0 ? 'manual' : 'shopify',
		stash: snapshot(''),
		backup_stash: snapshot('original import'),
		log: [
			{ user_id: userId, action: 'created', time: iso(opened), details: { source: 'import' } },
			...(shipped
				? [{ user_id: userId, action: 'shipped', time: iso(opened + 2 * HOUR), details: null }]
				: []),
		],
		items: lines.map((line) => ({
			item_id: line.item.item_id,
			sku: line.sku,
			quantity: line.quantity,
			name: line.lineName,
		})),
		scans: shipped
			? lines.map((line, n) => ({
					_id: sub(KIND.scan, n),
					user_id: userId,
					barcode_id: line.sku,
					item_id: line.item.item_id,
					variant_id: line.variant_id,
					location_id: line.item.inventory[0].location_id,
					line_id: line.line_id,
					time: iso(opened + HOUR),
					skipped: false,
					out_of_stock: false,
					deducted: shipments[0].deducted,
					note: '',
					quantity: line.quantity,
				}))
			: [],
		misscans:
			index % 11 === 0
				? [{ barcode: 'UNKNOWN-0001', time: iso(opened + HOUR), user_id: userId }]
				: [],
		notes: [
			{
				_id: sub(KIND.note, 0),
				user_id: userId,
				time: iso(opened),
				note: 'Imported by the sandbox',
				type: 'internal',
			},
		],
		shipments,
		fulfillments: shipments.map((shipment, n) => ({
			_id: sub(KIND.fulfillment, n),
			status: 'success',
			tracking_number: shipment.response.tracking_number,
			tracking_url: shipment.response.tracking_url,
		})),
		transactions: [
			{ _id: sub(KIND.transaction, 0), amount: total, kind: 'sale', status: 'success' },
		],
		returns:
			index % 10 === 3
				? [
						{
							_id: sub(KIND.return, 0),
							rma_number: `RMA-${orderNumber}`,
							status: 'requested',
							items: [{ sku: lines[0].sku, quantity: 1 }],
						},
					]
				: [],
		tags: index % 4 === 0 ? ['tag_priority'] : [],
		purchase_orders:
			index % 12 === 5
				? [
						{
							_id: sub(KIND.purchaseOrder, 0),
							number: `PO-${orderNumber}`,
							status: 'open',
							distributor_id: 'dist_1',
							warehouse_id: 'wh_east',
							due_date: day(opened + 72 * HOUR),
							dropshipped: false,
							items: [{ sku: lines[0].sku, quantity: 5 }],
							log: [{ user_id: userId, action: 'created', time: iso(opened), details: null }],
							total: money(lines[0].price * 5),
							currency: 'USD',
						},
					]
				: [],
		inventory: [],
		barcodes: lines.map((line) => ({
			id: line.sku,
			sku: line.sku,
			quantity: line.quantity,
			name: line.lineName,
		})),
		parent_order_number: '',
		source_store_id: store.store_id,
		source_order_number: orderNumber,
		manual_order_number: index % 3 === 0 ? `M-${orderNumber}` : '',
		combined_order_numbers: [],
		base_order_number: orderNumber,
		batch_number: Math.floor(index / 25),
		overriden: false,
		processing: false,
		channel_status: shipped ? 'fulfilled' : 'unfulfilled',
		location: locations[index % locations.length].name,
		shipped_date: shipped ? iso(opened + 2 * HOUR) : null,
		opened_date: iso(opened),
		marked_as_shipped: shipped,
		warehouse_id: locations[index % locations.length].warehouse_id,
		internal_order_number: `INT-${store.store_id}-${orderNumber}`,
		shipping_memory_hash: shipped ? `mem${index.toString(16)}` : '',
		shipping_memory: shipped ? { carrier: shipments[0].response.provider } : {},
		packaging: { box: 'M', weight_oz: 4 },
		delivery_instructions:
			index % 6 === 0
				? [
						{
							_id: sub(KIND.note, 1),
							user_id: userId,
							time: iso(opened),
							note: 'Leave at the back door',
							type: 'delivery',
						},
					]
				: [],
	};
	const barcodeFailure =
		index % BARCODE_FAILURE_EVERY === BARCODE_FAILURE_EVERY - 1
			? {
					message: `Barcode generation failed for ${lines[0].sku}`,
					code: 'BARCODE_GENERATION_FAILED',
				}
			: undefined;
	return { index, order, records, barcodeFailure };
}

module.exports = {
	buildCatalog,
	buildOrder,
	objectId,
	KIND,
	FIRST_ORDER_NUMBER,
	BARCODE_FAILURE_EVERY,
	prng,
	mix,
};
