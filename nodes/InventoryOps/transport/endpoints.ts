/**
 * Every operation of the service, with the base URL it lives under and whether a call may change data.
 * A call that may change data is never sent twice by us unless the service said it did nothing (429).
 * `successFalseIsFailure`: a 200 `{ success: false }` is the service refusing the operation (transport/answers.ts).
 */
export const ENDPOINTS = {
	orderGetSingleBulk: {
		path: '/order/get_single_bulk',
		base: 'baseUrl',
		changesData: false,
		successFalseIsFailure: false,
	},
	kitCreate: { path: '/kit/create', base: 'baseUrl', changesData: true, successFalseIsFailure: true },
	shipmentRestoreInventory: {
		path: '/ship/shipping/restore_inventory',
		base: 'appBaseUrl',
		changesData: true,
		successFalseIsFailure: false,
	},
	webhookAddHandler: {
		path: '/webhook/add_handler',
		base: 'baseUrl',
		changesData: true,
		successFalseIsFailure: true,
	},
	// `success: false` here is the documented answer for a handler that is unknown or already gone: passed through.
	webhookRemoveHandler: {
		path: '/webhook/remove_handler',
		base: 'baseUrl',
		changesData: true,
		successFalseIsFailure: false,
	},
} as const;

export type Endpoint = keyof typeof ENDPOINTS;
