import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	order: 'lookUp';
	kit: 'create';
	shipment: 'restoreInventory';
	webhookHandler: 'add' | 'remove';
};

export type InventoryOpsType = AllEntities<NodeMap>;
