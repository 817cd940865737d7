// The package installed the way users install it: n8n's own community-package installer (the REST
// endpoints of Settings -> Community Nodes) fetches it from a registry, here the local Verdaccio
// that the release rehearsal (scripts/release.mjs rehearse, which runs this suite) published the
// release's tarball to with the release's own publish (E2E_REGISTRY_URL, E2E_RELEASE_TARBALL). Then
// a published workflow with both nodes runs on sandbox events, the package is updated to the next
// patch version (the same tarball with only its version raised) and uninstalled through n8n, and
// the sandbox's handler table is read after each step. One n8n of the host line (E2E_HOST_LINE) in
// n8n's test mode, apart from the main suite's (see lib/installer.js for why). The steps build on
// each other and run in order.
const fs = require('node:fs');
const path = require('node:path');

const { startSandbox } = require('../../sandbox');
const { profileSwitches } = require('../../sandbox/profiles');
const { Context, sandboxProfile } = require('../lib/context');
const {
	RUNTIME_DIR,
	describeHost,
	installHost,
	isInstalled,
	newestHostLine,
	run,
} = require('../lib/hosts');
const { InstallerN8n } = require('../lib/installer');
const { N8nInstance } = require('../lib/n8n');
const { PACKAGE_NAME } = require('../lib/package');
const { attachRegistry } = require('../lib/registry');
const { freePort } = require('../lib/wait');
const { ACTION_TYPE, CREDENTIAL_TYPE, TRIGGER_TYPE, triggerWorkflow } = require('../lib/workflows');

const line = process.env.E2E_HOST_LINE || newestHostLine();
const log = (text) => process.stdout.write(`${text}\n`);
const TRIGGER = 'Inventory Ops Trigger';
const TYPES = ['order.shipped', 'shipment.created'];
/**
 * The release the rehearsal published, and the update this suite publishes: its next patch version.
 */
const RELEASE = JSON.parse(
	fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
).version;
const UPDATE = RELEASE.replace(
	/^(\d+)\.(\d+)\.(\d+).*$/,
	(_, major, minor, patch) => `${major}.${minor}.${Number(patch) + 1}`,
);

// n8n's test mode needs dist/controllers/e2e.controller.js, which not every n8n release ships on
// npm (1.99.1 does not): without it n8n exits at start, and the suite has no way to point the
// installer at a local registry.
const hostDescription = describeHost(line);
const withoutTestMode =
	isInstalled(hostDescription) &&
	!fs.existsSync(
		path.join(
			hostDescription.installDir,
			'node_modules',
			'n8n',
			'dist',
			'controllers',
			'e2e.controller.js',
		),
	);
if (withoutTestMode)
	log(
		`n8n ${hostDescription.version} ships no E2E controller: the installer suite cannot run on it`,
	);

let sandbox;
let registry;
let host;
let n8n;
let context;
let firstRelease;
let workflow;
let triggerNode;
/**
 * What the handler table held after each step, and how long n8n's installer took, printed at the
 * end.
 */
const observed = [];
const durations = [];
const timed = async (what, action) => {
	const started = Date.now();
	const result = await action();
	durations.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return result;
};

const handlerSummary = (handlers) =>
	handlers.map((handler) => `${handler.type} ${handler._id}`).sort();
const record = (step, handlers) => observed.push({ step, handlers: handlerSummary(handlers) });

/**
 * Emits an event of the first type; resolves to the delivery statuses to our trigger and the
 * workflow's executions.
 */
async function emitAndCount(expectedExecutions) {
	const event = await context.emit(TYPES[0], {
		store_id: '1001',
		order_number: '1000',
		tracking_number: 'TRK-INSTALL',
	});
	const deliveries = (await context.deliveries(event.event_id)).filter((delivery) =>
		delivery.url.includes(triggerNode.webhookId),
	);
	const executions =
		expectedExecutions === undefined
			? undefined
			: await context.waitForExecutions(workflow.id, expectedExecutions);
	return { statuses: deliveries.map((delivery) => delivery.status), executions };
}

/**
 * Both nodes in the editor's node panel and the credential in its credential list (the type files
 * it reads).
 */
async function expectListedInEditor(instance) {
	const nodeTypes = (await instance.typeFile('nodes.json')).map((type) => type.name);
	expect(nodeTypes).toEqual(expect.arrayContaining([ACTION_TYPE, TRIGGER_TYPE]));
	expect((await instance.typeFile('credentials.json')).map((type) => type.name)).toContain(
		CREDENTIAL_TYPE,
	);
}

beforeAll(async () => {
	firstRelease = process.env.E2E_RELEASE_TARBALL;
	if (!firstRelease || !fs.existsSync(firstRelease)) {
		throw new Error(
			"E2E_RELEASE_TARBALL names no tarball: this suite installs the release rehearsal's, run it with `npm run release:rehearse`",
		);
	}
	host = await installHost(line, { log });
	if (withoutTestMode) return;
	registry = attachRegistry();
	if (!registry)
		throw new Error(
			'E2E_REGISTRY_URL is unset: `npm run release:rehearse` publishes the tarball to a local registry and runs this suite',
		);
	sandbox = await startSandbox({
		config: profileSwitches(sandboxProfile()), // the line's profile, as the main suite's sandbox
		port: 0,
		orders: 50,
		seed: 1,
		rateLimit: false,
		delivery: { maxAttempts: 1, baseDelayMs: 100, timeoutMs: 5000 },
	});
	const userFolder = path.join(RUNTIME_DIR, 'e2e', `installer-${line}`);
	fs.rmSync(userFolder, { recursive: true, force: true });
	fs.mkdirSync(userFolder, { recursive: true });
	n8n = new InstallerN8n({
		host,
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		log,
		registryUrl: registry.url,
	});
	await n8n.start();
	await n8n.setUpOwner({ apiKey: false });
}, 900_000); // a host that is not installed yet is installed first

afterAll(async () => {
	if (observed.length > 0) {
		log(
			`handler table through install, update, uninstall on n8n ${n8n.host.version}:\n${observed
				.map((entry) => `  ${entry.step}: ${entry.handlers.length} [${entry.handlers.join(', ')}]`)
				.join('\n')}\nn8n's installer took: ${durations.join(', ')}`,
		);
	}
	if (n8n) await n8n.stop();
	if (registry) await registry.close();
	if (sandbox) await sandbox.close();
});

(withoutTestMode ? describe.skip : describe)(
	`n8n ${line}: install, update and uninstall through n8n's community-package installer`,
	() => {
		test("a registry other than registry.npmjs.org is refused until n8n's licence allows it", async () => {
			expect(await registry.versions()).toEqual([RELEASE]);
			await expect(n8n.installPackage(PACKAGE_NAME)).rejects.toThrow(
				/licen[cs]|feat:communityNodes:customRegistry/i,
			);
			expect(await n8n.installedPackages()).toEqual([]);
			await n8n.enableCustomRegistry();
		});

		test('install by name: both nodes and the credential are listed, and the credential test passes', async () => {
			const installed = await timed('install', () => n8n.installPackage(PACKAGE_NAME));
			expect(installed).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: RELEASE });
			expect(installed.installedNodes.map((node) => node.type).sort()).toEqual([
				ACTION_TYPE,
				TRIGGER_TYPE,
			]);
			expect(
				(await n8n.installedPackages()).map((pkg) => [pkg.packageName, pkg.installedVersion]),
			).toEqual([[PACKAGE_NAME, RELEASE]]);
			await expectListedInEditor(n8n);

			const credentialData = {
				accessToken: sandbox.demoToken,
				baseUrl: sandbox.baseUrl,
				appBaseUrl: sandbox.appBaseUrl,
			};
			const credential = await n8n.createCredential({
				name: 'Sandbox',
				type: CREDENTIAL_TYPE,
				data: credentialData,
			});
			context = new Context({ sandbox, n8n, credential, credentialData });
			const before = (await context.calls('/api/order/get_single_bulk')).length;
			expect(
				await n8n.testCredential({ ...credential, type: CREDENTIAL_TYPE, data: credentialData }),
			).toMatchObject({ status: 'OK' });
			expect(await context.calls('/api/order/get_single_bulk')).toHaveLength(before + 1);
		});

		test('a published workflow with the trigger and the action node runs on a sandbox event', async () => {
			const { orders } = await context.admin('GET', '/orders?limit=1');
			const references = [{ store_id: orders[0].store_id, order_number: orders[0].order_number }];
			const definition = triggerWorkflow(
				'installed: trigger -> lookup',
				context.credential,
				TYPES,
				{
					triggerName: TRIGGER,
					steps: [
						{
							name: 'Look Up Order',
							parameters: {
								resource: 'order',
								operation: 'lookUp',
								lookUpBy: 'list',
								references: JSON.stringify(references),
							},
						},
					],
				},
			);
			workflow = await n8n.createWorkflow(definition);
			triggerNode = workflow.nodes.find((node) => node.name === TRIGGER);
			record(`published on ${RELEASE}`, await context.publish(workflow, triggerNode, TYPES));

			const lookups = (await context.calls('/api/order/get_single_bulk')).length;
			const { statuses, executions } = await emitAndCount(1);
			expect(statuses).toEqual([200]);
			expect(executions.map((execution) => execution.status)).toEqual(['success']);
			const calls = (await context.calls('/api/order/get_single_bulk')).slice(lookups);
			expect(calls).toEqual([
				expect.objectContaining({ status: 200, body: { order: references } }),
			]);
		});

		test(`update to the next version (${UPDATE}) through n8n: the trigger still receives events, still one handler per type`, async () => {
			await registry.publish(await registry.withVersion(firstRelease, UPDATE));
			expect(await registry.versions()).toEqual([RELEASE, UPDATE]);
			const before = (await context.handlersOf(triggerNode)).production;

			const updated = await timed('update', () => n8n.updatePackage(PACKAGE_NAME));
			expect(updated).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: UPDATE });
			expect(updated.installedNodes.map((node) => node.type).sort()).toEqual([
				ACTION_TYPE,
				TRIGGER_TYPE,
			]);
			const fileVersion = JSON.parse(
				fs.readFileSync(
					path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json'),
					'utf8',
				),
			).version;
			expect(fileVersion).toBe(UPDATE);

			const after = await context.waitForProductionHandlers(triggerNode, TYPES);
			record(`after the update to ${UPDATE}`, after);
			// N8n does not re-publish on an update
			expect(handlerSummary(after)).toEqual(handlerSummary(before));
			const { statuses, executions } = await emitAndCount(2);
			expect(statuses).toEqual([200]);
			expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		});

		test("uninstall through n8n: the published trigger's handlers stay on the service (README: Before you uninstall)", async () => {
			const before = (await context.handlersOf(triggerNode)).production;
			await timed('uninstall', () => n8n.uninstallPackage(PACKAGE_NAME));
			expect(await n8n.installedPackages()).toEqual([]);
			expect(
				fs.existsSync(path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME)),
			).toBe(false);

			// n8n calls no code of the package on uninstall and does not unpublish the workflow, so
			// nothing removes them.
			const after = (await context.handlersOf(triggerNode)).production;
			record('after uninstall', after);
			expect(handlerSummary(after)).toEqual(handlerSummary(before));
			// The workflow is still published in n8n: its webhook refuses each delivery ("Unrecognized
			// node type": 400 on
			// 2.41.1, 500 on 1.123.81), and the handlers stay.
			const { statuses } = await emitAndCount();
			log(`a delivery to the uninstalled trigger answered ${statuses.join(', ')}`);
			expect(statuses).toEqual([expect.any(Number)]);
			expect(statuses[0]).toBeGreaterThanOrEqual(400);
			const afterEvent = (await context.handlersOf(triggerNode)).production;
			record('after uninstall and one more event', afterEvent);
			expect(handlerSummary(afterEvent)).toEqual(handlerSummary(before));
		});

		test('the way out README gives: install again, unpublish, uninstall leaves no handler', async () => {
			const reinstalled = await n8n.installPackage(PACKAGE_NAME);
			expect(reinstalled).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: UPDATE });
			const removalsBefore = (await context.calls('/api/webhook/remove_handler')).length;
			await n8n.unpublish(workflow.id);
			const afterUnpublish = await context.waitForProductionHandlers(triggerNode, []);
			record('installed again, unpublished', afterUnpublish);
			await n8n.uninstallPackage(PACKAGE_NAME);
			const { production } = await context.handlersOf(triggerNode);
			record('installed again, unpublished, uninstalled', production);
			expect(production).toEqual([]);
			const removals = (await context.calls('/api/webhook/remove_handler')).slice(removalsBefore);
			expect(removals.map((call) => call.status)).toEqual(TYPES.map(() => 200));
		});
	},
);

// Runs on every line, also where n8n has no test mode: it needs no registry, only the tarball.
describe(`n8n ${line}: the install command of CONTRIBUTING.md`, () => {
	test("CONTRIBUTING.md's install from a clone: npm install --omit=peer <tarball> in a fresh user folder; n8n loads both nodes", async () => {
		if (n8n) await n8n.stop(); // one n8n of this line at a time
		const userFolder = path.join(RUNTIME_DIR, 'e2e', `from-tarball-${line}`);
		fs.rmSync(userFolder, { recursive: true, force: true });
		const nodesFolder = path.join(userFolder, '.n8n', 'nodes');
		fs.mkdirSync(nodesFolder, { recursive: true });
		// That command with the release rehearsal's tarball (the one published above), run with the npm
		// set-up of whoever runs the suite, as a user's own npm.
		await run('npm', ['install', '--omit=peer', firstRelease], {
			cwd: nodesFolder,
			env: process.env,
		});
		const installed = fs
			.readdirSync(path.join(nodesFolder, 'node_modules'))
			.filter((name) => !name.startsWith('.'));
		expect(installed).toEqual([PACKAGE_NAME]); // no n8n-workflow, nothing else

		const own = new N8nInstance({
			host,
			userFolder,
			port: await freePort(),
			brokerPort: await freePort(),
			log,
		});
		try {
			await own.start();
			await own.setUpOwner({ apiKey: false });
			await expectListedInEditor(own);
		} finally {
			await own.stop();
		}
	});
});
