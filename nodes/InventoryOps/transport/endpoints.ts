/**
 * Every operation of the service (docs/service-interface.md, The five operations): the base URL it lives under,
 * whether a call may change data (never sent twice unless the service said it did nothing: 429), the shape of its
 * 200 answer, and whether a 200 `{ success: false }` without a reason is a refusal (for remove_handler it is the
 * ambiguous answer `readRemovalAnswer` reads).
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
