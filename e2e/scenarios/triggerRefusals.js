// A refused publish and a failed unpublish as the user meets them in the editor, in a real browser:
// what n8n shows, and that the trigger's message there quotes the service and says what to do. What
// the hosts do (read in their dist/): the publish toast shows the error's message (2.x: after its 5
// attempts at about 0, 1, 3, 7 and 15 s; 1.x: at once); an error of the trigger's `delete` at
// unpublish reaches only n8n's log on both lines, so the handlers left then are named in the log,
// one line each, and again by the next publish, which goes ahead without them.
const { DEFAULT_SWITCHES } = require('../../sandbox/switches');
const { profileSwitches } = require('../../sandbox/profiles');
const fs = require('node:fs');

const { openEditor } = require('../lib/browser');
const { sandboxProfile } = require('../lib/context');
const { waitFor } = require('../lib/wait');
const { triggerWorkflow } = require('../lib/workflows');

const TRIGGER = 'Inventory Ops Trigger';
const ADD_ROUTE = '/api/webhook/add_handler';
const REMOVE_ROUTE = '/api/webhook/remove_handler';
const GATEWAY_404_PAGE =
	'<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>';
const howToRemove = (id) =>
	`To remove it by hand, run the Inventory Ops node's Webhook Handler → Remove with ID ${id}, or find it by its name in Inventory Ops and remove it there.`;

/**
 * n8n's log since `from` (bytes): the trigger's line about each of `ids` that starts with `lead`,
 * once all are there.
 */
async function leftoverLines(n8n, from, lead, ids) {
	return await waitFor(
		async () => {
			// Bytes: the lines hold "→", so a character offset would land past the start.
			const lines = fs
				.readFileSync(n8n.logFile)
				.subarray(from)
				.toString('utf8')
				.split('\n')
				.filter((line) => line.includes(`Inventory Ops Trigger: ${lead}`));
			const found = ids.map((id) => lines.find((line) => line.includes(`(id ${id}, event type `)));
			return found.every(Boolean) ? found : undefined;
		},
		{ timeoutMs: 60_000, what: `the trigger's lines "${lead}" in n8n's log for ${ids.join(', ')}` },
	);
}

module.exports = (getContext) => {
	describe('trigger refusals in the editor', () => {
		let editor;

		beforeAll(async () => {
			editor = await openEditor(getContext());
		}, 300_000);

		afterAll(async () => {
			if (editor) await editor.close();
			await getContext().admin('POST', '/config', {
				...DEFAULT_SWITCHES,
				...profileSwitches(sandboxProfile()),
			});
		});

		/**
		 * Clicks Publish (2.x: the header's button, then the dialog's) or the Active switch (1.x),
		 * waiting for nothing.
		 */
		async function clickPublish() {
			const { page } = editor;
			if (getContext().n8n.major >= 2) {
				await page.locator('[data-test-id="workflow-open-publish-modal-button"]').first().click();
				await page.locator('[data-test-id="workflow-publish-button"]').first().click();
			} else {
				await page.locator('[data-test-id="workflow-activate-switch"]').first().click();
			}
		}

		/** The error toast n8n shows for the publish, once it contains `text`; its whole text. */
		async function errorToast(text, name) {
			const toast = editor.page.locator('.el-notification').filter({ hasText: text }).first();
			await editor.screenshotOnFailure(
				`${name}-failed`,
				async () => await toast.waitFor({ timeout: 120_000 }),
			);
			await editor.screenshot(name);
			return (await toast.innerText()).replace(/\s+/g, ' ');
		}

		async function closeToasts() {
			for (const close of await editor.page
				.locator('.el-notification .el-notification__closeBtn')
				.all())
				await close.click().catch(() => {});
		}

		test('a publish the service refuses for one event type: the toast names the type and quotes the service, nothing stays registered', async () => {
			const context = getContext();
			const { n8n } = context;
			// The service refuses the suffix wildcard at add_handler (400, or 200 success: false under a
			// profile that refuses so).
			await context.admin('POST', '/config', { wildcards: 'refused' });
			const types = ['order.shipped', 'order.status.*'];
			const workflow = await n8n.createWorkflow(
				triggerWorkflow('Browser: refused publish', context.credential, types, {
					triggerName: TRIGGER,
				}),
			);
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			await editor.openWorkflow(workflow.id);
			await clickPublish();

			const shown = await errorToast('The service said', 'editor-publish-refused');
			expect(shown).toContain(
				'Publishing failed at the webhook handler for "order.status.*" (2 of 2).',
			);
			expect(shown).toContain(
				'The service said: Event type "order.status.*" is a wildcard; register each event type on its own.',
			);
			expect(shown).toContain('Handlers added before it and removed again: 1 of 1.');
			expect(shown).toContain('select exact types instead, such as order.status.shipped.');
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
			if (n8n.major >= 2) {
				// n8n 2.x's own answer for such a workflow: the public API says active, the editor's
				// publication status failed.
				expect((await n8n.getWorkflow(workflow.id)).active).toBe(true);
				const status = await n8n.rest('GET', `/workflows/${workflow.id}/publication-status`);
				expect(status.status).toBe('failed');
				expect(status.triggers.map((trigger) => trigger.errorMessage).join('\n')).toContain(
					'The service said: Event type "order.status.*"',
				);
				await n8n.unpublish(workflow.id);
				await n8n.waitForPublicationSettled(workflow.id);
			} else {
				expect((await n8n.getWorkflow(workflow.id)).active).toBe(false);
			}
			await closeToasts();
			await context.admin('POST', '/config', {
				wildcards: DEFAULT_SWITCHES.wildcards,
				...profileSwitches(sandboxProfile()),
			});
		}, 240_000);

		test('a publish whose add_handler answer is lost: the toast says the handler may have been created, names it, and how to remove it', async () => {
			const context = getContext();
			const { n8n } = context;
			const types = ['shipment.voided', 'order.shipped'];
			const workflow = await n8n.createWorkflow(
				triggerWorkflow('Browser: lost answer', context.credential, types, {
					triggerName: TRIGGER,
				}),
			);
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			// The service adds the first handler, then the connection drops before its answer, at every
			// attempt n8n makes (1.x: one; 2.x: five).
			const attempts = n8n.major >= 2 ? 5 : 1;
			await context.admin('POST', '/faults', { route: ADD_ROUTE, count: attempts, drop: 'after' });
			await editor.openWorkflow(workflow.id);
			await clickPublish();

			const shown = await errorToast('may or may not have applied', 'editor-publish-lost-answer');
			expect(shown).toContain(
				'Publishing failed at the webhook handler for "shipment.voided" (1 of 2).',
			);
			expect(shown).toContain(
				'The connection to the service was lost during /webhook/add_handler before an answer arrived.',
			);
			expect(shown).toContain(
				'The service may or may not have applied this change, so it was not sent again: check the service before trying again.',
			);
			expect(shown).toContain(
				`The failed add may have created its handler all the same. This trigger cannot remove the webhook handler "n8n: Browser: lost answer (workflow ${workflow.id}) - shipment.voided" (no id, event type shipment.voided, URL `,
			);
			// The service does hold it, once per attempt: the message was right to say so.
			const { production } = await context.handlersOf(triggerNode);
			expect(production.map((handler) => handler.type)).toEqual(
				Array(attempts).fill('shipment.voided'),
			);
			if (n8n.major >= 2) {
				await n8n.unpublish(workflow.id);
				await n8n.waitForPublicationSettled(workflow.id);
			}
			await closeToasts();
			// What the user would do by hand (Webhook Handler → Remove with each handler's ID), so that
			// no later scenario meets them.
			for (const handler of production) {
				await fetch(`${context.sandbox.baseUrl}/webhook/remove_handler`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${context.credentialData.accessToken}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({ _id: handler._id }),
				});
			}
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
		}, 240_000);

		test("unpublish while a gateway answers remove_handler with its 404 page: nothing proves the handlers gone, so n8n's log names them and the next publish removes them", async () => {
			const context = getContext();
			const { n8n } = context;
			const types = ['order.shipped', 'item.inventory'];
			const workflow = await n8n.createWorkflow(
				triggerWorkflow('Gateway 404 at unpublish', context.credential, types, {
					triggerName: TRIGGER,
				}),
			);
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			const published = await context.publish(workflow, triggerNode, types);
			const ids = published.map((handler) => handler._id);
			const logBefore = fs.statSync(n8n.logFile).size;

			// A 404 is not retried: one answer per handler, each the gateway's page.
			await context.admin('POST', '/faults', {
				route: REMOVE_ROUTE,
				count: 2,
				status: 404,
				body: GATEWAY_404_PAGE,
			});
			await n8n.unpublish(workflow.id);
			const logged = await leftoverLines(
				n8n,
				logBefore,
				'unpublishing could not remove the webhook handler',
				ids,
			);
			await n8n.waitForPublicationSettled(workflow.id);
			for (const [index, handler] of published.entries()) {
				expect(logged[index]).toContain(
					`"${handler.name}" (id ${handler._id}, event type ${handler.type}, URL ${handler.handler.url})`,
				);
				expect(logged[index]).toContain(
					'Nothing shows that the service does not know the handler: the answer was a web page, as a gateway gives for any path it does not know.',
				);
				expect(logged[index]).toContain(howToRemove(handler._id));
			}
			expect((await context.admin('GET', '/faults')).faults).toEqual([]);
			expect(
				(await context.handlersOf(triggerNode)).production.map((handler) => handler._id).sort(),
			).toEqual([...ids].sort());

			// The gateway passes removals again: the next publish removes the kept handlers first, then
			// adds one per type.
			await n8n.publish(workflow.id);
			const fresh = await waitFor(
				async () => {
					const { production } = await context.handlersOf(triggerNode);
					return production.length === types.length &&
						production.every((handler) => !ids.includes(handler._id))
						? production
						: undefined;
				},
				{ timeoutMs: 60_000, what: 'the kept handlers replaced by new ones' },
			);
			expect(fresh.map((handler) => handler.type).sort()).toEqual([...types].sort());
			await n8n.waitForPublicationSettled(workflow.id);
			expect(await context.unpublish(workflow, triggerNode)).toEqual([]);
		}, 240_000);

		// Issue 51: before, every later publish stopped ("Publishing stopped before adding any handler
		// …"), for ever.
		test("remove_handler answering a gateway's 404 page for good: unpublish, publish again in the editor on the first try, one event one execution, n8n's log names every leftover", async () => {
			const context = getContext();
			const { n8n } = context;
			const types = ['order.shipped', 'item.inventory'];
			const workflow = await n8n.createWorkflow(
				triggerWorkflow('Browser: leftovers for good', context.credential, types, {
					triggerName: TRIGGER,
				}),
			);
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			const published = await context.publish(workflow, triggerNode, types);
			const ids = published.map((handler) => handler._id);
			const logBefore = fs.statSync(n8n.logFile).size;

			// Every removal from now on meets the gateway's page (a 404 is not retried); drained at the
			// end.
			await context.admin('POST', '/faults', {
				route: REMOVE_ROUTE,
				count: 50,
				status: 404,
				body: GATEWAY_404_PAGE,
			});
			await editor.openWorkflow(workflow.id);
			await editor.unpublish();
			const unpublished = await leftoverLines(
				n8n,
				logBefore,
				'unpublishing could not remove the webhook handler',
				ids,
			);
			await n8n.waitForPublicationSettled(workflow.id);
			for (const [index, handler] of published.entries()) {
				expect(unpublished[index]).toContain(
					`"${handler.name}" (id ${handler._id}, event type ${handler.type}, URL ${handler.handler.url})`,
				);
				expect(unpublished[index]).toContain('The answer was a web page titled "404 Not Found"');
				expect(unpublished[index]).toContain(howToRemove(handler._id));
			}
			// n8n shows nothing of it in the editor.
			await expect(
				editor.page.locator('.el-notification').filter({ hasText: 'could not' }).count(),
			).resolves.toBe(0);

			// Published again in the editor: it goes through on the first try (one add_handler per type,
			// no error toast).
			const addsBefore = (await context.calls(ADD_ROUTE)).length;
			const publishedLog = fs.statSync(n8n.logFile).size;
			await editor.openWorkflow(workflow.id);
			await editor.publish();
			const all = await waitFor(
				async () => {
					const { production } = await context.handlersOf(triggerNode);
					return production.length === 2 * types.length ? production : undefined;
				},
				{ timeoutMs: 60_000, what: 'the new handlers beside the leftovers' },
			);
			await editor.closeActivationDialog();
			await n8n.waitForPublicationSettled(workflow.id);
			expect((await context.calls(ADD_ROUTE)).length - addsBefore).toBe(types.length);
			await expect(
				editor.page.locator('.el-notification').filter({ hasText: 'could not' }).count(),
			).resolves.toBe(0);
			const republished = await leftoverLines(
				n8n,
				publishedLog,
				'publishing goes ahead without removing the webhook handler',
				ids,
			);
			for (const [index, id] of ids.entries())
				expect(republished[index]).toContain(howToRemove(id));

			// One event, one execution: the leftover's delivery carries the old secret and is refused.
			await context.emit('order.shipped', {
				store_id: '1001',
				order_number: '1000',
				tracking_number: 'TRK-LEFTOVERS',
			});
			expect(await context.waitForExecutions(workflow.id, 1)).toHaveLength(1);

			// The gateway passes removals again: the next unpublish removes the leftovers and the new
			// handlers.
			const { faults } = await context.admin('GET', '/faults');
			for (let left = faults.reduce((sum, fault) => sum + fault.remaining, 0); left > 0; left--) {
				await fetch(`${context.sandbox.baseUrl}/webhook/remove_handler`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${context.credentialData.accessToken}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({ _id: 'drain' }),
				});
			}
			expect(all.filter((handler) => ids.includes(handler._id))).toHaveLength(ids.length);
			expect(await context.unpublish(workflow, triggerNode)).toEqual([]);
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
		}, 300_000);
	});
};
