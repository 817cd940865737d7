// The GitHub Actions workflows, read as GitHub reads them (YAML 1.2): CI runs README's test command on every push and
// pull request with the n8n hosts cached; the release publishes with npm trusted publishing only after README's
// command with every slice passed, from a job that alone holds an OIDC token and runs no code of the package.
// GitHub itself is not here to run them; these are the properties a mistake in them would break silently.
const fs = require('node:fs');
const path = require('node:path');
// `yaml` (YAML 1.2, as GitHub parses `on:`) comes with the dev tools (@n8n/node-cli and n8n's packages depend on it).
const YAML = require('yaml');

const { describeHost, hostLines } = require('../../e2e/lib/hosts');

const root = path.resolve(__dirname, '../..');
const dir = path.join(root, '.github/workflows');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');

const texts = Object.fromEntries(fs.readdirSync(dir).map((file) => [file, fs.readFileSync(path.join(dir, file), 'utf8')]));
const workflows = Object.fromEntries(Object.entries(texts).map(([file, text]) => [file, YAML.parse(text)]));
const ci = workflows['ci.yml'];
const release = workflows['release.yml'];

const readmeCommand = read('README.md')
	.match(/```sh\n([^`]*npm run test:all[^`]*)```/)?.[1]
	.trim();
const nodeVersion = read('scripts/node24.sh').match(/^version="([^"]+)"$/m)?.[1];
const slices = read('scripts/test-all.sh').match(/^SLICES=\(([^)]*)\)$/m)?.[1].split(/\s+/);

const steps = (job) => job.steps ?? [];
const runs = (job) => steps(job).map((step) => step.run ?? '');
const uses = (job, action) => steps(job).filter((step) => step.uses?.startsWith(`${action}@`));

/** Whether a job's `if:` lets it run for an event; only conditions on github.event_name appear in these files. */
function runsFor(job, event) {
	if (job.if === undefined) return true;
	const expression = String(job.if).replace(/^\$\{\{|\}\}$/g, '');
	expect(expression).toMatch(/^(\s|github\.event_name|[!=]=|'[a-z_]+'|\|\||&&|\(|\))+$/);
	return new Function('event', `return ${expression.replace(/github\.event_name/g, 'event').replace(/([!=])=/g, '$1==')};`)(event);
}

/** The job that runs README's test command, with the environment the step and its job give it. */
function testCommandJob(workflow) {
	return Object.entries(workflow.jobs).find(([, job]) => runs(job).some((run) => run.trim() === readmeCommand));
}

test('the facts these checks compare with are where they are read from', () => {
	expect(readmeCommand).toBe('./scripts/node24.sh npm ci && ./scripts/node24.sh npm run test:all');
	expect(nodeVersion).toMatch(/^24\.\d+\.\d+$/);
	expect(slices.length).toBeGreaterThan(1);
	expect(Object.keys(workflows).sort()).toEqual(['ci.yml', 'release.yml']);
});

describe.each(Object.keys(texts))('%s', (file) => {
	const text = texts[file];
	const workflow = workflows[file];

	test('is valid YAML with a name, triggers and jobs', () => {
		const document = YAML.parseDocument(text);
		expect({ errors: document.errors, warnings: document.warnings }).toEqual({ errors: [], warnings: [] });
		expect(workflow).toEqual(expect.objectContaining({ name: expect.any(String), on: expect.any(Object), jobs: expect.any(Object) }));
	});

	test('reads the repository and nothing more by default, uses no stored secret and keeps no git credential', () => {
		expect(workflow.permissions).toEqual({ contents: 'read' });
		expect(text).not.toMatch(/secrets\.|NPM_TOKEN|NODE_AUTH_TOKEN|_authToken/);
		for (const job of Object.values(workflow.jobs)) {
			for (const checkout of uses(job, 'actions/checkout')) expect(checkout.with).toEqual({ 'persist-credentials': false });
		}
	});

	test("runs scripts/node24.sh's Node", () => {
		expect(workflow.env.NODE_VERSION).toBe(nodeVersion);
		const setups = Object.values(workflow.jobs).flatMap((job) => uses(job, 'actions/setup-node'));
		expect(setups.length).toBeGreaterThan(0);
		for (const setup of setups) expect(setup.with['node-version']).toBe('${{ env.NODE_VERSION }}');
	});

	test('caches the n8n hosts where e2e/lib/hosts.js installs them, keyed on every host line\'s manifest and lock', () => {
		const hostFiles = hostLines({ all: true }).flatMap((line) =>
			['package.json', 'package-lock.json'].map((name) => path.relative(root, path.join(describeHost(line).folder, name))),
		);
		for (const line of hostLines({ all: true })) {
			expect(path.relative(root, describeHost(line).installDir)).toMatch(/^\.cache\/hosts\/[^/]+$/);
		}
		const withCommand = Object.values(workflow.jobs).filter((job) => runs(job).some((run) => run.includes('npm run test:all')));
		expect(withCommand.length).toBeGreaterThan(0);
		for (const job of withCommand) {
			const restore = steps(job).findIndex((step) => step.uses?.startsWith('actions/cache/restore@'));
			expect(restore).toBeGreaterThanOrEqual(0);
			expect(restore).toBeLessThan(runs(job).findIndex((run) => run.includes('npm run test:all')));
			const { path: cached, key } = steps(job)[restore].with;
			expect(cached.split('\n')).toContain('.cache/hosts');
			const patterns = [...key.matchAll(/'([^']+)'/g)].map((match) => new RegExp(`^${match[1].replace(/\./g, '\\.').replace(/\*/g, '[^/]+')}$`));
			expect(hostFiles.filter((file) => !patterns.some((pattern) => pattern.test(file)))).toEqual([]);
			// What was restored is saved under the same key.
			const save = steps(job).find((step) => step.uses?.startsWith('actions/cache/save@'));
			expect(save.with).toEqual({ path: cached, key: '${{ steps.hosts.outputs.cache-primary-key }}' });
		}
	});
});

describe('ci.yml', () => {
	test("runs README's test command, verbatim, on every push and pull request", () => {
		expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
		expect(ci.on.push).toEqual({ branches: ['**'] });
		expect(ci.on.pull_request).toBeNull();
		const [, job] = testCommandJob(ci);
		expect({ push: runsFor(job, 'push'), pull_request: runsFor(job, 'pull_request') }).toEqual({ push: true, pull_request: true });
	});

	test('runs every slice of scripts/test-all.sh alone each night', () => {
		expect(ci.on.schedule).toEqual([{ cron: expect.any(String) }]);
		const job = Object.values(ci.jobs).find((candidate) => candidate.strategy?.matrix);
		expect(runsFor(job, 'schedule')).toBe(true);
		expect(job.strategy.matrix.include.map((entry) => entry.slice)).toEqual(slices);
		expect(runs(job)).toContain(`${readmeCommand} -- --slice \${{ matrix.slice }} --no-core`);
	});
});

describe('release.yml', () => {
	const [testJobName, testJob] = testCommandJob(release) ?? [];
	const publishers = Object.entries(release.jobs).filter(([, job]) => job.permissions?.['id-token'] === 'write');

	test('runs only for a pushed tag', () => {
		expect(release.on).toEqual({ push: { tags: ['v*'] } });
	});

	test("runs README's test command with every slice, and packs and scans the tarball after it", () => {
		expect(testJob).toBeDefined();
		const step = steps(testJob).find((candidate) => candidate.run?.trim() === readmeCommand);
		expect({ ...testJob.env, ...step.env }).toEqual(expect.objectContaining({ TEST_ALL_SLICE: 'all' }));
		const command = runs(testJob).indexOf(step.run);
		const pack = runs(testJob).findIndex((run) => run.includes('npm pack'));
		expect(pack).toBeGreaterThan(command);
		const packRun = runs(testJob)[pack];
		expect(packRun.indexOf('npm pack')).toBeLessThan(packRun.indexOf('npm run scan -- "release/$tarball"'));
	});

	test('one job alone may mint an OIDC token; it needs the test job and runs no code of the package or its dependencies', () => {
		expect(publishers).toHaveLength(1);
		const [, publish] = publishers[0];
		expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect([publish.needs].flat()).toContain(testJobName);
		expect(steps(publish).filter((step) => step.uses).map((step) => step.uses.split('@')[0])).toEqual([
			'actions/setup-node',
			'actions/download-artifact',
		]);
		expect(runs(publish).filter((run) => /npm (ci|install|test|run|exec)|npx |node /.test(run))).toEqual([]);
	});

	test('publishes the tested tarball with trusted publishing and provenance, checking npm is 11.5.1 or newer first', () => {
		const [, publish] = publishers[0];
		expect(uses(publish, 'actions/setup-node')[0].with['registry-url']).toBe('https://registry.npmjs.org');
		const publishRuns = runs(publish).filter((run) => run.includes('npm publish'));
		expect(publishRuns).toHaveLength(1);
		expect(publishRuns[0]).toMatch(/npm publish "\.\/release\/\$TARBALL" --provenance --access public/);
		const versionCheck = runs(publish).findIndex((run) => run.includes('11.5.1'));
		expect(versionCheck).toBeGreaterThanOrEqual(0);
		expect(versionCheck).toBeLessThan(runs(publish).indexOf(publishRuns[0]));
		expect(testJob.outputs.tarball).toBe('${{ steps.pack.outputs.tarball }}');
	});

	test('refuses, before the long run, a tag other than the version, a repository other than its own and a placeholder author', () => {
		const guard = runs(testJob).findIndex((run) => run.includes('GITHUB_REPOSITORY'));
		expect(guard).toBeGreaterThanOrEqual(0);
		expect(guard).toBeLessThan(runs(testJob).findIndex((run) => run.trim() === readmeCommand));
		expect(runs(testJob)[guard]).toMatch(/GITHUB_REF_NAME[\s\S]*repository\.url[\s\S]*author\?\.email/);
	});
});
