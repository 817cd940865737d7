// `npm run dev`: the sandbox with seeded data plus a real n8n (the newest host line) with this
// package loaded, a ready "Inventory Ops API" credential pointing at the sandbox, and example
// workflows. Ctrl-C stops everything.
//
// The n8n user folder lives in <tmp>/n8n-nodes-inventory-ops-<hash>/dev/n8n-<version>/ (see
// RUNTIME_DIR) and is kept between runs, so workflows built in the editor survive a restart; each
// run rebuilds and re-places the package and points the credential at the new sandbox token. `npm
// run dev -- --fresh` starts from an empty user folder.
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../sandbox');
const { RUNTIME_DIR, describeHost, newestHostLine } = require('./lib/hosts');
const { N8nInstance } = require('./lib/n8n');
const { freePort } = require('./lib/wait');
const { TRIGGER_TYPE } = require('./lib/workflows');
const { exampleWorkflows, seededShipment } = require('./lib/examples');

const CREDENTIAL_NAME = 'Inventory Ops sandbox';
const log = (line) => process.stdout.write(`dev: ${line}\n`);

async function portOr(preferred) {
	const net = require('node:net');
	const free = await new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(preferred, '127.0.0.1', () => server.close(() => resolve(true)));
	});
	if (free) return preferred;
	const other = await freePort();
	log(
		`port ${preferred} is taken, using ${other} instead: use the addresses printed below, not the README's :${preferred}`,
	);
	return other;
}

async function main() {
	const line = process.env.N8N_HOST_LINE || newestHostLine();
	const host = describeHost(line);
	const userFolder = path.join(RUNTIME_DIR, 'dev', `n8n-${host.version}`);
	if (process.argv.includes('--fresh')) fs.rmSync(userFolder, { recursive: true, force: true });
	const fresh = !fs.existsSync(path.join(userFolder, 'owner.json'));

	const sandbox = await startSandbox({
		port: await portOr(Number(process.env.SANDBOX_PORT ?? 5680)),
		orders: Number(process.env.SANDBOX_ORDERS ?? 2000),
		seed: 1,
		rateLimit: { max: 600, windowMs: 60_000 },
	});
	log(`sandbox listening on ${sandbox.origin}`);

	let n8n;
	let stopping = false;
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: stopping n8n and the sandbox\n`);
		if (n8n) await n8n.stop();
		await sandbox.close();
		process.exit(0);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));

	n8n = await N8nInstance.prepare({
		line,
		userFolder,
		port: await portOr(Number(process.env.N8N_PORT ?? 5678)),
		log,
	});
	await n8n.start();
	n8n.child.exited.then(async ({ code, signal }) => {
		if (stopping) return;
		process.stderr.write(
			`dev: n8n stopped unexpectedly (code ${code}, signal ${signal}); see ${n8n.logFile}\n`,
		);
		await sandbox.close();
		process.exit(1);
	});

	const credentialData = {
		accessToken: sandbox.demoToken,
		baseUrl: sandbox.baseUrl,
		appBaseUrl: sandbox.appBaseUrl,
	};
	let created = [];
	if (fresh) {
		await n8n.setUpOwner();
		const credential = await n8n.createCredential({
			name: CREDENTIAL_NAME,
			type: 'inventoryOpsApi',
			data: credentialData,
		});
		for (const { workflow } of exampleWorkflows(sandbox, credential)) {
			created.push({ ...(await n8n.createWorkflow(workflow)), name: workflow.name });
		}
	} else {
		const saved = JSON.parse(fs.readFileSync(path.join(userFolder, 'owner.json'), 'utf8'));
		n8n.apiKey = saved.apiKey;
		const credentials = await n8n.rest('GET', '/credentials');
		for (const credential of credentials.filter(
			(c) => c.type === 'inventoryOpsApi' && c.name === CREDENTIAL_NAME,
		)) {
			await n8n.updateCredential(credential.id, {
				name: credential.name,
				type: credential.type,
				data: credentialData,
			});
		}
		created = (await n8n.api('GET', '/workflows')).data;
		// The sandbox starts empty every run, and n8n re-activated published triggers before the
		// credential pointed at it: publish them again so that their handlers exist in this sandbox.
		for (const workflow of created.filter(
			(w) => w.active && w.nodes.some((node) => node.type === TRIGGER_TYPE),
		)) {
			await n8n.unpublish(workflow.id).catch(() => undefined);
			await n8n.publish(workflow.id);
			log(`published "${workflow.name}" again against this run's sandbox`);
		}
	}

	const shipment = await seededShipment(sandbox);
	const sendEvent = (type, data) => [
		`    curl -s -X POST ${sandbox.adminUrl}/events -H 'content-type: application/json' \\`,
		`      -d '${JSON.stringify({ type, data })}'`,
	];
	const owner = n8n.owner;
	process.stdout.write(
		[
			'',
			`n8n ${host.version} with n8n-nodes-inventory-ops is running:`,
			`  Open        ${n8n.baseUrl}`,
			`  Log in as   ${owner.email}   password ${owner.password}`,
			`  Credential  "${CREDENTIAL_NAME}" (type Inventory Ops API) points at the sandbox`,
			`  Workflows:`,
			...created.map((workflow) => `    ${n8n.baseUrl}/workflow/${workflow.id}   ${workflow.name}`),
			'',
			`The sandbox (a local simulator of the Inventory Ops service, seeded with ${process.env.SANDBOX_ORDERS ?? 2000} orders):`,
			`  Base URL      ${sandbox.baseUrl}`,
			`  App Base URL  ${sandbox.appBaseUrl}`,
			`  Admin API     ${sandbox.adminUrl}  (GET handlers, orders, kits, items, calls, deliveries, inbox)`,
			`  Access token  ${sandbox.demoToken}`,
			`  Publish a trigger workflow, then send it an event: an order status change ...`,
			...sendEvent('order.status.shipped', {
				store_id: shipment.store_id,
				order_number: shipment.order_number,
			}),
			`  ... or a voided shipment whose stock the restore example puts back:`,
			...sendEvent('shipment.voided', shipment),
			`  What the notify example sent:  curl -s ${sandbox.adminUrl}/inbox`,
			`  Kits made, handlers on record: curl -s ${sandbox.adminUrl}/kits ; curl -s ${sandbox.adminUrl}/handlers`,
			'',
			`n8n keeps its data in ${userFolder} (log: ${n8n.logFile}); ` +
				'`npm run dev -- --fresh` starts over.',
			'Press Ctrl-C to stop n8n and the sandbox.',
			'',
		].join('\n'),
	);
}

main().catch((error) => {
	process.stderr.write(`dev: failed: ${error.stack ?? error}\n`);
	process.exit(1);
});
