// The mutation results as committed: one small file per module of nodes/ under mutation/results/,
// which Stryker's one incremental file (stryker.config.mjs `incrementalFile`, generated under
// reports/, not committed) is built from before a run (merge) and split back into after it (split).
// Why: that one file held every module's results and every test (15 MB), every run rewrote all of
// it, and two branches that ran mutation on different modules always conflicted on it. Here a
// module's file changes only when its own results change.
//
// A module's file (mutation/results/ + its path under nodes/ + .json, e.g.
// InventoryOps/shared/redact.ts.json):
//   format   1
// source the module's source as the results were made of it, one string per line (Stryker diffs it
// against the
//            module as it is now to tell which results still hold)
// tests per test file, the tests that covered or killed one of this module's mutants: [line,
// column, name]
// (or [name] without a place), sorted by name. This table is the module's own: a test is named
// here,
// not numbered by the run, so a test added or removed elsewhere changes no other module's file.
// mutants one row per mutant, sorted by place: [mutator, replacement, "line:column-line:column",
// status,
// {covered, killed, completed, reason}], where covered and killed are ranges of indices into the
// module's test table ("0-12,15"), completed is Stryker's testsCompleted, and reason is the first
// line
// of the status reason, without the sandbox's path (a killed mutant's whole failure message made a
// third
// of the old file, and changed with every run). Not kept: `static`, which Stryker works out again
// from
// each run's coverage (a run of one module wrote it false for every other module's mutants,
// changing
//            their results for nothing), ids, and relativeFileName.
// mutation/results/test-files.json holds the source of each test file (Stryker diffs it too; here
// one file, mutation/all.mutation.js, that requires every suite).
//
// What Stryker's incremental mode uses of its file (@stryker-mutator/core,
// mutants/incremental-differ.js): per module the source and, per mutant, mutator, replacement,
// location, status, statusReason, testsCompleted and the tests that covered and killed it; per test
// file the source and, per test, name and location. A mutant is matched by module, mutator,
// replacement and place; a test by test file, place and name, so the ids Stryker gives tests and
// mutants (numbers of one run) are not kept: merge numbers them again.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_DIR = path.join(ROOT, 'mutation/results');
// Stryker's incremental file (stryker.config.mjs), built from the store before a run: under
// reports/, not committed.
const INCREMENTAL_FILE = 'reports/mutation/stryker-incremental.json';
const TEST_FILES = 'test-files.json';
const FORMAT = 1;
const SOURCE_ROOT = 'nodes/';

/** mutation/results/<this> for a module path relative to the repository (nodes/...). */
function resultsPathOf(module) {
	if (!module.startsWith(SOURCE_ROOT) || module.includes('..'))
		throw new Error(`not a module of ${SOURCE_ROOT}: ${module}`);
	return `${module.slice(SOURCE_ROOT.length)}.json`;
}

function moduleOf(resultsPath) {
	return `${SOURCE_ROOT}${resultsPath
		.split(path.sep)
		.join('/')
		.replace(/\.json$/, '')}`;
}

/** "0-3,5,7-8" from sorted, distinct numbers, and back. */
function toRanges(numbers) {
	const parts = [];
	for (let i = 0; i < numbers.length; i++) {
		let j = i;
		while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
		parts.push(j === i ? String(numbers[i]) : `${numbers[i]}-${numbers[j]}`);
		i = j;
	}
	return parts.join(',');
}

function fromRanges(text) {
	if (!text) return [];
	return text.split(',').flatMap((part) => {
		const [first, last = first] = part.split('-').map(Number);
		if (!Number.isInteger(first) || !Number.isInteger(last) || last < first)
			throw new Error(`not a range: ${part}`);
		return Array.from({ length: last - first + 1 }, (_, k) => first + k);
	});
}

const placeText = ({ start, end }) => `${start.line}:${start.column}-${end.line}:${end.column}`;

function placeFrom(text) {
	const match = /^(\d+):(\d+)-(\d+):(\d+)$/.exec(text);
	if (!match) throw new Error(`not a place: ${text}`);
	const [sl, sc, el, ec] = match.slice(1).map(Number);
	return { start: { line: sl, column: sc }, end: { line: el, column: ec } };
}

/**
 * What a test is to Stryker's incremental mode: its file, place and name (incremental-differ.js
 * testToIdentifyingKey).
 */
const testKey = (file, test) =>
	JSON.stringify([
		file,
		test.location?.start?.line ?? null,
		test.location?.start?.column ?? null,
		test.name,
	]);

const testRow = (test) => {
	const { start, end } = test.location ?? {};
	if (!start) return [test.name];
	if (end) return [start.line, start.column, end.line, end.column, test.name];
	return [start.line, start.column, test.name];
};

function testFromRow(row) {
	const name = row[row.length - 1];
	if (row.length === 1) return { name };
	const location = { start: { line: row[0], column: row[1] } };
	if (row.length === 5) location.end = { line: row[2], column: row[3] };
	return { name, location };
}

// Tests sorted by their suite (the name starts with the suite's path), then place: the tests that
// cover a mutant are mostly neighbours in a suite, so their indices make few ranges.
function compareTests(a, b) {
	const suite = (test) => test.name.split(' ')[0];
	const line = (test) => test.location?.start?.line ?? -1;
	const column = (test) => test.location?.start?.column ?? -1;
	return (
		suite(a).localeCompare(suite(b)) ||
		line(a) - line(b) ||
		column(a) - column(b) ||
		(a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
	);
}

function compareMutants(a, b) {
	const { start: s1, end: e1 } = a.location;
	const { start: s2, end: e2 } = b.location;
	return (
		s1.line - s2.line ||
		s1.column - s2.column ||
		e1.line - e2.line ||
		e1.column - e2.column ||
		(a.mutatorName < b.mutatorName ? -1 : a.mutatorName > b.mutatorName ? 1 : 0) ||
		((a.replacement ?? '') < (b.replacement ?? '')
			? -1
			: (a.replacement ?? '') > (b.replacement ?? '')
				? 1
				: 0)
	);
}

// Stryker's sandbox, a new temporary folder each run, in a failure's stack: left out so that a
// result does not change with the folder it was made in.
const SANDBOX_PATH = /[^\s()'"]*\/stryker-[0-9a-f]+\/sandbox-[^/\s]+\//g;

/**
 * A mutant's status reason as kept: its first line that is not blank (a killed or broken mutant's
 * reason is the whole failure with its stack, up to 100 kB), without the sandbox's path.
 */
function shortReason(mutant) {
	if (mutant.statusReason === undefined) return undefined;
	const firstLine = mutant.statusReason.split('\n').find((line) => line.trim() !== '') ?? '';
	return firstLine.replace(SANDBOX_PATH, '');
}

// Mutant fields that are not options of a row: the row's own columns, and what Stryker works out
// again (ids, relativeFileName and fileName from the module's key, static from each run's
// coverage).
const ROW_FIELDS = new Set([
	'id',
	'mutatorName',
	'replacement',
	'location',
	'status',
	'statusReason',
	'testsCompleted',
	'static',
	'coveredBy',
	'killedBy',
	'relativeFileName',
	'fileName',
]);

/**
 * One module's results (a `files` entry of Stryker's report) as the module's file holds them.
 * testsById: Stryker's test id -> { file, test } of the report.
 */
function encodeModule(fileResult, testsById) {
	const used = new Map();
	for (const mutant of fileResult.mutants) {
		for (const id of [...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])]) {
			const found = testsById.get(id);
			if (found) used.set(testKey(found.file, found.test), found);
		}
	}
	const testFiles = [...new Set([...used.values()].map(({ file }) => file))].sort();
	const tests = {};
	const indexByKey = new Map();
	let index = 0;
	for (const file of testFiles) {
		const ofFile = [...used.values()]
			.filter((found) => found.file === file)
			.map(({ test }) => test)
			.sort(compareTests);
		tests[file] = ofFile.map(testRow);
		for (const test of ofFile) indexByKey.set(testKey(file, test), index++);
	}
	const indices = (ids) =>
		[
			...new Set(
				(ids ?? [])
					.map((id) => testsById.get(id))
					.filter(Boolean)
					.map(({ file, test }) => indexByKey.get(testKey(file, test))),
			),
		].sort((a, b) => a - b);
	const mutants = [...fileResult.mutants].sort(compareMutants).map((mutant) => {
		const options = {};
		const covered = toRanges(indices(mutant.coveredBy));
		const killed = toRanges(indices(mutant.killedBy));
		if (covered) options.covered = covered;
		if (killed) options.killed = killed;
		if (mutant.testsCompleted !== undefined) options.completed = mutant.testsCompleted;
		const reason = shortReason(mutant);
		if (reason !== undefined) options.reason = reason;
		for (const [name, value] of Object.entries(mutant))
			if (!ROW_FIELDS.has(name) && value !== undefined) options[name] = value;
		const row = [
			mutant.mutatorName,
			mutant.replacement ?? null,
			placeText(mutant.location),
			mutant.status,
		];
		if (Object.keys(options).length > 0) row.push(options);
		return row;
	});
	return { format: FORMAT, source: fileResult.source.split('\n'), tests, mutants };
}

/**
 * The text of a module's file: one line per source line, test and mutant, so that a change is a
 * change of lines.
 */
function serializeModule(record) {
	const list = (rows, indent) =>
		rows.length === 0
			? '[]'
			: `[\n${rows.map((row) => `${indent}\t${JSON.stringify(row)}`).join(',\n')}\n${indent}]`;
	const testFiles = Object.entries(record.tests);
	const tests =
		testFiles.length === 0
			? '{}'
			: `{\n${testFiles.map(([file, rows]) => `\t\t${JSON.stringify(file)}: ${list(rows, '\t\t')}`).join(',\n')}\n\t}`;
	return `{\n\t"format": ${record.format},\n\t"source": ${list(record.source, '\t')},\n\t"tests": ${tests},\n\t"mutants": ${list(record.mutants, '\t')}\n}\n`;
}

/**
 * A module's file back to Stryker's `files` entry; tests are { file, test } and get their id from
 * `idOf`.
 */
function decodeModule(module, record, idOf) {
	if (record.format !== FORMAT)
		throw new Error(`${module}: results format ${record.format}, this reads ${FORMAT}`);
	const tests = Object.entries(record.tests).flatMap(([file, rows]) =>
		rows.map((row) => ({ file, test: testFromRow(row) })),
	);
	const ids = (text) =>
		fromRanges(text).map((index) => {
			if (tests[index] === undefined) throw new Error(`${module}: no test ${index} in its table`);
			return idOf(tests[index]);
		});
	return {
		tests,
		fileResult: {
			language: /\.tsx?$/.test(module) ? 'typescript' : 'javascript',
			source: record.source.join('\n'),
			mutants: record.mutants.map(([mutatorName, replacement, place, status, options = {}]) => {
				const { covered, killed, completed, reason, ...other } = options;
				const mutant = { id: '', mutatorName };
				if (replacement !== null) mutant.replacement = replacement;
				if (reason !== undefined) mutant.statusReason = reason;
				mutant.status = status;
				if (completed !== undefined) mutant.testsCompleted = completed;
				mutant.coveredBy = ids(covered);
				mutant.killedBy = ids(killed);
				mutant.location = placeFrom(place);
				return Object.assign(mutant, other);
			}),
		},
	};
}

/** Stryker's test id -> { file, test } over the report's test files. */
function testsOf(report) {
	const testsById = new Map();
	for (const [file, { tests }] of Object.entries(report.testFiles ?? {}))
		for (const test of tests) testsById.set(test.id, { file, test });
	return testsById;
}

/**
 * Stryker's incremental report -> { modules: Map<results path, text>, testFiles: text }: the files
 * of the store, as text, for the modules the report holds.
 */
function split(report) {
	const testsById = testsOf(report);
	const modules = new Map();
	for (const [module, fileResult] of Object.entries(report.files ?? {})) {
		modules.set(
			resultsPathOf(module.split(path.sep).join('/')),
			serializeModule(encodeModule(fileResult, testsById)),
		);
	}
	const sources = Object.fromEntries(
		Object.entries(report.testFiles ?? {})
			.filter(([, { source }]) => source !== undefined)
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([file, { source }]) => [file, source.split('\n')]),
	);
	return { modules, testFiles: `${JSON.stringify(sources, null, '\t')}\n` };
}

/**
 * The store's files (results path -> parsed module file; parsed test-files.json) -> Stryker's
 * incremental report. Tests are numbered in one order over every module's table, mutants in module
 * order.
 */
function merge(records, testFileSources = {}) {
	const tests = new Map();
	const decoded = [...records]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([resultsPath, record]) => {
			const module = moduleOf(resultsPath);
			// A test's id is known once every module's tests are: for now, its key.
			const result = decodeModule(module, record, (found) => {
				const key = testKey(found.file, found.test);
				if (!tests.has(key)) tests.set(key, found);
				return key;
			});
			return { module, result };
		});
	const ordered = [...tests.entries()].sort(
		([, a], [, b]) => a.file.localeCompare(b.file) || compareTests(a.test, b.test),
	);
	const idByKey = new Map(ordered.map(([key], index) => [key, String(index)]));
	let mutantId = 0;
	const files = {};
	for (const { module, result } of decoded) {
		for (const mutant of result.fileResult.mutants) {
			mutant.id = String(mutantId++);
			mutant.coveredBy = mutant.coveredBy.map((key) => idByKey.get(key));
			mutant.killedBy = mutant.killedBy.map((key) => idByKey.get(key));
		}
		files[module] = result.fileResult;
	}
	const testFiles = {};
	for (const [file, lines] of Object.entries(testFileSources))
		testFiles[file] = { source: lines.join('\n'), tests: [] };
	for (const [key, { file, test }] of ordered) {
		testFiles[file] ??= { tests: [] };
		testFiles[file].tests.push({ id: idByKey.get(key), ...test });
	}
	return { schemaVersion: '1.0', thresholds: { high: 90, low: 80, break: null }, files, testFiles };
}

/** Every module file of the store: results path -> parsed record. */
function readStore(dir = RESULTS_DIR) {
	const records = new Map();
	if (!fs.existsSync(dir)) return { records, testFiles: {} };
	for (const name of fs.readdirSync(dir, { recursive: true })) {
		const file = path.join(dir, name);
		if (name === TEST_FILES || !name.endsWith('.json') || !fs.statSync(file).isFile()) continue;
		records.set(name.split(path.sep).join('/'), JSON.parse(fs.readFileSync(file, 'utf8')));
	}
	const testFilesPath = path.join(dir, TEST_FILES);
	const testFiles = fs.existsSync(testFilesPath)
		? JSON.parse(fs.readFileSync(testFilesPath, 'utf8'))
		: {};
	return { records, testFiles };
}

/** Stryker's incremental report built from the store. */
function readStoreAsReport(dir = RESULTS_DIR) {
	const { records, testFiles } = readStore(dir);
	return merge(records, testFiles);
}

/** Module path (nodes/...) -> recorded source, from the store, without decoding the results. */
function recordedSources(dir = RESULTS_DIR) {
	const { records } = readStore(dir);
	return new Map(
		[...records].map(([resultsPath, record]) => [moduleOf(resultsPath), record.source.join('\n')]),
	);
}

/**
 * Writes the modules of Stryker's report into the store: a file only where its text changes. A
 * module the report does not hold keeps its file (a run of part of nodes/), unless the module no
 * longer exists (`exists`). Returns the results paths written and removed.
 */
function writeStore(
	report,
	{ dir = RESULTS_DIR, exists = (module) => fs.existsSync(path.join(ROOT, module)) } = {},
) {
	const { modules, testFiles } = split(report);
	const written = [];
	const removed = [];
	const writeIfChanged = (name, text) => {
		const file = path.join(dir, name);
		if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, text);
		written.push(name);
	};
	for (const [name, text] of modules) if (exists(moduleOf(name))) writeIfChanged(name, text);
	if (Object.keys(report.testFiles ?? {}).length > 0) writeIfChanged(TEST_FILES, testFiles);
	for (const name of readStore(dir).records.keys()) {
		if (exists(moduleOf(name))) continue;
		fs.rmSync(path.join(dir, name));
		removed.push(name);
	}
	return { written, removed };
}

module.exports = {
	INCREMENTAL_FILE,
	RESULTS_DIR,
	TEST_FILES,
	compareMutants,
	placeFrom,
	placeText,
	shortReason,
	decodeModule,
	encodeModule,
	fromRanges,
	merge,
	moduleOf,
	readStore,
	readStoreAsReport,
	recordedSources,
	resultsPathOf,
	serializeModule,
	split,
	testKey,
	toRanges,
	writeStore,
};
