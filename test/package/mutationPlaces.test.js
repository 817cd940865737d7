// Mutants by place (mutation/equivalents.js; mutation/README.md, *Equivalent mutants* and *A change
// of layout*): an entry of the equivalent list excuses exactly one mutant and the check fails on an
// entry that names no survivor (scripts/mutation-report.js); a listed survivor runs no test only
// while its module is the source of its results (mutation/killerFirst.mjs, `rerun-listed`); and
// after a change of layout only, `rekey` moves every result to its place in the new text
// (scripts/mutation-results.js). On a small module (fixtures/mutation-rekey/tiny.ts.txt, with
// results made by Stryker's instrumenter and statuses given by hand) in a scratch checkout.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const { codeKey, placesOf } = require('../../mutation/equivalents');
const store = require('../../mutation/resultsStore');
const { HINTS_VARIABLE } = require('../../mutation/hintsFile');

const ROOT = path.resolve(__dirname, '../..');
const FIXTURE = path.join(__dirname, 'fixtures/mutation-rekey');
const MODULE = 'nodes/Tiny/tiny.ts';
const RESULTS = 'mutation/results/Tiny/tiny.ts.json';
// n8n's Prettier configuration for community nodes, which `rekey` uses in a checkout without its
// own.
const N8N_PRETTIER = path.join(
	ROOT,
	'node_modules/@n8n/node-cli/dist/template/templates/shared/default/.prettierrc.js',
);

// Each test runs the scripts a few times, each loading TypeScript or the instrumenter (seconds on a
// busy machine).
jest.setTimeout(120_000);

let dir;
const at = (name) => path.join(dir, name);
const read = (name) => fs.readFileSync(at(name), 'utf8');
const write = (name, text) => {
	fs.mkdirSync(path.dirname(at(name)), { recursive: true });
	fs.writeFileSync(at(name), text);
};

beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mutation-places-'));
	write(MODULE, fs.readFileSync(path.join(FIXTURE, 'tiny.ts.txt'), 'utf8'));
	write(RESULTS, fs.readFileSync(path.join(FIXTURE, 'tiny.ts.json'), 'utf8'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A script of scripts/ run on the scratch checkout. */
function run(script, args, env = {}) {
	const { status, stdout, stderr } = spawnSync(
		process.execPath,
		[path.join(ROOT, 'scripts', script), ...args, '--root', dir],
		{
			cwd: ROOT,
			encoding: 'utf8',
			env: { ...process.env, ...env },
		},
	);
	return { status, stdout, stderr };
}

/**
 * The module's results in the scratch checkout: { source, mutants } with every mutant's place and
 * test names.
 */
function results() {
	const report = store.readStoreAsReport(at('mutation/results'));
	const names = new Map(
		Object.values(report.testFiles).flatMap(({ tests }) =>
			tests.map((test) => [test.id, test.name]),
		),
	);
	const { source, mutants } = report.files[MODULE];
	const places = placesOf(MODULE, source, mutants);
	return {
		source,
		mutants: mutants.map((mutant, index) => ({
			...mutant,
			place: places[index],
			coveredBy: mutant.coveredBy.map((id) => names.get(id)),
			killedBy: mutant.killedBy.map((id) => names.get(id)),
		})),
	};
}

/**
 * Sets the status of the scratch results' mutants that `which` picks (given each mutant's place).
 */
function setStatus(which, status) {
	const record = JSON.parse(read(RESULTS));
	const { mutants } = store.decodeModule(MODULE, record, () => '').fileResult;
	const places = placesOf(MODULE, record.source.join('\n'), mutants);
	let count = 0;
	places.forEach((place, index) => {
		if (!which(place)) return;
		record.mutants[index][3] = status;
		count++;
	});
	write(RESULTS, store.serializeModule(record));
	return count;
}

/**
 * Node code in a child process (Prettier and Stryker's instrumenter load ES modules, which jest's
 * module system does not): what it prints, parsed.
 */
function inNode(code, ...args) {
	const { status, stdout, stderr } = spawnSync(process.execPath, ['-e', code, ...args], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (status !== 0) throw new Error(stderr);
	return stdout;
}

/** Formats the scratch module with Prettier and n8n's configuration. */
const formatModule = () =>
	inNode(
		`require('prettier').format(require('fs').readFileSync(process.argv[1], 'utf8'), { ...require(process.argv[2]), filepath: process.argv[1] }).then((text) => require('fs').writeFileSync(process.argv[1], text))`,
		at(MODULE),
		N8N_PRETTIER,
	);

/** The mutants Stryker's instrumenter makes of a source (mutation/instrument.js). */
const madeOf = (source) =>
	JSON.parse(
		inNode(
			`require('./mutation/instrument').mutantsOf(new Map([['m.ts', process.argv[1]]])).then((made) => console.log(JSON.stringify(made.get('m.ts'))))`,
			source,
		),
	);

const LIST_HEADER = '# module\tdeclaration\tmutator\toriginal\treplacement\toccurrence\twhy\n';
const listed = (...rows) => {
	write('list.tsv', LIST_HEADER + rows.map((row) => `${[MODULE, ...row].join('\t')}\n`).join(''));
	return { MUTATION_EQUIVALENT_FILE: at('list.tsv') };
};

describe('the place of a mutant', () => {
	test('names the declarations around it and counts the same mutant within the innermost one', () => {
		const { mutants } = results();
		const summary = (mutant) =>
			`${mutant.place.declaration} ${mutant.mutatorName} ${mutant.place.original} #${mutant.place.occurrence}`;
		const all = mutants.map(summary);
		expect(all).toEqual(
			expect.arrayContaining([
				'NAMES ArrayDeclaration ["zero", "one"] #1',
				'Counter.add ConditionalExpression step < 0 #1',
				// Two '' in one method: one mutant each, told apart by their order.
				'Counter.label StringLiteral "" #1',
				'Counter.label StringLiteral "" #2',
				// The same text in another declaration counts apart.
				'summary StringLiteral "" #1',
				'summary.joined StringLiteral "" #1',
				'summary.parts ArrowFunction value => value > 0 #1',
			]),
		);
		expect(new Set(mutants.map(({ place }) => place.key)).size).toBe(mutants.length);
	});

	test('compares code without what a formatter changes: whitespace, comments, quotes, parentheses, trailing commas', () => {
		expect(codeKey('{ a: "x", b: f(16) }')).toBe(
			codeKey("{\n\ta: 'x', // the a\n\tb: (f(0x10)),\n}"),
		);
		expect(codeKey('values.filter(value => value > 0)')).toBe(
			codeKey('values\n\t.filter((value) => value > 0)'),
		);
		expect(codeKey('`a ${ b } c`')).toBe(codeKey('`a ${b} c`'));
		expect(codeKey('`a ${b} c`')).not.toBe(codeKey('`a ${b}  c`'));
		expect(codeKey('a > b')).not.toBe(codeKey('a >= b'));
	});
});

describe('the equivalent list, by place', () => {
	test('an entry excuses exactly one mutant; a stale entry, a listed mutant killed and one no test reaches fail the check', () => {
		// Both '' of Counter.label survive; only the second is listed.
		expect(
			setStatus(
				({ declaration, original }) => declaration === 'Counter.label' && original === '""',
				'Survived',
			),
		).toBe(2);
		expect(
			setStatus(
				({ declaration, original, replacement }) =>
					declaration === 'summary.parts' && original === 'value > 0' && replacement === 'true',
				'NoCoverage',
			),
		).toBe(1);
		const env = listed(
			[
				'Counter.label',
				'StringLiteral',
				'""',
				'"Stryker was here!"',
				2,
				'the second fallback is never shown',
			],
			[
				'Counter.add',
				'ConditionalExpression',
				'step < 0',
				'false',
				1,
				'a negative step is refused before',
			],
			['summary', 'StringLiteral', '""', '"Stryker was here!"', 2, 'a place with no mutant'],
			['summary.joined', 'StringLiteral', '", "', '""', 1, 'a mutant a test kills'],
			[
				'summary.parts',
				'ConditionalExpression',
				'value > 0',
				'true',
				1,
				'a mutant no test reaches',
			],
		);
		const { status, stdout, stderr } = run(
			'mutation-report.js',
			['--report', at('mutation/results'), '--equivalents', at('list.tsv')],
			env,
		);
		expect(status).toBe(1);
		// killed, survived, equivalent: the two listed survivors are equivalent, the NoCoverage one
		// counts as survived.
		expect(stdout).toMatch(/^nodes\/Tiny\/tiny\.ts +80\.0 +95 +36 +9 +2 +3 +0 +all$/m);
		const problems = stderr
			.split('\n')
			.filter((line) => line.startsWith('  nodes/') || line.startsWith('  no mutant'));
		expect(problems).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^ {2}nodes\/Tiny\/tiny\.ts:16:29 StringLiteral survived \(Survived\): "" -> "Stryker was here!"$/,
				),
				expect.stringMatching(
					/tiny\.ts:21:39 listed as equivalent, but no test reaches it \(NoCoverage\).*list\.tsv:6\)$/,
				),
				expect.stringMatching(/tiny\.ts:22:47 listed as equivalent, but killed now/),
				expect.stringMatching(
					/^ {2}no mutant at the place of nodes\/Tiny\/tiny\.ts summary: StringLiteral "" -> "Stryker was here!" \(#2;/,
				),
			]),
		);
		// The second '' of Counter.label is excused, and so is the survivor of Counter.add: neither is
		// a problem.
		expect(problems.filter((line) => /tiny\.ts:(16:51|10:23) /.test(line))).toEqual([]);
		// The unlisted survivor is printed as its entry would read.
		expect(stderr).toContain(
			`as listed: ${MODULE}\tCounter.label\tStringLiteral\t""\t"Stryker was here!"\t1\t<why>`,
		);
	});

	test('a listed survivor runs no test while its module is the source of its results; once it changes, it runs again', () => {
		const env = listed([
			'Counter.add',
			'ConditionalExpression',
			'step < 0',
			'false',
			1,
			'a negative step is refused before',
		]);
		const merged = at('stryker-incremental.json');
		expect(run('mutation-results.js', ['merge', '--out', merged]).status).toBe(0);
		const { mutants } = results();
		const survivor = mutants.find(
			({ place }) =>
				place.declaration === 'Counter.add' &&
				place.original === 'step < 0' &&
				place.replacement === 'false',
		);
		const killed = mutants.find(
			({ status, place }) => status === 'Killed' && place.declaration === 'summary.joined',
		);
		const planOf = (mutant, id) => {
			const zero = ({ line, column }) => ({ line: line - 1, column: column - 1 });
			return {
				plan: 'Run',
				mutant: {
					id,
					fileName: at(MODULE),
					mutatorName: mutant.mutatorName,
					replacement: mutant.replacement,
					location: { start: zero(mutant.location.start), end: zero(mutant.location.end) },
				},
			};
		};
		const plan = () => {
			const script = `import { strykerPlugins } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'mutation/killerFirst.mjs')).href)};
				const reporter = new strykerPlugins[0].injectableClass({ incrementalFile: process.argv[1] });
				reporter.onMutationTestingPlanReady({ mutantPlans: JSON.parse(process.argv[2]) });`;
			const hints = at('hints.json');
			const result = spawnSync(
				process.execPath,
				[
					'--input-type=module',
					'-e',
					script,
					merged,
					JSON.stringify([planOf(survivor, 's'), planOf(killed, 'k')]),
				],
				{
					cwd: dir,
					encoding: 'utf8',
					env: { ...process.env, ...env, [HINTS_VARIABLE]: hints },
				},
			);
			expect(result.stderr).toBe('');
			return JSON.parse(fs.readFileSync(hints, 'utf8'));
		};
		expect(plan()).toEqual({ firstSuite: { k: 'tiny/summary.test.js' }, listedEquivalent: ['s'] });
		// The ranges Stryker's --mutate takes (lines from 1, columns from 0) name the listed mutant.
		const { start, end } = survivor.location;
		expect(run('mutation-results.js', ['listed', MODULE], env).stdout.trim()).toBe(
			`${MODULE}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`,
		);
		// Nothing to drop from Stryker's file while the module is unchanged.
		expect(run('mutation-results.js', ['rerun-listed', '--in', merged], env).stdout).toContain(
			'their modules changed: none',
		);

		write(MODULE, `${read(MODULE)}\nexport const LATER = 1;\n`);
		expect(plan().listedEquivalent).toEqual([]);
		// And its result leaves Stryker's file, so that Stryker's incremental mode cannot reuse it: the
		// run tests it.
		expect(run('mutation-results.js', ['rerun-listed', '--in', merged], env).stdout).toContain(
			`their modules changed: ${MODULE} (1)`,
		);
		const after = JSON.parse(fs.readFileSync(merged, 'utf8')).files[MODULE].mutants;
		expect(after).toHaveLength(mutants.length - 1);
		expect(
			after.some(
				(mutant) =>
					mutant.mutatorName === survivor.mutatorName &&
					JSON.stringify(mutant.location) === JSON.stringify(survivor.location) &&
					mutant.replacement === survivor.replacement,
			),
		).toBe(false);
	});
});

describe('rekey: results moved to a new layout', () => {
	test('after a reformat, every result is at its place in the new text, and no module reads as changed', () => {
		const before = results();
		expect(run('mutation-results.js', ['changed']).stdout.trim()).toBe('');
		formatModule();
		const formatted = read(MODULE);
		expect(formatted).not.toBe(before.source);
		expect(run('mutation-results.js', ['changed']).stdout.trim()).toBe(MODULE);

		const rekey = run('mutation-results.js', ['rekey']);
		expect(rekey.stderr).toBe('');
		expect(rekey.status).toBe(0);
		expect(rekey.stdout).toContain(
			`re-keyed to the current layout: 1 modules (${before.mutants.length} mutants, every one placed)`,
		);
		expect(run('mutation-results.js', ['changed']).stdout.trim()).toBe('');

		const after = results();
		expect(after.source).toBe(formatted);
		// Exactly the mutants Stryker makes of the new text, at their places there, with their
		// replacement as written.
		const made = madeOf(formatted);
		const exact = ({ mutatorName, replacement, location }) =>
			JSON.stringify([mutatorName, replacement, location]);
		expect(after.mutants.map(exact).sort()).toEqual(made.map(exact).sort());
		// Each keeps its result, found by its place.
		const result = ({ status, statusReason, testsCompleted, coveredBy, killedBy }) => ({
			status,
			statusReason,
			testsCompleted,
			coveredBy,
			killedBy,
		});
		const byKey = new Map(after.mutants.map((mutant) => [mutant.place.key, mutant]));
		for (const mutant of before.mutants)
			expect([mutant.place.key, result(byKey.get(mutant.place.key))]).toEqual([
				mutant.place.key,
				result(mutant),
			]);
		// The layout did move them: lines of the summary were split, quotes changed.
		const moved = before.mutants.filter(
			(mutant) => byKey.get(mutant.place.key).location.start.line !== mutant.location.start.line,
		);
		expect(moved.length).toBeGreaterThan(5);
		const one = after.mutants.find(
			({ place }) =>
				place.declaration === 'summary.joined' &&
				place.mutator === 'StringLiteral' &&
				place.replacement === '""',
		);
		expect(one.place.original).toBe("', '");
	});

	test('a mutant it cannot place fails it loudly, and that module keeps its results', () => {
		// Results of an interrupted run: one mutant of the module has none, so the new text has a
		// mutant with no partner.
		const record = JSON.parse(read(RESULTS));
		const [dropped] = record.mutants.splice(7, 1);
		write(RESULTS, store.serializeModule(record));
		const kept = read(RESULTS);
		formatModule();
		const rekey = run('mutation-results.js', ['rekey']);
		expect(rekey.status).toBe(1);
		expect(rekey.stderr).toContain('1 module(s) NOT re-keyed');
		expect(rekey.stderr).toMatch(
			new RegExp(
				`${MODULE}:\\d+:\\d+-\\d+:\\d+ ${dropped[0]} .*: a mutant of the current source with no recorded result`,
			),
		);
		expect(read(RESULTS)).toBe(kept);
		expect(run('mutation-results.js', ['changed']).stdout.trim()).toBe(MODULE);
	});

	test('a module changed in more than its layout is left to a run', () => {
		write(MODULE, read(MODULE).replace('label: "values"', 'label: "items"'));
		formatModule();
		const kept = read(RESULTS);
		const rekey = run('mutation-results.js', ['rekey']);
		expect(rekey.status).toBe(0);
		expect(rekey.stdout).toContain(
			`0 modules (0 mutants, every one placed); 0 unchanged; 1 changed in more than layout (left to a run): ${MODULE}`,
		);
		expect(read(RESULTS)).toBe(kept);
	});
});
