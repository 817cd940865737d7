// The editor as a no-code user meets it: the real n8n editor in a real browser (Debian's
// `chromium`, driven by playwright-core from e2e/tools/; see e2e/lib/browser.js). Each test is one
// user task and asserts what is on the screen, with n8n's own `data-test-id` selectors. Its
// screenshots go to reports/screenshots/ (README's pictures are taken by e2e/screenshot.js).
const { DEFAULT_SWITCHES } = require('../../sandbox/switches');
const { profileSwitches } = require('../../sandbox/profiles');
const { openEditor } = require('../lib/browser');
const { sandboxProfile } = require('../lib/context');
const { seededShipment } = require('../lib/examples');
const { waitFor } = require('../lib/wait');
const {
	MANUAL_TRIGGER,
	actionNode,
	manualTrigger,
	node,
	triggerWorkflow,
} = require('../lib/workflows');

const TRIGGER = 'Inventory Ops Trigger';

module.exports = (getContext) => {
	describe('the editor in a real browser', () => {
		let editor;
		const ids = (testId) => `[data-test-id="${testId}"]`;

		beforeAll(async () => {
			editor = await openEditor(getContext());
		}, 300_000);

		afterAll(async () => {
			if (editor) await editor.close();
		});

		test('the node panel finds the trigger by name, and its entries read as sentences', async () => {
			const { page } = editor;
			await editor.newWorkflow();
			await page.locator(ids('canvas-plus-button')).first().click();
			await page.locator(ids('node-creator-search-bar')).first().fill('Inventory Ops');
			const names = page.locator(ids('node-creator-item-name'));
			await names
				.filter({ hasText: /^Inventory Ops$/ })
				.first()
				.waitFor();
			await names
				.filter({ hasText: /^Inventory Ops$/ })
				.first()
				.click();
			// The trigger's entries: the lines of the panel that start with "On " (both lines list them
			// under Triggers).
			await page.getByText('On order shipped', { exact: true }).first().waitFor();
			const texts = (await page.locator('body').innerText())
				.split('\n')
				.map((text) => text.trim())
				.filter((text) => text.startsWith('On '));
			await editor.screenshot('editor-node-panel');
			expect(texts).toEqual(
				expect.arrayContaining([
					'On order shipped',
					'On order status changed',
					'On shipment voided',
				]),
			);
			// n8n builds each entry from the event option; a name that repeats its type read "On order
			// shipped order shipped".
			for (const text of texts) expect(text).not.toMatch(/\b(\w+ \w+)\b.*\b\1\b/i);

			// Picked, it lands on the canvas at version 1.1, the one n8n reads no Webhook-node option
			// for, and saves so.
			await page.getByText('On order shipped', { exact: true }).first().click();
			await page.locator(ids('node-parameters')).first().waitFor();
			await page.keyboard.press('Escape');
			await page.keyboard.press('Control+s');
			await page.waitForURL(
				(url) => /\/workflow\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/new'),
			);
			const workflowId = new URL(page.url()).pathname.split('/').pop();
			const saved = await waitFor(
				async () =>
					await getContext()
						.n8n.getWorkflow(workflowId)
						.catch(() => undefined),
				{ what: 'the saved workflow' },
			);
			const added = saved.nodes.filter(
				(node) => node.type === 'n8n-nodes-inventory-ops.inventoryOpsTrigger',
			);
			expect(added.map((node) => [node.typeVersion, node.parameters.events])).toEqual([
				[1.1, ['order.shipped']],
			]);
		}, 180_000);

		test('the credential form: created empty, filled in and saved, its Test passes; a bad token is refused; nothing that changes data is sent', async () => {
			const context = getContext();
			const { page } = editor;
			const WRITES = [
				'/api/kit/create',
				'/s/ship/shipping/restore_inventory',
				'/api/webhook/add_handler',
				'/api/webhook/remove_handler',
			];
			const writes = async () =>
				(await Promise.all(WRITES.map((route) => context.calls(route)))).map(
					(calls) => calls.length,
				);
			const writesBefore = await writes();
			// Created as a user does: Create credential, pick the type, fill in the form, Save (n8n then
			// runs the Test).
			await editor.newCredential('Inventory Ops API');
			for (const field of ['accessToken', 'baseUrl', 'appBaseUrl']) {
				// Nothing filled in for the user: no address of ours is saved unless typed.
				await expect(
					page
						.locator(ids(`parameter-input-${field}`))
						.locator('input')
						.first()
						.inputValue(),
				).resolves.toBe('');
			}
			await expect(
				page
					.locator(ids('parameter-input-baseUrl'))
					.locator('input')
					.first()
					.getAttribute('placeholder'),
			).resolves.toMatch(/^https:\/\/inventory\.example\.com\//);
			await editor.screenshot('editor-credential-new');
			for (const field of ['accessToken', 'baseUrl', 'appBaseUrl']) {
				await page
					.locator(ids(`parameter-input-${field}`))
					.locator('input')
					.first()
					.fill(context.credentialData[field]);
			}
			await page.locator(ids('credential-save-button')).first().click();
			await page.getByText('Connection tested successfully').first().waitFor({ timeout: 60_000 });
			await editor.screenshot('editor-credential');
			await page.keyboard.press('Escape');

			const bad = await context.createCredentialWith('Sandbox, refused token', {
				accessToken: 'not-a-token',
			});
			await editor.openCredential(bad.id);
			await editor.screenshotOnFailure('editor-credential-refused', async () => {
				await page
					.getByText(/Couldn.t connect with these settings/)
					.first()
					.waitFor({ timeout: 60_000 });
				// The reason itself sits behind "More details".
				await page.getByText('More details').first().click();
				// A gateway's page (the profile's errors) does not show the service refusing the token.
				const refused =
					context.answers.errorBodies === 'html'
						? /The access token is not confirmed: .* answered 401, not the service refusing it/
						: /refused the access token \(401\)/;
				await page.getByText(refused).first().waitFor();
			});
			await editor.screenshot('editor-credential-refused');
			// The dialog keeps its success banner in the page, hidden: only what is shown counts.
			await expect(
				page.getByText('Connection tested successfully').filter({ visible: true }).count(),
			).resolves.toBe(0);
			await page.keyboard.press('Escape');

			// The Base URL given for both (a user's likeliest slip): the test sends nothing to the
			// restore path (a restore changes data), only to the path beside it, which answers like any
			// other address of the service: it passes, and its message (e2e/scenarios/credential.js reads
			// it through the API) says only a first real restore proves it.
			const wrongApp = await context.createCredentialWith('Sandbox, Base URL as App Base URL', {
				appBaseUrl: context.credentialData.baseUrl,
			});
			await editor.openCredential(wrongApp.id);
			await editor.screenshotOnFailure('editor-credential-wrong-app-url', async () => {
				await page
					.getByText('Connection tested successfully')
					.filter({ visible: true })
					.first()
					.waitFor({ timeout: 60_000 });
			});
			await page.keyboard.press('Escape');
			// Created, saved, tested three times: nothing reached an operation that may change data.
			expect(await writes()).toEqual(writesBefore);
		}, 240_000);

		test('Order → Get Many: its fields, Simplify on, no "Execute Once" hint, and the orders in the output panel', async () => {
			const context = getContext();
			const { page } = editor;
			const references = [
				{ store: '1002', number: '1001' },
				{ store: '1002', number: '1002' },
			];
			const n8nApi = await context.n8n.createCredential({
				name: 'This n8n',
				type: 'n8nApi',
				data: { apiKey: context.n8n.apiKey, baseUrl: `${context.n8n.baseUrl}/api/v1` },
			});
			const workflow = await context.n8n.createWorkflow({
				name: 'Browser: Get Many',
				nodes: [
					manualTrigger([0, 0]),
					node(
						'Two References',
						'n8n-nodes-base.code',
						{ jsCode: `return ${JSON.stringify(references.map((json) => ({ json })))};` },
						{
							position: [220, 0],
							typeVersion: 2,
						},
					),
					actionNode(
						'Get Many',
						context.credential,
						{
							resource: 'order',
							operation: 'lookUp',
							lookUpBy: 'itemFields',
							storeIdField: 'store',
							orderNumberField: 'number',
						},
						[440, 0],
					),
					// n8n's own node with an operation n8n counts as list-like (getAll), on the same two
					// items: it must show the hint, or the check below could not see it either. It lists this
					// n8n's workflows through its public API.
					node(
						'List Workflows',
						'n8n-nodes-base.n8n',
						{ resource: 'workflow', operation: 'getAll', returnAll: false, limit: 1 },
						{
							position: [440, 200],
							credential: n8nApi,
							credentialType: 'n8nApi',
						},
					),
				],
				connections: {
					[MANUAL_TRIGGER]: { main: [[{ node: 'Two References', type: 'main', index: 0 }]] },
					'Two References': {
						main: [
							[
								{ node: 'Get Many', type: 'main', index: 0 },
								{ node: 'List Workflows', type: 'main', index: 0 },
							],
						],
					},
				},
			});
			await editor.openNode(workflow.id, 'Get Many');
			const parameters = page.locator(ids('node-parameters'));
			await expect(parameters.getByText('Look Up By', { exact: true }).count()).resolves.toBe(1);
			await expect(parameters.getByText('Simplify', { exact: true }).count()).resolves.toBe(1);
			// Fields of another Look Up By mode are not shown.
			await expect(page.locator(ids('parameter-input-references')).count()).resolves.toBe(0);
			await expect(page.locator(ids('parameter-input-storeIdField')).count()).resolves.toBe(1);

			await page.locator(ids('node-execute-button')).first().click();
			const output = page.locator(ids('output-panel'));
			await output.getByText('2 items').first().waitFor({ timeout: 60_000 });
			await editor.screenshot('editor-get-many-simplified');
			const shown = await output.innerText();
			expect(shown).toContain('order_number');
			// n8n's generic hint for list-like operation names ("This node runs multiple times... Execute
			// Once").
			const executeOnceHint = /runs multiple times|Execute Once/i;
			expect(shown).not.toMatch(executeOnceHint);
			await page.keyboard.press('Escape');

			await editor.openNode(workflow.id, 'List Workflows');
			await page.locator(ids('node-execute-button')).first().click();
			await output.getByText(executeOnceHint).first().waitFor({ timeout: 60_000 });
		}, 240_000);

		test('Order → Get Many on a slow service: Max Batch Size among its options, and the growth notice in the output panel', async () => {
			const context = getContext();
			const { page } = editor;
			const { orders } = await context.admin('GET', '/orders?limit=2000');
			// Every seeded order (the e2e sandbox seeds 500): enough for a doubling with two calls in
			// flight.
			const refs = orders.map(({ store_id, order_number }) => ({ store_id, order_number }));
			const workflow = await context.n8n.createWorkflow({
				name: 'Browser: Get Many grows its batches',
				nodes: [
					manualTrigger([0, 0]),
					node(
						'All References',
						'n8n-nodes-base.code',
						{ jsCode: `return [{ json: { refs: ${JSON.stringify(refs)} } }];` },
						{
							position: [220, 0],
							typeVersion: 2,
						},
					),
					// Max Calls in Flight 2: Auto starts at its cap, so only larger batches can ask for more
					// at a time. A Timeout of 10 minutes: a doubling is not tried when its call could come
					// near the Timeout, and a loaded machine's slowest call must not be what decides.
					actionNode(
						'Get Many',
						context.credential,
						{
							resource: 'order',
							operation: 'lookUp',
							lookUpBy: 'list',
							references: '={{ $json.refs }}',
							options: { batchSize: 50, maxCallsInFlight: 2, maxBatchSize: 150, timeout: 600_000 },
						},
						[440, 0],
					),
				],
				connections: {
					[MANUAL_TRIGGER]: { main: [[{ node: 'All References', type: 'main', index: 0 }]] },
					'All References': { main: [[{ node: 'Get Many', type: 'main', index: 0 }]] },
				},
			});
			// A distant service (calls take about as long with more references in each) answering as
			// documented: a profile whose orders lack store_id would have the node ask orders sharing a
			// number apart, in other sizes. A second per call: the node keeps a doubled batch when it is
			// clearly faster per reference (under 0.8 of the time), and a machine loaded enough to add
			// 100 ms to a call once made the 100 ms of before read as no gain; it would now have to add
			// 600 ms to every call of the doubled size.
			await context.admin('POST', '/config', { ...DEFAULT_SWITCHES, latencyMs: 1000 });
			try {
				await editor.openNode(workflow.id, 'Get Many');
				// The options render after the panel opens: wait for the field rather than counting at
				// once.
				const maxBatchSize = page
					.locator(ids('node-parameters'))
					.getByText('Max Batch Size', { exact: true });
				await maxBatchSize.first().waitFor();
				await expect(maxBatchSize.count()).resolves.toBe(1);
				await page.locator(ids('node-execute-button')).first().click();
				const output = page.locator(ids('output-panel'));
				await output.getByText(`${refs.length} items`).first().waitFor({ timeout: 120_000 });
				// Drawn from the same run data as the items, but later on a loaded machine: the page's own
				// time limit.
				const notice = output.getByText(/^Batch Size grew from 50 to \d+ in this run/).first();
				await notice.waitFor();
				// Doubled at least once, and never beyond Max Batch Size.
				const grewTo = Number((await notice.innerText()).match(/to (\d+)/)[1]);
				expect(grewTo).toBeGreaterThanOrEqual(100);
				expect(grewTo).toBeLessThanOrEqual(150);
				await editor.screenshot('editor-get-many-batch-growth');
				await page.keyboard.press('Escape');
			} finally {
				await context.admin('POST', '/config', {
					...DEFAULT_SWITCHES,
					...profileSwitches(sandboxProfile()),
				});
			}
		}, 240_000);

		test('every operation opens with its own fields, and only those; its Timeout says milliseconds', async () => {
			const context = getContext();
			const { page } = editor;
			// Each operation with one field of its own and one field of another operation that must not
			// show.
			const operations = [
				{ resource: 'kit', operation: 'create', own: 'sku', foreign: 'handlerId' },
				{
					resource: 'shipment',
					operation: 'restoreInventory',
					own: 'trackingNumber',
					foreign: 'sku',
				},
				{ resource: 'webhookHandler', operation: 'add', own: 'url', foreign: 'trackingNumber' },
				{ resource: 'webhookHandler', operation: 'remove', own: 'handlerId', foreign: 'url' },
			];
			const nodes = [manualTrigger([0, 0])];
			// Each with its Timeout set, as a user who added it under Options: the label carries the unit
			// (milliseconds).
			operations.forEach(({ resource, operation }, index) =>
				nodes.push(
					actionNode(
						`${resource} ${operation}`,
						context.credential,
						{ resource, operation, options: { timeout: 30000 } },
						[220 * (index + 1), 0],
					),
				),
			);
			const workflow = await context.n8n.createWorkflow({
				name: 'Browser: every operation',
				nodes,
				connections: {},
			});
			for (const { resource, operation, own, foreign } of operations) {
				await editor.openNode(workflow.id, `${resource} ${operation}`);
				await expect(page.locator(ids(`parameter-input-${own}`)).count()).resolves.toBe(1);
				await expect(page.locator(ids(`parameter-input-${foreign}`)).count()).resolves.toBe(0);
				const parameters = page.locator(ids('node-parameters'));
				await parameters.getByText('Timeout (Milliseconds)', { exact: true }).first().waitFor();
				await expect(parameters.getByText('Timeout', { exact: true }).count()).resolves.toBe(0);
				await expect(
					page.locator(ids('parameter-input-timeout')).locator('input').first().inputValue(),
				).resolves.toBe('30000');
				await editor.screenshot(`editor-${resource}-${operation}`);
				await page.keyboard.press('Escape');
			}
		}, 300_000);

		test('Kit → Create: the form a user fills in creates one kit, with what was typed', async () => {
			const context = getContext();
			const { page } = editor;
			const [component] = (await context.admin('GET', '/items')).items;
			const workflow = await context.n8n.createWorkflow({
				name: 'Browser: Kit Create',
				nodes: [
					manualTrigger([0, 0]),
					actionNode(
						'Create Kit',
						context.credential,
						{ resource: 'kit', operation: 'create' },
						[220, 0],
					),
				],
				connections: {
					[MANUAL_TRIGGER]: { main: [[{ node: 'Create Kit', type: 'main', index: 0 }]] },
				},
			});
			await editor.openNode(workflow.id, 'Create Kit');
			const sku = `KIT-BROWSER-${Date.now()}`;
			await editor.fill('name', 'Browser Bundle');
			await editor.fill('sku', sku);
			await page.getByText('Add Component Item', { exact: true }).first().click();
			await editor.fill('itemId', component.item_id);
			await editor.screenshot('editor-kit-create-filled');
			await page.locator(ids('node-execute-button')).first().click();
			await page
				.locator(ids('output-panel'))
				.getByText('new_kit_id')
				.first()
				.waitFor({ timeout: 60_000 });
			const kits = (await context.admin('GET', '/kits')).kits.filter((kit) => kit.sku === sku);
			expect(kits).toHaveLength(1);
			expect(kits[0]).toMatchObject({ name: 'Browser Bundle' });
			expect(kits[0].items.map((item) => [item.item_id, item.quantity])).toEqual([
				[component.item_id, 1],
			]);
			await page.keyboard.press('Escape');
		}, 240_000);

		test("Shipment → Restore Inventory twice: the second run's error says it was already restored and nothing changed", async () => {
			const context = getContext();
			const { page } = editor;
			const shipment = await seededShipment(context.sandbox);
			const workflow = await context.n8n.createWorkflow({
				name: 'Browser: Restore twice',
				nodes: [
					manualTrigger([0, 0]),
					actionNode(
						'Restore',
						context.credential,
						{
							resource: 'shipment',
							operation: 'restoreInventory',
							storeId: shipment.store_id,
							orderNumber: shipment.order_number,
							shipmentId: shipment.shipment_id,
						},
						[220, 0],
					),
				],
				connections: {
					[MANUAL_TRIGGER]: { main: [[{ node: 'Restore', type: 'main', index: 0 }]] },
				},
			});
			await editor.openNode(workflow.id, 'Restore');
			const output = page.locator(ids('output-panel'));
			await page.locator(ids('node-execute-button')).first().click();
			await output.getByText('1 item').first().waitFor({ timeout: 60_000 });
			// What was restored is in the output: the shipment and what it put back.
			await output
				.getByText(/restoredItems/)
				.first()
				.waitFor();
			// Opened anew for the second run, as a user coming back to it would: in n8n 2.41.1 a second
			// "Execute step" in the same open panel fails in the editor itself ("Cannot read properties
			// of null").
			await editor.openNode(workflow.id, 'Restore');
			await page.locator(ids('node-execute-button')).first().click();
			await output
				.getByText(/already restored/)
				.first()
				.waitFor({ timeout: 60_000 });
			await editor.screenshot('editor-restore-error');
			const shown = await output.innerText();
			expect(shown).toContain('nothing was restored');
			// The generic 409 text spoke of a duplicate SKU, which a shipment does not have.
			expect(shown).not.toMatch(/SKU/);
			await page.keyboard.press('Escape');
		}, 240_000);

		test('a credential whose Base URL expression n8n cannot resolve: the output panel names the field and the item, nothing sent', async () => {
			const context = getContext();
			const { page } = editor;
			// A credential whose Base URL is an expression this item cannot satisfy (the item has no
			// `region`).
			const credential = await context.createCredentialWith(`Browser: unreadable ${Date.now()}`, {
				baseUrl: '={{ $json.region.baseUrl }}',
			});
			const workflow = await context.n8n.createWorkflow({
				name: 'Browser: unreadable credential',
				nodes: [
					manualTrigger([0, 0]),
					actionNode(
						'Look Up',
						credential,
						{
							resource: 'order',
							operation: 'lookUp',
							lookUpBy: 'list',
							references: '[{"store_id":"1001","order_number":"1000"}]',
						},
						[220, 0],
					),
				],
				connections: {
					[MANUAL_TRIGGER]: { main: [[{ node: 'Look Up', type: 'main', index: 0 }]] },
				},
			});
			await editor.openNode(workflow.id, 'Look Up');
			const output = page.locator(ids('output-panel'));
			await page.locator(ids('node-execute-button')).first().click();
			await output
				.getByText(/Base URL is empty for item 0/)
				.first()
				.waitFor({ timeout: 60_000 });
			await editor.screenshot('editor-unresolved-credential');
			const shown = await output.innerText();
			expect(shown).toContain(
				"The credential's Base URL is empty for item 0: nothing was sent to /order/get_single_bulk",
			);
			expect(shown).toContain('If it is an expression, it must give that address for every item.');
			await page.keyboard.press('Escape');
		}, 240_000);

		test('the trigger: the Docs link lands on its section', async () => {
			const context = getContext();
			const { page } = editor;
			const workflow = await context.n8n.createWorkflow(
				triggerWorkflow('Browser: trigger docs link', context.credential, ['order.shipped'], {
					triggerName: TRIGGER,
				}),
			);
			await editor.openNode(workflow.id, TRIGGER);
			const docs = await page
				.locator('a[href*="n8n-nodes-inventory-ops"]')
				.first()
				.getAttribute('href');
			// n8n appends its tracking query after a codex URL's #anchor; a documentationUrl is opened as
			// written.
			expect(new URL(docs).hash).toBe('#inventory-ops-trigger');
			await page.keyboard.press('Escape');
		}, 240_000);

		test('the trigger: its help, then listening for a test event registers test handlers, and an event shows in the output panel', async () => {
			const context = getContext();
			const { page } = editor;
			const types = ['order.shipped'];
			const workflow = await context.n8n.createWorkflow(
				triggerWorkflow('Browser: listen', context.credential, types, { triggerName: TRIGGER }),
			);
			const triggerNode = workflow.nodes.find((candidate) => candidate.name === TRIGGER);
			await editor.openNode(workflow.id, TRIGGER);
			// The trigger panel's help, below n8n's generic text: the service must reach n8n
			// (WEBHOOK_URL).
			await page.getByText('When will this node trigger my flow?').first().click();
			await page
				.getByText(/set n8n's WEBHOOK_URL to its public address/)
				.first()
				.waitFor();
			// It names the button this panel shows.
			await page
				.getByText(/click 'Execute step' \(n8n then shows 'Listening for test event'\)/)
				.first()
				.waitFor();
			await editor.screenshot('editor-trigger-help');
			// The panel's run button: "Execute step" while the trigger is idle (n8n then shows "Listening
			// for test event").
			await page.locator(ids('node-execute-button')).first().click();
			await page.getByText('Listening for test event').first().waitFor();
			const handlers = await waitFor(
				async () => {
					const { test } = await context.handlersOf(triggerNode);
					return test.length === types.length ? test : undefined;
				},
				{ timeoutMs: 60_000, what: 'the test handlers of the listening trigger' },
			);
			expect(handlers.map((handler) => handler.type)).toEqual(types);
			await editor.screenshot('editor-trigger-listening');
			const trackingNumber = `TRK-BROWSER-${Date.now()}`;
			await context.emit('order.shipped', {
				store_id: '1001',
				order_number: '1000',
				tracking_number: trackingNumber,
			});
			await page
				.locator(ids('output-panel'))
				.getByText(trackingNumber)
				.first()
				.waitFor({ timeout: 60_000 });
			// The event arrived: n8n stops listening, and the trigger removes its test handlers.
			await waitFor(
				async () => ((await context.handlersOf(triggerNode)).test.length === 0 ? true : undefined),
				{
					timeoutMs: 30_000,
					what: 'the test handlers to be removed after the event',
				},
			);
			await page.keyboard.press('Escape');
		}, 240_000);

		test('publish in the editor: handlers registered, an event runs in production; unpublish: handlers gone', async () => {
			const context = getContext();
			const types = ['order.shipped', 'item.inventory'];
			const workflow = await context.n8n.createWorkflow(
				triggerWorkflow('Browser: publish', context.credential, types, { triggerName: TRIGGER }),
			);
			const triggerNode = workflow.nodes.find((candidate) => candidate.name === TRIGGER);
			await editor.openWorkflow(workflow.id);
			await editor.publish();
			await context.waitForProductionHandlers(triggerNode, types, { timeoutMs: 60_000 });
			await editor.screenshot('editor-published');
			await editor.closeActivationDialog();
			await context.emit('order.shipped', {
				store_id: '1001',
				order_number: '1000',
				tracking_number: 'TRK-BROWSER-PUBLISHED',
			});
			const executions = await context.waitForExecutions(workflow.id, 1);
			expect(executions.map((execution) => execution.mode)).toEqual(['webhook']);
			await editor.unpublish();
			expect(
				await context.waitForProductionHandlers(triggerNode, [], { timeoutMs: 60_000 }),
			).toEqual([]);
		}, 240_000);
	});
};
