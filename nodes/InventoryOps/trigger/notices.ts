import type { IHookFunctions } from 'n8n-workflow';

import type { HandlerRecord } from './state';

/** What n8n's log needs to place a warning of the trigger: the workflow and the node. */
export function logContext(this: IHookFunctions): { workflowId: string | undefined; node: string } {
	return { workflowId: this.getWorkflow().id, node: this.getNode().name };
}

/** What the user is told about a handler the service gave no id for, in the log and in every emitted event. */
export function unremovableNotice(record: HandlerRecord): string {
	return (
		`The Inventory Ops service did not return an id for the webhook handler "${record.name}" (event type ` +
		`${record.type}, URL ${record.url}), so this trigger cannot remove it when the workflow is deactivated. ` +
		'Remove it in Inventory Ops yourself once it is no longer needed. Its deliveries are refused after a ' +
		'deactivation, because every activation uses a new secret.'
	);
}
