'use strict';

/**
 * JSON schemas of the five request bodies (docs/service-interface.md, The five operations); fastify
 * validates with ajv before a handler runs.
 */

const text = { type: 'string' };
const requiredText = { type: 'string', minLength: 1 };
const number = { type: 'number' };
const texts = { type: 'array', items: text };

const getSingleBulk = {
	type: 'object',
	required: ['order'],
	properties: {
		order: {
			type: 'array',
			items: {
				type: 'object',
				required: ['store_id', 'order_number'],
				properties: { store_id: requiredText, order_number: requiredText },
			},
		},
	},
};

const kitCreate = {
	type: 'object',
	required: ['data'],
	properties: {
		data: {
			type: 'object',
			required: ['name', 'sku'],
			properties: {
				name: requiredText,
				listing_sku: text,
				sku: requiredText,
				fulfillment_sku: text,
				items: {
					type: 'array',
					items: {
						type: 'object',
						required: ['quantity'],
						properties: {
							quantity: { type: 'number', exclusiveMinimum: 0 },
							item_id: text,
							sku: text,
							type: text,
						},
					},
				},
				barcodes: texts,
				tags: texts,
				cost: number,
				retail: number,
				wholesale: number,
				sale: number,
				active: { type: 'boolean' },
				image: text,
				description: text,
				notes: text,
				weight: number,
				lag_time: number,
			},
		},
	},
};

const restoreInventory = {
	type: 'object',
	required: ['store_id', 'order_number'],
	properties: {
		store_id: requiredText,
		order_number: requiredText,
		shipment_id: text,
		tracking_number: text,
		no_refresh: { type: 'boolean' },
		carrier_shipment_id: text,
	},
};

const addHandler = {
	type: 'object',
	required: ['type', 'name', 'handler'],
	properties: {
		type: requiredText,
		name: text,
		handler: {
			type: 'object',
			required: ['url'],
			properties: {
				url: { type: 'string', pattern: '^https?://' },
				method: text,
				headers: { type: 'object', additionalProperties: text },
			},
		},
	},
};

const removeHandler = {
	type: 'object',
	required: ['_id'],
	properties: { _id: requiredText },
};

module.exports = { getSingleBulk, kitCreate, restoreInventory, addHandler, removeHandler };
