// `npm run e2e:screenshot`: docs/editor.png, the n8n editor (newest host line) with the Inventory Ops Trigger and
// the Inventory Ops node on the canvas, taken with headless Chromium (Debian's `chromium`, driven by
// playwright-core from e2e/tools/, installed on demand into .cache/tools/). CHROMIUM=/path/to/chromium overrides.
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../sandbox');
const { REPO_ROOT, RUNTIME_DIR, newestHostLine } = require('./lib/hosts');
const { N8nInstance } = require('./lib/n8n');
const { requireTool } = require('./lib/tools');
const { exampleWorkflows } = require('./lib/examples');
const { TRIGGER_TYPE } = require('./lib/workflows');

const log = (line) => process.stdout.write(`screenshot: ${line}\n`);

async function main() {
	const executablePath = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(fs.existsSync);
	if (!executablePath) throw new Error('No Chromium found: `apt-get install chromium`, or set CHROMIUM');
	const { chromium } = await requireTool('playwright-core', { log });

	const sandbox = await startSandbox({ port: 0, orders: 200, seed: 1, rateLimit: false });
	const userFolder = path.join(RUNTIME_DIR, 'screenshot');
	fs.rmSync(userFolder, { recursive: true, force: true });
	const n8n = await N8nInstance.prepare({ line: newestHostLine(), userFolder, log });
	let browser;
	try {
		await n8n.start();
		await n8n.setUpOwner();
		const credential = await n8n.createCredential({
			name: 'Inventory Ops sandbox',
			type: 'inventoryOpsApi',
			data: { accessToken: sandbox.demoToken, baseUrl: sandbox.baseUrl, appBaseUrl: sandbox.appBaseUrl },
		});
		const examples = await exampleWorkflows(sandbox, credential);
		const workflow = await n8n.createWorkflow(examples.find((example) => example.nodes[0].type === TRIGGER_TYPE));

		browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
		const page = await browser.newPage({ viewport: { width: 1400, height: 800 }, deviceScaleFactor: 1 });
		await page.goto(`${n8n.baseUrl}/signin`);
		await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(n8n.owner.email);
		await page.locator('input[type="password"]').first().fill(n8n.owner.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });
		await page.goto(`${n8n.baseUrl}/workflow/${workflow.id}`);
		await page.locator('[data-test-id="canvas-node"]').nth(1).waitFor({ timeout: 60_000 });
		await page.keyboard.press('Escape'); // any first-visit popover
		await page.waitForTimeout(1500); // the canvas fits the view with an animation
		fs.mkdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true });
		const target = path.join(REPO_ROOT, 'docs', 'editor.png');
		await page.screenshot({ path: target });
		log(`saved ${path.relative(REPO_ROOT, target)} (n8n ${n8n.host.version}, workflow "${workflow.name}")`);
	} finally {
		if (browser) await browser.close();
		await n8n.stop();
		await sandbox.close();
	}
}

main().catch((error) => {
	process.stderr.write(`screenshot: failed: ${error.stack ?? error}\n`);
	process.exit(1);
});
