// A refused publish and a failed unpublish as the user meets them in the editor, in a real browser: what n8n shows,
// and that the trigger's message there quotes the service and says what to do. What the hosts do (read in their
// dist/): the publish toast shows the error's message (2.x: after its 5 attempts at about 0, 1, 3, 7 and 15 s; 1.x:
// at once); an error of the trigger's `delete` at unpublish reaches only n8n's log on both lines, so the handlers
// left then are named in the log and again in the error of the next publish, while they still cannot be removed.
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
const GATEWAY_404_PAGE = '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>';
const HOW_TO_REMOVE = "To remove them by hand, run the Inventory Ops node's Webhook Handler → Remove with each ID.";

module.exports = (getContext) => {
	describe('trigger refusals in the editor', () => {
		let editor;

		beforeAll(async () => {
			editor = await openEditor(getContext());
		}, 300_000);

		afterAll(async () => {
			if (editor) await editor.close();
			await getContext().admin('POST', '/config', { ...DEFAULT_SWITCHES, ...profileSwitches(sandboxProfile()) });
		});

		/** Clicks Publish (2.x: the header's button, then the dialog's) or the Active switch (1.x), waiting for nothing. */
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
			await editor.screenshotOnFailure(`${name}-failed`, async () => await toast.waitFor({ timeout: 120_000 }));
			await editor.screenshot(name);
			return (await toast.innerText()).replace(/\s+/g, ' ');
		}

		async function closeToasts() {
			for (const close of await editor.page.locator('.el-notification .el-notification__closeBtn').all()) await close.click().catch(() => {});
		}

		test('a publish the service refuses for one event type: the toast names the type and quotes the service, nothing stays registered', async () => {
			const context = getContext();
			const { n8n } = context;
			// The service refuses the suffix wildcard at add_handler (400, or 200 success: false under a profile that refuses so).
			await context.admin('POST', '/config', { wildcards: 'refused' });
			const types = ['order.shipped', 'order.status.*'];
			const workflow = await n8n.createWorkflow(triggerWorkflow('Browser: refused publish', context.credential, types, { triggerName: TRIGGER }));
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			await editor.openWorkflow(workflow.id);
			await clickPublish();

			const shown = await errorToast('The service said', 'editor-publish-refused');
			expect(shown).toContain('Publishing failed at the webhook handler for "order.status.*" (2 of 2).');
			expect(shown).toContain('The service said: Event type "order.status.*" is a wildcard; register each event type on its own.');
			expect(shown).toContain('Handlers added before it and removed again: 1 of 1.');
			expect(shown).toContain('select exact types instead, such as order.status.shipped.');
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
			if (n8n.major >= 2) {
				// n8n 2.x's own answer for such a workflow: the public API says active, the editor's publication status failed.
				expect((await n8n.getWorkflow(workflow.id)).active).toBe(true);
				const status = await n8n.rest('GET', `/workflows/${workflow.id}/publication-status`);
				expect(status.status).toBe('failed');
				expect(status.triggers.map((trigger) => trigger.errorMessage).join('\n')).toContain('The service said: Event type "order.status.*"');
				await n8n.unpublish(workflow.id);
				await n8n.waitForPublicationSettled(workflow.id);
			} else {
				expect((await n8n.getWorkflow(workflow.id)).active).toBe(false);
			}
			await closeToasts();
			await context.admin('POST', '/config', { wildcards: DEFAULT_SWITCHES.wildcards, ...profileSwitches(sandboxProfile()) });
		}, 240_000);

		test('a publish whose add_handler answer is lost: the toast says the handler may have been created, names it, and how to remove it', async () => {
			const context = getContext();
			const { n8n } = context;
			const types = ['shipment.voided', 'order.shipped'];
			const workflow = await n8n.createWorkflow(triggerWorkflow('Browser: lost answer', context.credential, types, { triggerName: TRIGGER }));
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			// The service adds the first handler, then the connection drops before its answer, at every attempt n8n makes
			// (1.x: one; 2.x: five).
			const attempts = n8n.major >= 2 ? 5 : 1;
			await context.admin('POST', '/faults', { route: ADD_ROUTE, count: attempts, drop: 'after' });
			await editor.openWorkflow(workflow.id);
			await clickPublish();

			const shown = await errorToast('may or may not have applied', 'editor-publish-lost-answer');
			expect(shown).toContain('Publishing failed at the webhook handler for "shipment.voided" (1 of 2).');
			expect(shown).toContain('The connection to the service was lost during /webhook/add_handler before an answer arrived.');
			expect(shown).toContain('The service may or may not have applied this change, so it was not sent again: check the service before trying again.');
			expect(shown).toContain(
				`The webhook handler "n8n: Browser: lost answer (workflow ${workflow.id}) - shipment.voided" (event type shipment.voided) may have been created all the same, and this trigger has no id to remove it: find it in Inventory Ops by that name and remove it there`,
			);
			// The service does hold it, once per attempt: the message was right to say so.
			const { production } = await context.handlersOf(triggerNode);
			expect(production.map((handler) => handler.type)).toEqual(Array(attempts).fill('shipment.voided'));
			if (n8n.major >= 2) {
				await n8n.unpublish(workflow.id);
				await n8n.waitForPublicationSettled(workflow.id);
			}
			await closeToasts();
			// What the user would do by hand (Webhook Handler → Remove with each ID), so that no later scenario meets them.
			for (const handler of production) {
				await fetch(`${context.sandbox.baseUrl}/webhook/remove_handler`, {
					method: 'POST',
					headers: { authorization: `Bearer ${context.credentialData.accessToken}`, 'content-type': 'application/json' },
					body: JSON.stringify({ _id: handler._id }),
				});
			}
			expect((await context.handlersOf(triggerNode)).all).toEqual([]);
		}, 240_000);

		test("unpublish while a gateway answers remove_handler with its 404 page: nothing proves the handlers gone, so n8n's log names them and the next publish removes them", async () => {
			const context = getContext();
			const { n8n } = context;
			const types = ['order.shipped', 'item.inventory'];
			const workflow = await n8n.createWorkflow(triggerWorkflow('Gateway 404 at unpublish', context.credential, types, { triggerName: TRIGGER }));
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			const published = await context.publish(workflow, triggerNode, types);
			const ids = published.map((handler) => handler._id);
			const logBefore = fs.statSync(n8n.logFile).size;

			// A 404 is not retried: one answer per handler, each the gateway's page.
			await context.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 2, status: 404, body: GATEWAY_404_PAGE });
			await n8n.unpublish(workflow.id);
			const logged = await waitFor(
				async () => fs.readFileSync(n8n.logFile, 'utf8').slice(logBefore).split('\n').find((line) => line.includes('unpublishing left handlers')),
				{ timeoutMs: 60_000, what: "the trigger's warning in n8n's log" },
			);
			await n8n.waitForPublicationSettled(workflow.id);
			for (const handler of published) expect(logged).toContain(`${handler._id} (${handler.type})`);
			expect(logged).toContain('Nothing shows that the service does not know the handler: the answer was a web page, as a gateway gives for any path it does not know.');
			expect(logged).toContain(HOW_TO_REMOVE);
			expect((await context.admin('GET', '/faults')).faults).toEqual([]);
			expect((await context.handlersOf(triggerNode)).production.map((handler) => handler._id).sort()).toEqual([...ids].sort());

			// The gateway passes removals again: the next publish removes the kept handlers first, then adds one per type.
			await n8n.publish(workflow.id);
			const fresh = await waitFor(
				async () => {
					const { production } = await context.handlersOf(triggerNode);
					return production.length === types.length && production.every((handler) => !ids.includes(handler._id)) ? production : undefined;
				},
				{ timeoutMs: 60_000, what: 'the kept handlers replaced by new ones' },
			);
			expect(fresh.map((handler) => handler.type).sort()).toEqual([...types].sort());
			await n8n.waitForPublicationSettled(workflow.id);
			expect(await context.unpublish(workflow, triggerNode)).toEqual([]);
		}, 240_000);

		test('unpublish while the service fails every removal: tried for 7 s, then the ids and how to remove them in n8n\'s log and in the next publish\'s toast; once the service is back, the next publish removes them', async () => {
			const context = getContext();
			const { n8n } = context;
			const types = ['order.shipped', 'item.inventory'];
			const workflow = await n8n.createWorkflow(triggerWorkflow('Browser: unpublish, service down', context.credential, types, { triggerName: TRIGGER }));
			const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			const published = await context.publish(workflow, triggerNode, types);
			const ids = published.map((handler) => handler._id);
			const removalsBefore = (await context.calls(REMOVE_ROUTE)).length;
			const logBefore = fs.statSync(n8n.logFile).size;

			// Every removal of the unpublish fails: 2 handlers, 4 tries each (at about 0, 1, 3 and 7 s).
			await context.admin('POST', '/faults', { route: REMOVE_ROUTE, count: 8, status: 503 });
			await editor.openWorkflow(workflow.id);
			await editor.unpublish();
			const logged = await waitFor(
				async () => fs.readFileSync(n8n.logFile, 'utf8').slice(logBefore).split('\n').find((line) => line.includes('unpublishing left handlers')),
				{ timeoutMs: 60_000, what: "the trigger's warning in n8n's log" },
			);
			await n8n.waitForPublicationSettled(workflow.id);
			for (const handler of published) expect(logged).toContain(`${handler._id} (${handler.type})`);
			expect(logged).toContain(HOW_TO_REMOVE);
			expect((await context.calls(REMOVE_ROUTE)).length - removalsBefore).toBe(8);
			expect((await context.handlersOf(triggerNode)).production.map((handler) => handler._id).sort()).toEqual([...ids].sort());
			// n8n shows nothing of it in the editor.
			await expect(editor.page.locator('.el-notification').filter({ hasText: 'could not be removed' }).count()).resolves.toBe(0);

			// Published again while the service still fails (1.x tries once, 2.x five times): the toast lists them.
			await context.admin('POST', '/faults', { route: REMOVE_ROUTE, count: n8n.major >= 2 ? 10 : 2, status: 503 });
			await editor.openWorkflow(workflow.id);
			await clickPublish();
			const shown = await errorToast(HOW_TO_REMOVE, 'editor-unpublish-leftovers');
			expect(shown).toContain('Publishing stopped before adding any handler, so that no event type gets two');
			expect(shown).toContain('2 webhook handler(s) an earlier registration left could not be removed');
			for (const handler of published) expect(shown).toContain(`${handler._id} (${handler.type})`);
			// The service's answer: its words, or under a profile answering with a gateway's HTML page, that page's title.
			expect(shown).toMatch(context.answers.errorBodies === 'html' ? /web page titled "503 / : /The service said: \S/);
			expect((await context.admin('GET', '/faults')).faults).toEqual([]);
			if (n8n.major >= 2) {
				await n8n.unpublish(workflow.id);
				await n8n.waitForPublicationSettled(workflow.id);
			}
			await closeToasts();

			// The service works again: the next publish removes them first, then adds one handler per type.
			await n8n.publish(workflow.id);
			const fresh = await waitFor(
				async () => {
					const { production } = await context.handlersOf(triggerNode);
					return production.length === types.length && production.every((handler) => !ids.includes(handler._id)) ? production : undefined;
				},
				{ timeoutMs: 60_000, what: 'the left handlers replaced by new ones' },
			);
			expect(fresh.map((handler) => handler.type).sort()).toEqual([...types].sort());
			await n8n.waitForPublicationSettled(workflow.id);
			expect(await context.unpublish(workflow, triggerNode)).toEqual([]);
		}, 300_000);
	});
};
