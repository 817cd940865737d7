import {
	NodeApiError,
	NodeOperationError,
	type INode,
	type INodeCredentialTestResult,
	type JsonObject,
} from 'n8n-workflow';

import type { Failure, Passed } from './outcome';

// Every text n8n shows of a failed call is worded here, from its Failure. n8n 1.x shows an error's
// description, 2.x its message, and a trigger's log line or publish error has only one text: so a
// doubt goes into each of them.

const CHECK_BEFORE_RERUN = 'so it was not sent again: check the service before trying again.';
const APPLIED_DOUBTS = {
	no: '',
	maybe: `The service may or may not have applied this change, ${CHECK_BEFORE_RERUN}`,
	probably: `The success status says the change was probably applied, ${CHECK_BEFORE_RERUN}`,
};

const sentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);
const joined = (parts: Array<string | undefined>) => parts.filter(Boolean).join(' ');

/**
 * What must reach the user wherever the failure is read: whether the change or the handler may be
 * there.
 */
export function doubtsOf({ applied, handler }: Failure | Passed): string[] {
	const handlerDoubt =
		handler?.gone === false && handler.evidence !== undefined
			? `Nothing shows that the service does not know the handler: ${handler.evidence}. The handler may still exist: check it in Inventory Ops.`
			: '';
	return [applied ? APPLIED_DOUBTS[applied] : '', handlerDoubt].filter(Boolean);
}

function proofOf({ handler }: Failure | Passed): string | undefined {
	return handler?.gone
		? `The service does not know this handler: ${handler.evidence}. It is gone already, or the ID is wrong.`
		: undefined;
}

/** The message (2.x's error, 1.x's title) and the description (1.x's text beneath it). */
export function textsOf(failure: Failure): { message: string; description: string } {
	const doubts = doubtsOf(failure);
	return {
		message: joined([sentence(failure.conclusion), failure.said, ...doubts]),
		description: joined([proofOf(failure), ...doubts, failure.advice, ...(failure.notes ?? [])]),
	};
}

/** The one text of a trigger's log line or publish error: everything, each sentence once. */
export function fullTextOf(failure: Failure | Passed): string {
	return joined([
		sentence(failure.conclusion),
		failure.said,
		...doubtsOf(failure),
		proofOf(failure),
		failure.advice,
		...(failure.notes ?? []),
	]);
}

/**
 * The credential test's verdict: what each check proved, or its first failure, then what the checks
 * before it proved.
 */
export function credentialVerdictOf(checks: Array<Failure | Passed>): INodeCredentialTestResult {
	const failure = checks.find((check) => check.kind !== 'passed');
	const texts = [failure, ...checks.filter((check) => check !== failure)].map(
		(check) => check && fullTextOf(check),
	);
	return { status: failure ? 'Error' : 'OK', message: joined(texts) };
}

export function nodeErrorOf(node: INode, failure: Failure): NodeApiError | NodeOperationError {
	const { message, description } = textsOf(failure);
	const { details, itemIndex, status, kind, applied, handler } = failure;
	if (details === undefined)
		return new NodeOperationError(node, message, { description, itemIndex });
	// The reading as data, for a workflow that branches on an error item (and for tests, which assert
	// it, not words).
	const reading = Object.fromEntries(
		Object.entries({ outcome: kind, changeApplied: applied, handlerGone: handler?.gone }).filter(
			([, value]) => value !== undefined,
		),
	) as JsonObject;
	return new NodeApiError(
		node,
		{ ...details, ...reading },
		{
			message,
			description,
			itemIndex,
			httpCode: status === undefined ? undefined : String(status),
		},
	);
}

/**
 * A publish error: all in the message (2.x's toast), set after construction, which would turn e.g.
 * "EPERM" into a generic text. The call's own error is its cause, with the status and the details.
 */
export function publishErrorOf(node: INode, failure: Failure, message: string): NodeOperationError {
	return Object.assign(new NodeOperationError(node, nodeErrorOf(node, failure)), { message });
}
