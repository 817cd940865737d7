// Issue 58: the trigger counts a webhook handler as gone only on proof, in a real n8n. Proof is a
// removal the service confirms, or the service's answer to an id it does not know (learnt at
// publish, by a remove_handler for an id the service cannot know: a probe) when the path beside
// remove_handler, which nothing serves, answers otherwise.
// - Unpublish while remove_handler refuses (401), answers 200 success: false, or answers the 404
// that a catch-all
// gives every path during a deploy: the handlers stay on the service and in the trigger's record,
// n8n's log names
//   each one, the next publish removes them, and one event runs one execution.
// - A handler another client removed before the unpublish: the learnt answer proves it gone, so its
// record ends
//   there: no log line, nothing sent for it at the next publish.
// Each answer is not retried (the trigger repeats a removal after a 5xx or no answer only), so a
// fault armed for `count` handlers is used up by exactly one unpublish, and the check that none is
// left counts the calls.
const fs = require('node:fs');

const { DEFAULT_SWITCHES } = require('../../sandbox/switches');
const { profileSwitches } = require('../../sandbox/profiles');
const { sandboxProfile } = require('../lib/context');
const { waitFor } = require('../lib/wait');
const { triggerWorkflow } = require('../lib/workflows');

const TRIGGER = 'Inventory Ops Trigger';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const BESIDE = 'no-such-operation-n8n-path-check';
const TYPES = ['order.shipped', 'item.inventory'];
const UNREMOVED = 'unpublishing could not remove the webhook handler';
// A service whose framework answers an id it does not know with its generic 404, the one its
// catch-all gives every path while a deploy is under way: then only the path beside tells the
// catch-all from the answer to an unknown id.
const NOT_FOUND = { success: false, message: 'Resource not found' };

/** n8n's log since `from` (bytes): the trigger's lines. */
function triggerLines(n8n, from) {
	// Bytes: the lines hold "→", so a character offset would land past the start.
	return fs
		.readFileSync(n8n.logFile)
		.subarray(from)
		.toString('utf8')
		.split('\n')
		.filter((line) => line.includes('Inventory Ops Trigger: '));
}

/** The trigger's line starting with `lead` about each of `ids`, once all are there. */
async function linesAbout(n8n, from, lead, ids) {
	return await waitFor(
		async () => {
			const lines = triggerLines(n8n, from).filter((line) =>
				line.includes(`Inventory Ops Trigger: ${lead}`),
			);
			const found = ids.map((id) => lines.find((line) => line.includes(`(id ${id}, event type `)));
			return found.every(Boolean) ? found : undefined;
		},
		{ timeoutMs: 60_000, what: `the trigger's lines "${lead}" in n8n's log for ${ids.join(', ')}` },
	);
}

/**
 * The trigger node's static data: its record of handlers (trigger/state.ts) and the learnt answer
 * (transport/index.ts).
 */
async function nodeData(n8n, workflowId) {
	const { staticData } = await n8n.getWorkflow(workflowId);
	const data = typeof staticData === 'string' ? JSON.parse(staticData) : staticData;
	return data?.[`node:${TRIGGER}`] ?? {};
}
const triggerRecord = async (n8n, workflowId) =>
	(await nodeData(n8n, workflowId)).inventoryOpsTrigger;
const learntAnswer = async (n8n, workflowId) => (await nodeData(n8n, workflowId)).unknownIdAnswer;

/**
 * Every remove_handler call, the probes for an id the sandbox never issued included (context.calls
 * leaves them out).
 */
async function allRemoves(context) {
	return (
		await context.admin('GET', `/calls?route=${encodeURIComponent(REMOVE_ROUTE)}&probes=true`)
	).calls;
}

/** Uses up every fault still armed (a failed test must not leave one to the next scenario). */
async function drainFaults(context) {
	const { faults } = await context.admin('GET', '/faults');
	for (const fault of faults) {
		const url =
			fault.route === 'unserved'
				? `${context.sandbox.baseUrl}/${BESIDE}`
				: `${context.sandbox.origin}${fault.route}`;
		for (let left = fault.remaining; left > 0; left--) {
			await fetch(url, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${context.credentialData.accessToken}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ _id: 'drain', order: [] }),
			});
		}
	}
}

module.exports = (getContext) => {
	describe('trigger: a handler is gone only on proof (issue 58)', () => {
		afterAll(async () => {
			const context = getContext();
			await drainFaults(context);
			await context.admin('POST', '/config', {
				...DEFAULT_SWITCHES,
				...profileSwitches(sandboxProfile()),
			});
		});

		describe('unpublish while remove_handler answers what proves nothing: kept, logged, removed at the next publish', () => {
			let workflow;
			let triggerNode;
			let handlers;
			let executions = 0;

			beforeAll(async () => {
				const context = getContext();
				const { n8n } = context;
				workflow = await n8n.createWorkflow(
					triggerWorkflow('Removal proof: answers', context.credential, TYPES, {
						triggerName: TRIGGER,
					}),
				);
				triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
				const probesBefore = (await allRemoves(context)).length;
				// The service's answer to an id it does not know, which the publish's probe learns.
				await context.admin('POST', '/faults', {
					route: REMOVE_ROUTE,
					count: 1,
					status: 404,
					body: NOT_FOUND,
				});
				handlers = await context.publish(workflow, triggerNode, TYPES);
				const probes = (await allRemoves(context)).slice(probesBefore);
				expect(probes.map((call) => call.status)).toEqual([404]);
				expect(handlers.map((handler) => handler._id)).not.toContain(probes[0].body._id);
				expect((await context.admin('GET', '/faults')).faults).toEqual([]);
				expect(await learntAnswer(n8n, workflow.id)).toEqual({
					at: `${context.sandbox.baseUrl}/webhook/remove_handler`,
					fingerprint: expect.any(String),
				});
			}, 120_000);

			const CASES = [
				{
					name: '401 "Unknown API key"',
					fault: { status: 401, body: { success: false, message: 'Unknown API key' } },
					says: ['The service refused the access token (401).', 'Unknown API key'],
				},
				{
					name: '200 success: false "Unknown lock state, retry later"',
					fault: {
						status: 200,
						body: { success: false, message: 'Unknown lock state, retry later' },
					},
					says: [
						'Unknown lock state, retry later',
						'Nothing shows that the service does not know the handler: ',
					],
				},
				{
					name: `a deploy's catch-all 404 "Resource not found", the learnt answer to an unknown id, which the path beside gives too`,
					fault: { status: 404, body: NOT_FOUND },
					unserved: { status: 404, body: NOT_FOUND },
					says: [
						`Nothing shows that the service does not know the handler: `,
						`/api/webhook/${BESIDE}, a path nothing serves, answered the same.`,
					],
				},
			];

			for (const { name, fault, unserved, says } of CASES) {
				test(`remove_handler answers ${name}`, async () => {
					const context = getContext();
					const { n8n } = context;
					const ids = handlers.map((handler) => handler._id);
					const logBefore = fs.statSync(n8n.logFile).size;
					const removesBefore = (await context.calls(REMOVE_ROUTE)).length;

					// One answer per handler (none retried); the path beside asked once per handler where it
					// decides.
					await context.admin('POST', '/faults', {
						route: REMOVE_ROUTE,
						count: ids.length,
						...fault,
					});
					if (unserved)
						await context.admin('POST', '/faults', {
							route: 'unserved',
							count: ids.length,
							...unserved,
						});
					await n8n.unpublish(workflow.id);
					const logged = await linesAbout(n8n, logBefore, UNREMOVED, ids);
					await n8n.waitForPublicationSettled(workflow.id);
					for (const [index, handler] of handlers.entries()) {
						expect(logged[index]).toContain(
							`"${handler.name}" (id ${handler._id}, event type ${handler.type}, URL ${handler.handler.url})`,
						);
						for (const text of says) expect(logged[index]).toContain(text);
						expect(logged[index]).toContain(
							'It stays recorded and is tried again at every publish and unpublish',
						);
					}
					expect((await context.admin('GET', '/faults')).faults).toEqual([]);
					const removes = (await context.calls(REMOVE_ROUTE)).slice(removesBefore);
					expect(removes.map((call) => [call.body._id, call.status]).sort()).toEqual(
						ids.map((id) => [id, fault.status]).sort(),
					);
					// Still on the service, and still in the trigger's record.
					expect(
						(await context.handlersOf(triggerNode)).production.map((handler) => handler._id).sort(),
					).toEqual([...ids].sort());
					expect(
						(await triggerRecord(n8n, workflow.id)).leftovers.map((record) => record.id).sort(),
					).toEqual([...ids].sort());

					// The faults are gone: the next publish removes the kept handlers (the service confirms),
					// then adds one per type; the answer to an unknown id is learnt already, so no probe is
					// sent.
					const probesBefore = (await allRemoves(context)).length;
					const removesAtPublish = (await context.calls(REMOVE_ROUTE)).length;
					await n8n.publish(workflow.id);
					handlers = await waitFor(
						async () => {
							const { production } = await context.handlersOf(triggerNode);
							return production.length === TYPES.length &&
								production.every((handler) => !ids.includes(handler._id))
								? production
								: undefined;
						},
						{ timeoutMs: 60_000, what: 'the kept handlers replaced by new ones' },
					);
					await n8n.waitForPublicationSettled(workflow.id);
					expect(handlers.map((handler) => handler.type).sort()).toEqual([...TYPES].sort());
					const removed = (await context.calls(REMOVE_ROUTE)).slice(removesAtPublish);
					expect(removed.map((call) => [call.body._id, call.status]).sort()).toEqual(
						ids.map((id) => [id, 200]).sort(),
					);
					expect((await allRemoves(context)).length - probesBefore).toBe(ids.length);
					expect((await triggerRecord(n8n, workflow.id)).leftovers).toEqual([]);

					// One event, one execution.
					await context.emit('order.shipped', {
						store_id: '1001',
						order_number: '1000',
						tracking_number: `TRK-PROOF-${executions}`,
					});
					executions += 1;
					expect(await context.waitForExecutions(workflow.id, executions)).toHaveLength(executions);
				}, 240_000);
			}

			test('a last unpublish with the service answering: no handler of the workflow left', async () => {
				const context = getContext();
				expect(await context.unpublish(workflow, triggerNode)).toEqual([]);
				expect((await context.handlersOf(triggerNode)).all).toEqual([]);
				expect((await triggerRecord(context.n8n, workflow.id)).leftovers).toEqual([]);
			}, 120_000);
		});

		test('a handler removed by hand before the unpublish: the learnt answer proves it gone, so its record ends (no log line, nothing sent for it at the next publish)', async () => {
			const context = getContext();
			const { n8n, sandbox } = context;
			// The sandbox's own answer to an unknown id, in a shape that can prove (the `gateway`
			// profile's bare 200 success: false and its web pages never do): 404 HANDLER_NOT_FOUND in the
			// documented error shape. Put back at the end (and by the afterAll above if the test fails
			// first).
			await context.admin('POST', '/config', { removeUnknown: 404, errorBodies: 'spec' });
			const workflow = await n8n.createWorkflow(
				triggerWorkflow('Removal proof: by hand', context.credential, TYPES, {
					triggerName: TRIGGER,
				}),
			);
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			const published = await context.publish(workflow, triggerNode, TYPES);
			expect(await learntAnswer(n8n, workflow.id)).toEqual({
				at: `${sandbox.baseUrl}/webhook/remove_handler`,
				fingerprint: expect.any(String),
			});
			const [byHand, other] = published;

			// Another client removes one, through the service's API.
			const response = await fetch(`${sandbox.baseUrl}/webhook/remove_handler`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${sandbox.demoToken}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ _id: byHand._id }),
			});
			expect([response.status, await response.json()]).toEqual([200, { success: true }]);

			const logBefore = fs.statSync(n8n.logFile).size;
			const removesBefore = (await context.calls(REMOVE_ROUTE)).length;
			expect(await context.unpublish(workflow, triggerNode)).toEqual([]);
			const removes = (await context.calls(REMOVE_ROUTE)).slice(removesBefore);
			expect(removes.map((call) => [call.body._id, call.status]).sort()).toEqual(
				[
					[byHand._id, 404],
					[other._id, 200],
				].sort(),
			);
			const beside = (await context.admin('GET', '/calls')).calls.filter(
				(call) => call.route === `/api/webhook/${BESIDE}`,
			);
			expect(beside.length).toBeGreaterThan(0);
			expect(beside[beside.length - 1].status).toBe(404);
			expect((await triggerRecord(n8n, workflow.id)).leftovers).toEqual([]);

			// Published again: nothing is sent for it (no leftover, and no probe: the answer was learnt
			// at this URL).
			const allRemovesBefore = (await allRemoves(context)).length;
			const fresh = await context.publish(workflow, triggerNode, TYPES);
			expect((await allRemoves(context)).length).toBe(allRemovesBefore);
			await context.emit('order.shipped', {
				store_id: '1001',
				order_number: '1000',
				tracking_number: 'TRK-BY-HAND',
			});
			expect(await context.waitForExecutions(workflow.id, 1)).toHaveLength(1);
			expect(await context.unpublish(workflow, triggerNode)).toEqual([]);
			expect(fresh.map((handler) => handler._id)).not.toContain(byHand._id);
			// n8n's log never named it: not at the unpublish, not at the publish.
			expect(triggerLines(n8n, logBefore).filter((line) => line.includes(byHand._id))).toEqual([]);
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
			await context.admin('POST', '/config', {
				...DEFAULT_SWITCHES,
				...profileSwitches(sandboxProfile()),
			});
		}, 240_000);
	});
};
