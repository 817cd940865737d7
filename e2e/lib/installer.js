// An n8n that gets the package the way users get it: through its own community-package installer
// (Settings -> Community Nodes), which runs npm against a registry; here the local Verdaccio of
// lib/registry.js.
//
// n8n refuses any registry but https://registry.npmjs.org unless its licence has the feature
// 'feat:communityNodes:customRegistry' (CommunityPackagesService.getNpmRegistry, on both host
// lines). The one way to switch it on without a licence is n8n's own end-to-end test mode: with
// E2E_TESTS=true n8n loads its E2E controller, which replaces the licence checks with a table of
// switches, all off, that `PATCH /rest/e2e/feature` (no login needed) turns on one by one. We turn
// on only the custom registry. What else that mode changes, read in both hosts' dist/: diagnostics
// off, personalisation off, and on the 1.x line the public API is disabled; it also offers `POST
// /rest/e2e/reset` (empties n8n's tables), which we never call. So this instance does everything
// through the REST endpoints the editor calls (workflows, publish, executions), and it is a
// separate instance: the main suite's hosts run without the test mode.
const fs = require('node:fs');
const path = require('node:path');

const { N8nInstance } = require('./n8n');

const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

class InstallerN8n extends N8nInstance {
	constructor({ registryUrl, ...options }) {
		super(options);
		this.registryUrl = registryUrl;
	}

	environment() {
		const npmFolder = path.join(this.userFolder, 'npm');
		fs.mkdirSync(npmFolder, { recursive: true });
		fs.writeFileSync(path.join(npmFolder, 'npmrc'), '');
		return {
			...super.environment(),
			E2E_TESTS: 'true',
			N8N_COMMUNITY_PACKAGES_REGISTRY: this.registryUrl,
			// The npm that n8n runs: its own empty user config and cache, so nothing of the machine's npm
			// takes part.
			npm_config_userconfig: path.join(npmFolder, 'npmrc'),
			npm_config_cache: path.join(npmFolder, 'cache'),
			npm_config_update_notifier: 'false',
		};
	}

	/** The licence switch of n8n's test mode (see the top of this file). */
	async enableCustomRegistry() {
		await this.request('PATCH', '/rest/e2e/feature', {
			body: { feature: CUSTOM_REGISTRY_FEATURE, enabled: true },
			expect: 200,
		});
	}

	// ---- The Community Nodes screen
	// -----------------------------------------------------------------------

	async installPackage(name) {
		return await this.rest('POST', '/community-packages', { name });
	}

	/** The screen's "Update" button: no version, so n8n takes the registry's latest. */
	async updatePackage(name) {
		return await this.rest('PATCH', '/community-packages', { name });
	}

	async uninstallPackage(name) {
		return await this.rest('DELETE', `/community-packages?name=${encodeURIComponent(name)}`);
	}

	async installedPackages() {
		return await this.rest('GET', '/community-packages');
	}

	// ---- Workflows as the editor handles them (the public API is off in test mode on 1.x)
	// ------------------

	async createWorkflow(workflow) {
		const { name, nodes, connections, settings = {} } = workflow;
		// As the editor saves a new workflow: unpublished (1.x's table wants `active` set).
		return await this.rest('POST', '/workflows', {
			name,
			nodes,
			connections,
			active: false,
			settings: { executionOrder: 'v1', ...settings },
		});
	}

	/** The editor's Publish (1.x: Active) switch. */
	async publish(id) {
		const { versionId } = await this.rest('GET', `/workflows/${id}`);
		return await this.rest('POST', `/workflows/${id}/activate`, { versionId });
	}

	async unpublish(id) {
		return await this.rest('POST', `/workflows/${id}/deactivate`, {});
	}

	/** The workflow's executions as the editor's execution list shows them (no run data). */
	async executions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const { results } = await this.rest('GET', `/executions?filter=${filter}&limit=100`);
		return results;
	}
}

module.exports = { InstallerN8n };
