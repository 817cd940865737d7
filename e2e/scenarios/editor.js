// The editor as a no-code user meets it: the real n8n editor in a real browser (Debian's `chromium`, driven by
// playwright-core from e2e/tools/; see e2e/lib/browser.js). Each test is one user task and asserts what is on the
// screen, with n8n's own `data-test-id` selectors. With E2E_SCREENSHOTS=docs the newest host line saves its
// screenshots into docs/ (README shows them); otherwise they go to reports/screenshots/.
const { openEditor } = require('../lib/browser');
const { MANUAL_TRIGGER, actionNode, manualTrigger, node } = require('../lib/workflows');

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
			await names.filter({ hasText: /^Inventory Ops$/ }).first().waitFor({ timeout: 15_000 });
			await names.filter({ hasText: /^Inventory Ops$/ }).first().click();
			// The trigger's entries: the lines of the panel that start with "On " (both lines list them under Triggers).
			await page.getByText('On order shipped', { exact: true }).first().waitFor({ timeout: 30_000 });
			const texts = (await page.locator('body').innerText())
				.split('\n')
				.map((text) => text.trim())
				.filter((text) => text.startsWith('On '));
			await editor.screenshot('editor-node-panel');
			expect(texts).toEqual(expect.arrayContaining(['On order shipped', 'On order status changed', 'On shipment voided']));
			// n8n builds each entry from the event option; a name that repeats its type read "On order shipped order shipped".
			for (const text of texts) expect(text).not.toMatch(/\b(\w+ \w+)\b.*\b\1\b/i);
		}, 180_000);

		test('the credential dialog shows the Test result: a good token passes, a bad one is refused', async () => {
			const context = getContext();
			const { page } = editor;
			await editor.openCredential(context.credential.id);
			await page.getByText('Connection tested successfully').first().waitFor({ timeout: 30_000 });
			for (const field of ['accessToken', 'baseUrl', 'appBaseUrl']) {
				await expect(page.locator(ids(`parameter-input-${field}`)).count()).resolves.toBe(1);
			}
			await editor.screenshot('editor-credential');
			await page.keyboard.press('Escape');

			const bad = await context.n8n.createCredential({
				name: 'Sandbox, refused token',
				type: 'inventoryOpsApi',
				data: { ...context.credentialData, accessToken: 'not-a-token' },
			});
			await editor.openCredential(bad.id);
			await editor.screenshotOnFailure('editor-credential-refused', async () => {
				await page.getByText(/Couldn.t connect with these settings/).first().waitFor({ timeout: 60_000 });
				// The reason itself ("The service refused the access token (401)...") sits behind "More details"; the
				// e2e credential scenario reads it from n8n's credential test endpoint.
				await page.getByText('More details').first().waitFor();
			});
			// The dialog keeps its success banner in the page, hidden: only what is shown counts.
			await expect(page.getByText('Connection tested successfully').filter({ visible: true }).count()).resolves.toBe(0);
			await page.keyboard.press('Escape');
		}, 180_000);

		test('Order → Get Many: its fields, Simplify on, no "Execute Once" hint, and the orders in the output panel', async () => {
			const context = getContext();
			const { page } = editor;
			const references = [
				{ store: '1002', number: '1001' },
				{ store: '1002', number: '1002' },
			];
			const workflow = await context.n8n.createWorkflow({
				name: 'Browser: Get Many',
				nodes: [
					manualTrigger([0, 0]),
					node('Two References', 'n8n-nodes-base.code', { jsCode: `return ${JSON.stringify(references.map((json) => ({ json })))};` }, {
						position: [220, 0],
						typeVersion: 2,
					}),
					actionNode('Get Many', context.credential, {
						resource: 'order',
						operation: 'lookUp',
						lookUpBy: 'itemFields',
						storeIdField: 'store',
						orderNumberField: 'number',
					}, [440, 0]),
				],
				connections: {
					[MANUAL_TRIGGER]: { main: [[{ node: 'Two References', type: 'main', index: 0 }]] },
					'Two References': { main: [[{ node: 'Get Many', type: 'main', index: 0 }]] },
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
			// n8n's generic hint for list-like operation names ("This node runs multiple times... Execute Once").
			expect(shown).not.toMatch(/runs multiple times|Execute Once/i);
			await page.keyboard.press('Escape');
		}, 240_000);
	});
};
