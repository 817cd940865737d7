// What an n8n AI Agent sees of the Inventory Ops node used as a tool, written down by hand so that
// a change of the node's texts shows up as a failing test (test/ai/tool.test.js, in-process) and
// e2e (e2e/scenarios/aiTool.js, in a real n8n).
//
// One tool node is one operation: the user picks resource and operation (both `noDataExpression`,
// so never the model's), and lets the model define some parameters (the editor's ✨ button writes a
// `$fromAI(...)` expression). The agent then sees:
// - the tool's name: the node's name with anything but [a-zA-Z0-9_-] replaced by `_` (n8n-workflow
//   nodeNameToToolName); a new tool node is named by the editor after the operation's `action` plus
//   " in Inventory Ops" (n8n-workflow makeNodeName);
// - the tool's description: with "Tool Description: Set Automatically" (the default) the
// operation's `action`
// plus " in Inventory Ops" (n8n-workflow makeDescription); with "Set Manually" the text the user
// writes;
// - the tool's arguments: one per `$fromAI` key, with the key, the type and the description given
// in `$fromAI`.

const TOOL_TYPE = 'n8n-nodes-inventory-ops.inventoryOpsTool';

/**
 * Per operation: the auto description and default node name n8n derives, the parameters the model
 * defines in a typical agent set-up (the rest fixed by the user), and for each the `$fromAI` key
 * the n8n 2.x editor derives from the parameter's display name, the type it derives from the
 * parameter's type, and words its description must contain so that the model knows what to put
 * there.
 */
const OPERATIONS = [
	{
		resource: 'order',
		operation: 'lookUp',
		action: 'Get many orders by store and order number',
		autoDescription: 'Get many orders by store and order number in Inventory Ops',
		toolName: 'Get_many_orders_by_store_and_order_number_in_Inventory_Ops',
		fixed: { lookUpBy: 'storeAndOrderNumber' },
		fromAi: [
			{ parameter: 'storeId', key: 'Store_ID', type: 'string', mentions: [/store/i] },
			{
				parameter: 'orderNumber',
				key: 'Order_Number',
				type: 'string',
				mentions: [/number of the order/i],
			},
		],
	},
	{
		resource: 'kit',
		operation: 'create',
		action: 'Create a kit from component items',
		autoDescription: 'Create a kit from component items in Inventory Ops',
		toolName: 'Create_a_kit_from_component_items_in_Inventory_Ops',
		fixed: { inputMode: 'json' },
		fromAi: [
			{
				parameter: 'kitData',
				key: 'Kit_Data__JSON_',
				type: 'json',
				mentions: [/name/, /sku/, /items/, /item_id/, /quantity/],
			},
		],
	},
	{
		resource: 'shipment',
		operation: 'restoreInventory',
		action: 'Restore inventory deducted by a shipment',
		autoDescription: 'Restore inventory deducted by a shipment in Inventory Ops',
		toolName: 'Restore_inventory_deducted_by_a_shipment_in_Inventory_Ops',
		fixed: {},
		fromAi: [
			{ parameter: 'storeId', key: 'Store_ID', type: 'string', mentions: [/store/i] },
			{ parameter: 'orderNumber', key: 'Order_Number', type: 'string', mentions: [/order/i] },
			{
				parameter: 'shipmentId',
				key: 'Shipment_ID',
				type: 'string',
				mentions: [/shipment/i, /leave empty/i],
			},
			{
				parameter: 'trackingNumber',
				key: 'Tracking_Number',
				type: 'string',
				mentions: [/tracking/i, /leave empty/i],
			},
			{
				parameter: 'carrierShipmentId',
				key: 'Carrier_Shipment_ID',
				type: 'string',
				mentions: [/carrier/i, /leave empty/i],
			},
		],
	},
	{
		resource: 'webhookHandler',
		operation: 'add',
		action: 'Add a webhook handler for an event type',
		autoDescription: 'Add a webhook handler for an event type in Inventory Ops',
		toolName: 'Add_a_webhook_handler_for_an_event_type_in_Inventory_Ops',
		fixed: { eventType: 'custom', method: 'POST' },
		fromAi: [
			{
				parameter: 'customEventType',
				key: 'Custom_Event_Type',
				type: 'string',
				mentions: [/event type/i],
			},
			{ parameter: 'name', key: 'Name', type: 'string', mentions: [/name/i, /handler/i] },
			{ parameter: 'url', key: 'URL', type: 'string', mentions: [/address/i] },
		],
	},
	{
		resource: 'webhookHandler',
		operation: 'remove',
		action: 'Remove a webhook handler by ID',
		autoDescription: 'Remove a webhook handler by ID in Inventory Ops',
		toolName: 'Remove_a_webhook_handler_by_ID_in_Inventory_Ops',
		fixed: {},
		fromAi: [
			{ parameter: 'handlerId', key: 'Handler_ID', type: 'string', mentions: [/_id/, /added/i] },
		],
	},
];

// The n8n 2.x editor's ✨ "let the model define this parameter" button (n8n-editor-ui,
// fromAIOverride utils): the key is the parameter's display name with anything but letters, digits
// and '-' replaced by '_', the type is boolean/number/json for those parameter types and string
// otherwise; the description is what the user types into the override's Description box (empty
// until then).
const editorKey = (displayName) => displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
const editorType = (parameterType) =>
	['boolean', 'number', 'json'].includes(parameterType) ? parameterType : 'string';
const fromAiExpression = (key, description, type) =>
	`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`${description.replace(/[`\\]/g, '\\$&')}\`, '${type}') }}`;

module.exports = { OPERATIONS, TOOL_TYPE, editorKey, editorType, fromAiExpression };
