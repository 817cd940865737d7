/**
 * Every operation of the service, with the base URL it lives under, whether a call may change data, and the shape
 * of its 200 answer (docs/service-interface.md, The five operations). A call that may change data is never sent
 * twice by us unless the service said it did nothing (429).
 * `bareSuccessFalseIsRefusal`: a 200 `{ success: false }` without a reason is the service refusing the operation
 * (with a reason it always is); for remove_handler it is the ambiguous answer read by `readRemovalAnswer`
 * (transport/answers.ts).
 */
export const ENDPOINTS = {
	orderGetSingleBulk: {
		path: '/order/get_single_bulk',
		base: 'baseUrl',
		changesData: false,
		answer: 'list',
		bareSuccessFalseIsRefusal: true,
	},
	kitCreate: {
		path: '/kit/create',
		base: 'baseUrl',
		changesData: true,
		answer: 'object',
		bareSuccessFalseIsRefusal: true,
	},
	shipmentRestoreInventory: {
		path: '/ship/shipping/restore_inventory',
		base: 'appBaseUrl',
		changesData: true,
		answer: 'object',
		bareSuccessFalseIsRefusal: true,
	},
	webhookAddHandler: {
		path: '/webhook/add_handler',
		base: 'baseUrl',
		changesData: true,
		answer: 'object',
		bareSuccessFalseIsRefusal: true,
	},
	webhookRemoveHandler: {
		path: '/webhook/remove_handler',
		base: 'baseUrl',
		changesData: true,
		answer: 'object',
		bareSuccessFalseIsRefusal: false,
	},
} as const;

export type Endpoint = keyof typeof ENDPOINTS;
