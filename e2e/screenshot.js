// `npm run e2e:screenshot [-- <name>...]`: README's pictures (docs/<name>.png), taken from the
// current build in the newest n8n host line against the sandbox, with headless Chromium
// (e2e/lib/browser.js). Each picture is one thing a user does, in workflows named as a user would
// name them, and is taken once the page is fully drawn (fonts loaded, no request pending, the
// panel's buttons labelled), cropped to what its caption talks about. After each picture,
// docs/pictures.json gets its fingerprint (e2e/lib/pictures.js); test/package/pictures.test.js
// names the pictures whose fingerprint no longer matches the code, and `npm run e2e:screenshot --
// <name>` retakes only those.
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../sandbox');
const { DEFAULT_SWITCHES } = require('../sandbox/switches');
const { openEditor } = require('./lib/browser');
const { REPO_ROOT, RUNTIME_DIR, newestHostLine } = require('./lib/hosts');
const { N8nInstance } = require('./lib/n8n');
const { PICTURES, recordPicture } = require('./lib/pictures');
const {
	MANUAL_TRIGGER,
	actionNode,
	manualTrigger,
	node,
	triggerWorkflow,
} = require('./lib/workflows');
const { readExamples, prepareExample } = require('./lib/examples');

const log = (line) => process.stdout.write(`screenshot: ${line}\n`);
const ids = (testId) => `[data-test-id="${testId}"]`;
const connect = (from, to) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });

/**
 * Waits until the page is fully drawn: no request pending, web fonts loaded, every visible button
 * labelled.
 */
async function drawn(page) {
	await page.waitForLoadState('networkidle').catch(() => {});
	await page.evaluate(() => document.fonts.ready);
	await page.waitForFunction(() =>
		[...document.querySelectorAll('button')]
			.filter((button) => button.offsetParent !== null && button.getBoundingClientRect().width > 40)
			.every(
				(button) =>
					button.innerText.trim() !== '' || button.querySelector('svg, img, [class*="icon"]'),
			),
	);
	await page.waitForTimeout(800); // panels and the canvas settle after their last change
}

/**
 * The box around what the first of `selectors` (tried in order) matches on screen, all its matches
 * together, with a margin, inside the page.
 */
async function boxAround(page, selectors, margin = 0) {
	for (const selector of [selectors].flat()) {
		const shown = (
			await Promise.all(
				(await page.locator(selector).all()).map((element) => element.boundingBox()),
			)
		).filter(Boolean);
		if (shown.length === 0) continue;
		const viewport = page.viewportSize();
		const x = Math.max(0, Math.min(...shown.map((box) => box.x)) - margin);
		const y = Math.max(0, Math.min(...shown.map((box) => box.y)) - margin);
		const right = Math.min(
			viewport.width,
			Math.max(...shown.map((box) => box.x + box.width)) + margin,
		);
		const bottom = Math.min(
			viewport.height,
			Math.max(...shown.map((box) => box.y + box.height)) + margin,
		);
		return { x, y, width: right - x, height: bottom - y };
	}
	throw new Error(`nothing on screen matches ${[selectors].flat().join(' or ')}`);
}

/**
 * Closes n8n's toasts ("Node executed successfully", "Problem in node…"): the panel they would
 * cover is the picture.
 */
async function closeToasts(page) {
	await page.waitForTimeout(1000); // a toast of the last action appears a moment after its result
	const toasts = page.locator('.el-notification').filter({ visible: true });
	for (let attempt = 0; attempt < 5 && (await toasts.count()) > 0; attempt++) {
		await toasts
			.first()
			.locator('.el-notification__closeBtn, [class*="close"]')
			.first()
			.click()
			.catch(() => {});
		await page.waitForTimeout(500);
	}
	if ((await toasts.count()) > 0) throw new Error('a toast stays on screen over the picture');
}

/**
 * Shows the output panel as JSON: every field of an item readable, not a table cut at the panel's
 * edge.
 */
async function outputAsJson(page) {
	await page.locator(ids('output-panel')).getByText('JSON', { exact: true }).first().click();
	await page
		.locator(ids('output-panel'))
		.locator('.json-data, [class*="json"]')
		.first()
		.waitFor({ timeout: 15_000 })
		.catch(() => {});
}

async function save(page, name, clip) {
	await closeToasts(page);
	await drawn(page);
	const target = path.join(REPO_ROOT, 'docs', `${name}.png`);
	await page.screenshot({
		path: target,
		clip: typeof clip === 'object' && !Array.isArray(clip) ? clip : await boxAround(page, clip),
		animations: 'disabled',
	});
	return target;
}

/**
 * The node details view of the open node (the dialog with input, parameters and output), in n8n 2.x
 * and 1.x.
 */
const NDV = [
	`${ids('ndv')} .el-dialog`,
	`${ids('ndv')} [role="dialog"]`,
	'.ndv-wrapper',
	ids('ndv'),
];

const TAKE = {
	async 'editor-workflow'({ editor, n8n, credential }) {
		const example = readExamples().find(
			({ file }) => file === 'restore-inventory-when-shipment-voided.json',
		).workflow;
		const prepared = prepareExample(example, { credential });
		prepared.name = 'Restore stock when a shipment is voided';
		prepared.nodes = prepared.nodes.filter(
			(candidate) => candidate.type !== 'n8n-nodes-base.stickyNote',
		);
		const workflow = await n8n.createWorkflow(prepared);
		await editor.openWorkflow(workflow.id);
		await editor.page.keyboard.press('1'); // n8n's "zoom to fit"
		return await save(
			editor.page,
			'editor-workflow',
			await boxAround(editor.page, ids('canvas-node'), 90),
		);
	},

	async 'editor-credential'({ editor, credential }) {
		// Opened as a user opens a saved credential: n8n tests it again.
		await editor.openCredential(credential.id);
		await editor.page
			.getByText('Connection tested successfully')
			.first()
			.waitFor({ timeout: 60_000 });
		return await save(editor.page, 'editor-credential', [
			`.el-dialog:has(${ids('credential-edit-dialog')})`,
			ids('credential-edit-dialog'),
		]);
	},

	async 'editor-get-many'({ editor, n8n, credential, sandbox }) {
		const { page } = editor;
		const orders = (await admin(sandbox, '/orders?limit=2')).orders.map(
			({ store_id, order_number }) => ({ store_id, order_number }),
		);
		const workflow = await n8n.createWorkflow({
			name: 'Look up orders',
			nodes: [
				manualTrigger([0, 0]),
				node(
					'Orders to Look Up',
					'n8n-nodes-base.code',
					{
						jsCode: `return ${JSON.stringify(
							orders.map((json) => ({ json })),
							null,
							2,
						)};`,
					},
					{
						position: [220, 0],
						typeVersion: 2,
					},
				),
				actionNode(
					'Get Orders',
					credential,
					{ resource: 'order', operation: 'lookUp', lookUpBy: 'itemFields' },
					[440, 0],
				),
			],
			connections: {
				...connect(MANUAL_TRIGGER, 'Orders to Look Up'),
				...connect('Orders to Look Up', 'Get Orders'),
			},
		});
		await editor.openNode(workflow.id, 'Get Orders');
		await page.locator(ids('node-execute-button')).first().click();
		await page
			.locator(ids('output-panel'))
			.getByText('2 items')
			.first()
			.waitFor({ timeout: 60_000 });
		await outputAsJson(page);
		return await save(page, 'editor-get-many', NDV);
	},

	async 'editor-kit-create'({ editor, n8n, credential, sandbox }) {
		const { page } = editor;
		const [component] = (await admin(sandbox, '/items')).items;
		const workflow = await n8n.createWorkflow({
			name: 'Create a kit',
			nodes: [
				manualTrigger([0, 0]),
				actionNode(
					'Create Kit',
					credential,
					{
						resource: 'kit',
						operation: 'create',
						name: 'Starter Bundle',
						sku: 'KIT-STARTER-01',
						kitItems: { item: [{ itemId: component.item_id, quantity: 2 }] },
					},
					[220, 0],
				),
			],
			connections: connect(MANUAL_TRIGGER, 'Create Kit'),
		});
		await editor.openNode(workflow.id, 'Create Kit');
		await page.locator(ids('node-execute-button')).first().click();
		await page
			.locator(ids('output-panel'))
			.getByText('new_kit_id')
			.first()
			.waitFor({ timeout: 60_000 });
		await outputAsJson(page);
		return await save(page, 'editor-kit-create', NDV);
	},

	async 'editor-restore-error'({ editor, n8n, credential, sandbox }) {
		const { page } = editor;
		const [shipment] = (await admin(sandbox, '/shipments?deducted=true&limit=1')).shipments;
		const selectors = {
			store_id: shipment.store_id,
			order_number: shipment.order_number,
			shipment_id: shipment._id,
		};
		// The first restore, as an earlier run of the workflow would have done it.
		const first = await fetch(`${sandbox.appBaseUrl}/ship/shipping/restore_inventory`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.demoToken}`, 'content-type': 'application/json' },
			body: JSON.stringify(selectors),
		});
		if (!first.ok) throw new Error(`the first restore answered ${first.status}`);
		const workflow = await n8n.createWorkflow({
			name: 'Restore stock by hand',
			nodes: [
				manualTrigger([0, 0]),
				actionNode(
					'Restore Inventory',
					credential,
					{
						resource: 'shipment',
						operation: 'restoreInventory',
						storeId: selectors.store_id,
						orderNumber: selectors.order_number,
						shipmentId: selectors.shipment_id,
					},
					[220, 0],
				),
			],
			connections: connect(MANUAL_TRIGGER, 'Restore Inventory'),
		});
		await editor.openNode(workflow.id, 'Restore Inventory');
		await page.locator(ids('node-execute-button')).first().click();
		await page
			.locator(ids('output-panel'))
			.getByText(/nothing was restored/)
			.first()
			.waitFor({ timeout: 60_000 });
		return await save(page, 'editor-restore-error', NDV);
	},

	async 'editor-trigger'({ editor, n8n, credential }) {
		const { page } = editor;
		const workflow = await n8n.createWorkflow(
			triggerWorkflow(
				'Notify the warehouse of shipments',
				credential,
				['order.shipped', 'shipment.voided'],
				{ triggerName: 'When a Shipment Changes' },
			),
		);
		await editor.openNode(workflow.id, 'When a Shipment Changes');
		await page.getByText('When will this node trigger my flow?').first().click();
		await page
			.getByText(/WEBHOOK_URL/)
			.first()
			.waitFor({ timeout: 15_000 });
		return await save(page, 'editor-trigger', NDV);
	},
};

async function admin(sandbox, urlPath) {
	const response = await fetch(`${sandbox.adminUrl}${urlPath}`);
	if (!response.ok) throw new Error(`sandbox admin ${urlPath} answered ${response.status}`);
	return await response.json();
}

async function main() {
	const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
	const unknown = asked.filter((name) => !TAKE[name]);
	if (unknown.length > 0)
		throw new Error(
			`no picture named ${unknown.join(', ')}; the pictures: ${Object.keys(PICTURES).join(', ')}`,
		);
	const names = asked.length > 0 ? asked : Object.keys(PICTURES);

	// The service as documented, with no error code of the sandbox's own: a picture shows no made-up
	// code.
	const sandbox = await startSandbox({
		port: 0,
		orders: 50,
		seed: 1,
		rateLimit: false,
		config: { ...DEFAULT_SWITCHES, errorCodes: 'none' },
	});
	const line = newestHostLine();
	const userFolder = path.join(RUNTIME_DIR, 'screenshot');
	fs.rmSync(userFolder, { recursive: true, force: true });
	const n8n = await N8nInstance.prepare({ line, userFolder, log });
	let editor;
	try {
		await n8n.start();
		await n8n.setUpOwner();
		const credential = await n8n.createCredential({
			name: 'Inventory Ops account',
			type: 'inventoryOpsApi',
			data: {
				accessToken: sandbox.demoToken,
				baseUrl: sandbox.baseUrl,
				appBaseUrl: sandbox.appBaseUrl,
			},
		});
		editor = await openEditor(
			{ n8n, line },
			{ page: { viewport: { width: 1280, height: 960 }, deviceScaleFactor: 1.5 } },
		);
		for (const name of names) {
			const target = await TAKE[name]({ editor, n8n, credential, sandbox });
			recordPicture(name, n8n.host.version);
			log(
				`saved ${path.relative(REPO_ROOT, target)} (n8n ${n8n.host.version}): ${PICTURES[name].shows}`,
			);
			await editor.page.keyboard.press('Escape');
		}
	} finally {
		if (editor) await editor.close();
		await n8n.stop();
		await sandbox.close();
	}
}

main().catch((error) => {
	process.stderr.write(`screenshot: failed: ${error.stack ?? error}\n`);
	process.exit(1);
});
