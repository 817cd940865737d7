/**
 * Every operation of the service, with the base URL it lives under, whether a call may change data,
 * and the shape of its 200 answer (docs/service-interface.md, The five operations). A call that may
 * change data is never sent twice by us unless the service said it did nothing (429).
 */
export const ENDPOINTS = {
	orderGetSingleBulk: {
		path: '/order/get_single_bulk',
		base: 'baseUrl',
		changesData: false,
		answer: 'list',
	},
	kitCreate: { path: '/kit/create', base: 'baseUrl', changesData: true, answer: 'object' },
	shipmentRestoreInventory: {
		path: '/ship/shipping/restore_inventory',
		base: 'appBaseUrl',
		changesData: true,
		answer: 'object',
	},
	webhookAddHandler: {
		path: '/webhook/add_handler',
		base: 'baseUrl',
		changesData: true,
		answer: 'object',
	},
	webhookRemoveHandler: {
		path: '/webhook/remove_handler',
		base: 'baseUrl',
		changesData: true,
		answer: 'object',
	},
} as const;

export type Endpoint = keyof typeof ENDPOINTS;
