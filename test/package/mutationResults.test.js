// The mutation results store (mutation/resultsStore.js, mutation/README.md *The results*):
// Stryker's incremental file split into one file per module and merged back must give Stryker what
// it uses to reuse a result, and a change of one module's results (or of the tests' numbering) must
// change only that module's file.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const store = require('../../mutation/resultsStore');

const ROOT = path.resolve(__dirname, '../..');
// An excerpt of the incremental file Stryker 10 wrote in a full run (the one results file committed
// before mutation/results/): four modules, mutants of every status Stryker gave (Killed, Survived,
// Timeout, Ignored, RuntimeError), some without killedBy, the tests that cover them and a few that
// cover nothing; one RuntimeError's 114 kB reason cut to 3 kB.
const SAMPLE = path.join(__dirname, 'fixtures/stryker-incremental.sample.json');
const readSample = () => JSON.parse(fs.readFileSync(SAMPLE, 'utf8'));

/**
 * What Stryker's incremental mode (@stryker-mutator/core, mutants/incremental-differ.js) takes from
 * an incremental report, keyed the way it keys mutants and tests, without the ids of one run: per
 * module the source and per mutant its result and the tests that covered and killed it; per test
 * file the source and the tests that a mutant names. Not `static`: Stryker works it out from each
 * run's coverage.
 */
function strykerView(report) {
	const testKeyById = new Map();
	const testFiles = {};
	for (const [file, { source, tests }] of Object.entries(report.testFiles ?? {})) {
		testFiles[file] = { source, tests: [] };
		for (const test of tests) {
			const start = test.location?.start ?? { line: 0, column: 0 };
			testKeyById.set(test.id, `${file}@${start.line}:${start.column}\n${test.name}`);
		}
	}
	const named = new Set();
	const keys = (ids) =>
		[...new Set((ids ?? []).map((id) => testKeyById.get(id)).filter(Boolean))].sort();
	const files = {};
	for (const [module, { source, mutants }] of Object.entries(report.files)) {
		const results = {};
		for (const mutant of mutants) {
			const { start, end } = mutant.location;
			const key = `${module}@${start.line}:${start.column}-${end.line}:${end.column}\n${mutant.mutatorName}: ${mutant.replacement ?? mutant.mutatorName}`;
			const coveredBy = keys(mutant.coveredBy);
			const killedBy = keys(mutant.killedBy);
			for (const test of [...coveredBy, ...killedBy]) named.add(test);
			results[key] = {
				status: mutant.status,
				statusReason: mutant.statusReason === undefined ? undefined : store.shortReason(mutant),
				testsCompleted: mutant.testsCompleted,
				coveredBy,
				killedBy,
			};
		}
		files[module] = { source, mutants: results };
	}
	for (const key of [...named].sort()) testFiles[key.slice(0, key.indexOf('@'))].tests.push(key);
	return { files, testFiles };
}

/** The store's files of a report, parsed, as merge reads them. */
function splitToRecords(report) {
	const { modules, testFiles } = store.split(report);
	return {
		modules,
		records: new Map([...modules].map(([name, text]) => [name, JSON.parse(text)])),
		testFiles: JSON.parse(testFiles),
	};
}

describe('mutation results store', () => {
	test('split then merge gives Stryker the same results, tests and sources as the report Stryker wrote', () => {
		const sample = readSample();
		const { records, testFiles } = splitToRecords(sample);
		const merged = store.merge(records, testFiles);
		expect(Object.keys(merged.files).sort()).toEqual(Object.keys(sample.files).sort());
		expect(strykerView(merged)).toEqual(strykerView(sample));
		// Every mutant's test ids name a test of the merged report, and Stryker gets an id for every
		// mutant.
		const ids = new Set(
			Object.values(merged.testFiles).flatMap(({ tests }) => tests.map(({ id }) => id)),
		);
		for (const { mutants } of Object.values(merged.files)) {
			for (const mutant of mutants) {
				expect(mutant.id).toMatch(/^\d+$/);
				for (const id of [...mutant.coveredBy, ...mutant.killedBy]) expect(ids.has(id)).toBe(true);
			}
		}
	});

	test('the view it is compared by tells a lost covering test, a changed status and a moved test apart', () => {
		const sample = readSample();
		const view = strykerView(sample);
		const lost = readSample();
		const mutant = Object.values(lost.files)[0].mutants.find(
			(candidate) => candidate.coveredBy.length > 1,
		);
		mutant.coveredBy.pop();
		expect(strykerView(lost)).not.toEqual(view);
		const status = readSample();
		Object.values(status.files)[1].mutants.find(
			(candidate) => candidate.status === 'Killed',
		).status = 'Survived';
		expect(strykerView(status)).not.toEqual(view);
		const moved = readSample();
		const covering = new Set(
			Object.values(moved.files).flatMap(({ mutants }) =>
				mutants.flatMap(({ coveredBy }) => coveredBy),
			),
		);
		moved.testFiles['mutation/all.mutation.js'].tests.find(({ id }) =>
			covering.has(id),
		).location.start.line += 1;
		expect(strykerView(moved)).not.toEqual(view);
	});

	test('merge then split writes the same files again', () => {
		const first = splitToRecords(readSample());
		const again = store.split(store.merge(first.records, first.testFiles));
		const sorted = (modules) => [...modules].sort(([a], [b]) => a.localeCompare(b));
		expect(sorted(again.modules)).toEqual(sorted(first.modules));
	});

	test('the committed results merge and split back to the same files', () => {
		const { records, testFiles } = store.readStore();
		expect(records.size).toBeGreaterThan(20);
		const { modules } = store.split(store.merge(records, testFiles));
		for (const [name, text] of modules)
			expect(text).toBe(fs.readFileSync(path.join(store.RESULTS_DIR, name), 'utf8'));
		expect([...modules.keys()].sort()).toEqual([...records.keys()].sort());
		// Every results file names a module that exists.
		for (const name of records.keys())
			expect(fs.existsSync(path.join(ROOT, store.moduleOf(name)))).toBe(true);
	});

	test("a change of one module's results, and tests numbered anew with one more, change only that module's file", () => {
		const sample = readSample();
		const before = store.split(sample).modules;
		const changed = readSample();
		// The tests numbered in another order, as a run with one more test does: every id of every
		// module changes.
		const tests = changed.testFiles['mutation/all.mutation.js'].tests;
		const newId = new Map(tests.map(({ id }, index) => [id, `t${tests.length - index}`]));
		for (const test of tests) test.id = newId.get(test.id);
		tests.push({
			id: 't0',
			name: 'transport/newSuite.test.js a new test',
			location: { start: { line: 3, column: 2 } },
		});
		for (const { mutants } of Object.values(changed.files)) {
			for (const mutant of mutants) {
				mutant.coveredBy = mutant.coveredBy.map((id) => newId.get(id));
				mutant.killedBy = mutant.killedBy?.map((id) => newId.get(id));
			}
		}
		// One module's results change: a mutant is killed by the new test, which covers it now.
		const module = 'nodes/InventoryOps/shared/redact.ts';
		const mutant = changed.files[module].mutants.find(
			(candidate) => candidate.status === 'Timeout',
		);
		Object.assign(mutant, {
			status: 'Killed',
			statusReason: 'Error: expect(received).toBe(expected)',
			killedBy: ['t0'],
			coveredBy: [...mutant.coveredBy, 't0'],
		});
		const after = store.split(changed).modules;
		const differing = [...after.keys()].filter((name) => after.get(name) !== before.get(name));
		expect(differing).toEqual([store.resultsPathOf(module)]);
		expect(after.get(store.resultsPathOf(module))).toContain(
			'transport/newSuite.test.js a new test',
		);
	});

	test('a run of some modules keeps the files of the others, and drops those of modules that are gone', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mutation-results-'));
		try {
			const sample = readSample();
			const exists = (module) => module !== 'nodes/InventoryOps/trigger/delivery.ts' || !gone;
			let gone = false;
			expect(store.writeStore(sample, { dir, exists }).written).toHaveLength(
				Object.keys(sample.files).length + 1,
			);
			const kept = fs.readFileSync(path.join(dir, 'InventoryOps/shared/redact.ts.json'), 'utf8');
			const partial = readSample();
			delete partial.files['nodes/InventoryOps/shared/redact.ts'];
			gone = true;
			const { written, removed } = store.writeStore(partial, { dir, exists });
			expect(written).toEqual([]);
			expect(removed).toEqual(['InventoryOps/trigger/delivery.ts.json']);
			expect(fs.readFileSync(path.join(dir, 'InventoryOps/shared/redact.ts.json'), 'utf8')).toBe(
				kept,
			);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	test('ranges of test indices', () => {
		expect(store.toRanges([0, 1, 2, 4, 6, 7])).toBe('0-2,4,6-7');
		expect(store.fromRanges('0-2,4,6-7')).toEqual([0, 1, 2, 4, 6, 7]);
		expect(store.toRanges([])).toBe('');
		expect(store.fromRanges('')).toEqual([]);
		expect(() => store.fromRanges('3-1')).toThrow('not a range');
	});
});
