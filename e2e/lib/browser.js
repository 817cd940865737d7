// One signed-in browser on the host's editor, and the user tasks the browser scenarios combine
// (shaped like n8n's own Playwright composables: sign in, open a workflow, open a node, open a
// credential). The browser is Debian's `chromium` (CHROMIUM=/path overrides), driven by
// playwright-core from e2e/tools/ (installed on demand into .cache/tools/). It is never installed
// from here: both host lines' suites run at once, and two apt-gets meet at dpkg's lock; `npm run
// test:all` installs it once before they start (scripts/system-packages.sh).
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT } = require('./hosts');
const { requireTool } = require('./tools');

// Without the networking switches Chromium keeps calling home, and a machine with no general
// internet refuses those connections many at a time.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

function chromiumPath() {
	const found =
		process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(fs.existsSync);
	if (found) return found;
	throw new Error(
		"No Chromium at /usr/bin/chromium or /usr/bin/chromium-browser: install Debian's `chromium` (as root: `bash scripts/system-packages.sh browser`, or `apt-get install -y chromium`), or set CHROMIUM=/path/to/chromium",
	);
}

/**
 * Where the browser suite's screenshots go (README's pictures are e2e/screenshot.js's, in docs/).
 */
function screenshotPath(line, name) {
	return path.join(REPO_ROOT, 'reports', 'screenshots', `${line}-${name}.png`);
}

/**
 * `page`: the browser page's size and pixel density (e2e/screenshot.js takes README's pictures at
 * 1.5).
 */
async function openEditor(
	context,
	{ page: pageOptions = { viewport: { width: 1400, height: 900 } } } = {},
) {
	const { chromium } = await requireTool('playwright-core');
	const browser = await chromium.launch({
		executablePath: chromiumPath(),
		headless: true,
		args: CHROMIUM_ARGS,
	});
	const page = await browser.newPage(pageOptions);
	// The editor loads ~700 assets; on a loaded 2-core machine that alone can take a minute. The
	// scenarios' waits for what the screen shows use this limit rather than shorter guesses of their
	// own.
	page.setDefaultTimeout(60_000);
	page.setDefaultNavigationTimeout(120_000);
	const { n8n } = context;
	await page.goto(`${n8n.baseUrl}/signin`, { waitUntil: 'domcontentloaded' });
	await page
		.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]')
		.first()
		.fill(n8n.owner.email);
	await page.locator('input[type="password"]').first().fill(n8n.owner.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.includes('signin'), {
		timeout: 120_000,
		waitUntil: 'domcontentloaded',
	});

	const settle = async () => {
		await page.waitForLoadState('networkidle').catch(() => {});
		await page.keyboard.press('Escape'); // a first-visit popover
	};
	return {
		page,
		async newWorkflow() {
			await page.goto(`${n8n.baseUrl}/workflow/new`, { waitUntil: 'domcontentloaded' });
			await page
				.locator('[data-test-id="canvas-plus-button"]')
				.first()
				.waitFor({ timeout: 60_000 });
			await settle();
		},
		async openWorkflow(workflowId) {
			await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
			await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
			await settle();
		},
		async openNode(workflowId, nodeName) {
			await this.openWorkflow(workflowId);
			await page
				.locator('[data-test-id="canvas-node"]')
				.filter({ hasText: nodeName })
				.first()
				.dblclick();
			await page.locator('[data-test-id="node-parameters"]').first().waitFor();
		},
		/**
		 * Types into a parameter of the open node, as a user does (then leaves the field, which commits
		 * it).
		 */
		async fill(parameterName, value) {
			const field = page.locator(`[data-test-id="parameter-input-${parameterName}"]`).first();
			await field.locator('input, textarea').first().fill(value);
			await page.keyboard.press('Tab');
		},
		/**
		 * Publish (2.x: the header's Publish button, then the dialog's) or activate (1.x: the header's
		 * switch), as far as n8n's "Workflow published/activated" dialog, which stays open for the
		 * caller to look at or close.
		 */
		async publish() {
			if (n8n.major >= 2) {
				await page.locator('[data-test-id="workflow-open-publish-modal-button"]').first().click();
				await page.locator('[data-test-id="workflow-publish-button"]').first().click();
			} else {
				await page.locator('[data-test-id="workflow-activate-switch"]').first().click();
			}
			await page.locator('[data-test-id="activation-modal"]').first().waitFor();
		},
		async closeActivationDialog() {
			await page
				.locator('[data-test-id="activation-modal"]')
				.getByRole('button', { name: 'Got it' })
				.first()
				.click();
			await page.locator('[data-test-id="activation-modal"]').first().waitFor({ state: 'hidden' });
		},
		/**
		 * Unpublish (2.x: the Publish button's menu, Unpublish, confirmed) or deactivate (1.x: the
		 * switch again).
		 */
		async unpublish() {
			if (n8n.major >= 2) {
				await page.locator('[data-test-id="version-menu-button"]').first().click();
				await page.locator('[data-test-id="version-menu-item-unpublish"]').first().click();
				await page.getByRole('dialog').getByRole('button', { name: 'Unpublish' }).last().click();
			} else {
				await page.locator('[data-test-id="workflow-activate-switch"]').first().click();
			}
		},
		/**
		 * Create credential → pick the type by its display name → Continue: the new credential's empty
		 * form.
		 */
		async newCredential(typeDisplayName) {
			await page.goto(`${n8n.baseUrl}/home/credentials/create`, { waitUntil: 'domcontentloaded' });
			const select = page.locator('[data-test-id="new-credential-type-select"]').first();
			await select.waitFor({ timeout: 60_000 });
			await select.locator('input').first().fill(typeDisplayName);
			await page
				.locator('[data-test-id="new-credential-type-select-option"]')
				.filter({ hasText: typeDisplayName })
				.first()
				.click();
			await page.locator('[data-test-id="new-credential-type-button"]').first().click();
			await page.locator('[data-test-id="credential-save-button"]').first().waitFor();
		},
		async openCredential(credentialId) {
			await page.goto(`${n8n.baseUrl}/home/credentials/${credentialId}`, {
				waitUntil: 'domcontentloaded',
			});
			await page
				.locator('[data-test-id="credential-edit-dialog"], [data-test-id="editCredential-modal"]')
				.first()
				.waitFor({ timeout: 60_000 });
		},
		async screenshot(name) {
			const target = screenshotPath(context.line, name);
			fs.mkdirSync(path.dirname(target), { recursive: true });
			// Finished, not mid-way: n8n's panels fade in and out.
			await page.screenshot({ path: target, animations: 'disabled' });
		},
		/**
		 * Runs the steps; when they fail, saves what the screen showed (reports/screenshots/) before
		 * failing.
		 */
		async screenshotOnFailure(name, steps) {
			try {
				await steps();
			} catch (error) {
				await this.screenshot(`${name}-failed`).catch(() => {});
				throw error;
			}
		},
		browser,
		async close() {
			await browser.close();
		},
	};
}

module.exports = { openEditor };
