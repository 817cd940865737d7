/**
 * Every operation of the service, with the base URL it lives under and whether a call may change data.
 * A call that may change data is never sent twice by us unless the service said it did nothing (429).
 */
export const ENDPOINTS = {
	orderGetSingleBulk: { path: '/order/get_single_bulk', base: 'baseUrl', changesData: false },
	kitCreate: { path: '/kit/create', base: 'baseUrl', changesData: true },
	shipmentRestoreInventory: {
		path: '/ship/shipping/restore_inventory',
		base: 'appBaseUrl',
		changesData: true,
	},
	webhookAddHandler: { path: '/webhook/add_handler', base: 'baseUrl', changesData: true },
	webhookRemoveHandler: { path: '/webhook/remove_handler', base: 'baseUrl', changesData: true },
} as const;

export type Endpoint = keyof typeof ENDPOINTS;
