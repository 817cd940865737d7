/**
 * docs/service-interface.md, The five operations. A call that changes data is never sent twice unless the service
 * said it did nothing (429). A bare 200 `{ success: false }` from remove_handler is not a refusal: readRemovalAnswer.
 */
const operation = <B extends 'baseUrl' | 'appBaseUrl'>(
	path: string,
	base: B,
	changesData = true,
	answer: 'list' | 'object' = 'object',
	bareSuccessFalseIsRefusal = true,
) => ({ path, base, changesData, answer, bareSuccessFalseIsRefusal });

export const ENDPOINTS = {
	orderGetSingleBulk: operation('/order/get_single_bulk', 'baseUrl', false, 'list'),
	kitCreate: operation('/kit/create', 'baseUrl'),
	shipmentRestoreInventory: operation('/ship/shipping/restore_inventory', 'appBaseUrl'),
	webhookAddHandler: operation('/webhook/add_handler', 'baseUrl'),
	webhookRemoveHandler: operation('/webhook/remove_handler', 'baseUrl', true, 'object', false),
};

export type Endpoint = keyof typeof ENDPOINTS;
