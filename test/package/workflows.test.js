// The GitHub Actions workflows: actionlint and shellcheck check their syntax, expressions and
// scripts (scripts/lint-workflows.mjs, `npm run lint:workflows`). What they cannot know is checked
// here: that CI runs README's test command on every push with the n8n hosts cached; least privilege
// (contents: read, and id-token in the publish job alone, in its GitHub Environment); every action
// pinned to a full commit SHA; and the release's jobs and what each runs, the steps themselves
// being scripts/release.mjs's, tested in test/release/.
const fs = require('node:fs');
const path = require('node:path');
// `yaml` (YAML 1.2, as GitHub parses `on:`) comes with the dev tools (@n8n/node-cli and n8n's
// packages depend on it).
const YAML = require('yaml');

const { describeHost, hostLines } = require('../../e2e/lib/hosts');

const root = path.resolve(__dirname, '../..');
const dir = path.join(root, '.github/workflows');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');

const texts = Object.fromEntries(
	fs.readdirSync(dir).map((file) => [file, fs.readFileSync(path.join(dir, file), 'utf8')]),
);
const workflows = Object.fromEntries(
	Object.entries(texts).map(([file, text]) => [file, YAML.parse(text)]),
);
const ci = workflows['ci.yml'];
const release = workflows['release.yml'];

const readmeCommand = read('README.md')
	.match(/```sh\n([^`]*npm run test:all[^`]*)```/)?.[1]
	.trim();
const nodeVersion = read('scripts/node24.sh').match(/^version="([^"]+)"$/m)?.[1];
const slices = read('scripts/test-all.sh')
	.match(/^SLICES=\(([^)]*)\)$/m)?.[1]
	.split(/\s+/);

const steps = (job) => job.steps ?? [];
const runs = (job) => steps(job).map((step) => step.run ?? '');
const uses = (job, action) => steps(job).filter((step) => step.uses?.startsWith(`${action}@`));

/**
 * Whether a job's `if:` lets it run for an event; only conditions on github.event_name appear in
 * these files.
 */
function runsFor(job, event) {
	if (job.if === undefined) return true;
	const expression = String(job.if).replace(/^\$\{\{|\}\}$/g, '');
	expect(expression).toMatch(/^(\s|github\.event_name|[!=]=|'[a-z_]+'|\|\||&&|\(|\))+$/);
	return new Function(
		'event',
		`return ${expression.replace(/github\.event_name/g, 'event').replace(/([!=])=/g, '$1==')};`,
	)(event);
}

/** The job that runs README's test command, with the environment the step and its job give it. */
function testCommandJob(workflow) {
	return Object.entries(workflow.jobs).find(([, job]) =>
		runs(job).some((run) => run.trim() === readmeCommand),
	);
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

	test('reads the repository and nothing more by default, uses no stored secret and keeps no git credential', () => {
		expect(workflow.permissions).toEqual({ contents: 'read' });
		expect(text).not.toMatch(/secrets\.|NPM_TOKEN|NODE_AUTH_TOKEN|_authToken/);
		for (const job of Object.values(workflow.jobs)) {
			for (const checkout of uses(job, 'actions/checkout'))
				expect(checkout.with['persist-credentials']).toBe(false);
		}
	});

	test('every artifact upload overwrites, so that a re-run of its job can upload again', () => {
		const uploads = Object.values(workflow.jobs).flatMap((job) =>
			uses(job, 'actions/upload-artifact'),
		);
		expect(uploads.length).toBeGreaterThan(0);
		for (const upload of uploads)
			expect(upload.with).toEqual(expect.objectContaining({ overwrite: true }));
	});

	test("runs scripts/node24.sh's Node", () => {
		expect(workflow.env.NODE_VERSION).toBe(nodeVersion);
		const setups = Object.values(workflow.jobs).flatMap((job) => uses(job, 'actions/setup-node'));
		expect(setups.length).toBeGreaterThan(0);
		for (const setup of setups) expect(setup.with['node-version']).toBe('${{ env.NODE_VERSION }}');
	});

	test("caches the n8n hosts where e2e/lib/hosts.js installs them, keyed on every host line's manifest and lock", () => {
		const hostFiles = hostLines({ all: true }).flatMap((line) =>
			['package.json', 'package-lock.json'].map((name) =>
				path.relative(root, path.join(describeHost(line).folder, name)),
			),
		);
		for (const line of hostLines({ all: true })) {
			expect(path.relative(root, describeHost(line).installDir)).toMatch(/^\.cache\/hosts\/[^/]+$/);
		}
		const withCommand = Object.values(workflow.jobs).filter((job) =>
			runs(job).some((run) => run.includes('npm run test:all')),
		);
		expect(withCommand.length).toBeGreaterThan(0);
		for (const job of withCommand) {
			const restore = steps(job).findIndex((step) =>
				step.uses?.startsWith('actions/cache/restore@'),
			);
			expect(restore).toBeGreaterThanOrEqual(0);
			expect(restore).toBeLessThan(runs(job).findIndex((run) => run.includes('npm run test:all')));
			const { path: cached, key } = steps(job)[restore].with;
			expect(cached.split('\n')).toContain('.cache/hosts');
			const patterns = [...key.matchAll(/'([^']+)'/g)].map(
				(match) => new RegExp(`^${match[1].replace(/\./g, '\\.').replace(/\*/g, '[^/]+')}$`),
			);
			expect(hostFiles.filter((file) => !patterns.some((pattern) => pattern.test(file)))).toEqual(
				[],
			);
			// What was restored is saved under the same key.
			const save = steps(job).find((step) => step.uses?.startsWith('actions/cache/save@'));
			expect(save.with).toEqual({
				path: cached,
				key: '${{ steps.hosts.outputs.cache-primary-key }}',
			});
		}
	});
});

describe('ci.yml', () => {
	test("runs README's test command, verbatim, on every push and pull request", () => {
		expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
		expect(ci.on.push).toEqual({ branches: ['**'] });
		expect(ci.on.pull_request).toBeNull();
		const [, job] = testCommandJob(ci);
		expect({ push: runsFor(job, 'push'), pull_request: runsFor(job, 'pull_request') }).toEqual({
			push: true,
			pull_request: true,
		});
	});

	test('runs every slice of scripts/test-all.sh alone each night', () => {
		expect(ci.on.schedule).toEqual([{ cron: expect.any(String) }]);
		const job = Object.values(ci.jobs).find((candidate) => candidate.strategy?.matrix);
		expect(runsFor(job, 'schedule')).toBe(true);
		expect(job.strategy.matrix.include.map((entry) => entry.slice)).toEqual(slices);
		expect(runs(job)).toContain(`${readmeCommand} -- --slice \${{ matrix.slice }} --no-core`);
	});
});

describe.each(Object.keys(texts))('%s: what actionlint cannot know', (file) => {
	const workflow = workflows[file];

	test('every action is pinned to a full commit SHA with its version in a comment, the same one in both files', () => {
		const pins = [...texts[file].matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/gm)].map(
			([, reference, comment]) => ({ reference, comment: comment.trim() }),
		);
		expect(pins.length).toBe(
			Object.values(workflow.jobs).flatMap((job) => steps(job).filter((step) => step.uses)).length,
		);
		for (const pin of pins)
			expect(pin).toEqual({
				reference: expect.stringMatching(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/),
				comment: expect.stringMatching(/^# v\d+\.\d+\.\d+$/),
			});
		const all = Object.values(texts).flatMap((text) =>
			[...text.matchAll(/uses:\s*([^@\s]+)@(\S+)\s*(#.*)?$/gm)].map((match) => [
				match[1],
				`${match[2]} ${match[3]}`,
			]),
		);
		const byAction = {};
		for (const [action, pin] of all) (byAction[action] ??= new Set()).add(pin);
		expect(Object.entries(byAction).filter(([, set]) => set.size > 1)).toEqual([]);
	});

	test('no job but the publish job may mint an OIDC token', () => {
		const withToken = Object.entries(workflow.jobs).filter(
			([, job]) => job.permissions?.['id-token'],
		);
		expect(withToken.map(([name]) => name)).toEqual(file === 'release.yml' ? ['publish'] : []);
	});
});

describe('release.yml', () => {
	const jobs = release.jobs;

	test('runs only for a pushed v* tag, one release at a time whatever the tag', () => {
		expect(release.on).toEqual({ push: { tags: ['v*'] } });
		expect(release.concurrency).toEqual({ group: 'release', 'cancel-in-progress': false });
	});

	test('guard, then build, then test; publish needs all three', () => {
		expect(Object.keys(jobs)).toEqual(['guard', 'build', 'test', 'publish']);
		expect({ build: jobs.build.needs, test: jobs.test.needs, publish: jobs.publish.needs }).toEqual(
			{ build: 'guard', test: 'build', publish: ['guard', 'build', 'test'] },
		);
	});

	test("each job runs scripts/release.mjs's step: the guard and the build run no test and install no host", () => {
		expect(runs(jobs.guard).filter(Boolean)).toEqual(['node scripts/release.mjs guard']);
		// The guard compares the tagged commit with origin's default branch, which a shallow checkout
		// lacks.
		expect(uses(jobs.guard, 'actions/checkout').map((step) => step.with)).toEqual([
			{ 'persist-credentials': false, 'fetch-depth': 0 },
		]);
		for (const name of ['build', 'test', 'publish'])
			expect(uses(jobs[name], 'actions/checkout').map((step) => step.with)).toEqual([
				{ 'persist-credentials': false },
			]);
		expect(runs(jobs.build).filter(Boolean)).toEqual([
			'node scripts/release.mjs build --out release',
		]);
		expect(
			steps(jobs.build)
				.filter((step) => step.uses)
				.map((step) => step.uses.split('@')[0]),
		).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact']);
	});

	test("the test job runs README's test command with every slice on the build job's tarball", () => {
		const step = steps(jobs.test).find((candidate) => candidate.run?.trim() === readmeCommand);
		expect(step.env).toEqual({
			TEST_ALL_SLICE: 'all',
			RELEASE_TARBALL: 'built/${{ needs.build.outputs.tarball }}',
		});
		const download = steps(jobs.test).findIndex((candidate) =>
			candidate.uses?.startsWith('actions/download-artifact@'),
		);
		expect(steps(jobs.test)[download].with).toEqual({ name: 'package', path: 'built' });
		expect(download).toBeLessThan(steps(jobs.test).indexOf(step));
	});

	test("the publish job: the Environment npm-publish, id-token, no token of any kind, the build job's tarball by hash", () => {
		const { publish } = jobs;
		expect(publish.environment).toBe('npm-publish');
		expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		// setup-node's registry-url would write an .npmrc with a placeholder token (NODE_AUTH_TOKEN).
		for (const setup of uses(publish, 'actions/setup-node'))
			expect(setup.with['registry-url']).toBeUndefined();
		expect(texts['release.yml']).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN|_authToken|secrets\./);
		expect(runs(publish).filter(Boolean)).toEqual([
			'node scripts/release.mjs publish "$TARBALL" --dist-tag "$DIST_TAG" --sha256 "$SHA256"',
		]);
		const step = steps(publish).find((candidate) => candidate.run);
		expect(step.env).toEqual({
			TARBALL: 'release/${{ needs.build.outputs.tarball }}',
			SHA256: '${{ needs.build.outputs.sha256 }}',
			DIST_TAG: '${{ needs.guard.outputs.dist-tag }}',
		});
	});
});
