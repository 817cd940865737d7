// Reads the mutation results (the committed mutation/results/, one file per module, which every run rewrites for
// the modules it tested; or --report reports/mutation/mutation.json, or a Stryker incremental file) and prints the
// mutation score of every module of nodes/, against the goal of issue 39: 95% killed in every module.
// A mutant listed in mutation/equivalent-mutants.tsv (it cannot change what the package does) counts in no
// score; every other survivor is printed. Columns: killed includes timed out; errors are mutants that broke the
// suite's loading (runtime errors: noticed, but not counted); static mutants are not run (stryker.config.mjs).
// Exit status 1 when:
//   - without --baseline (`npm run mutation`): a module misses its goal or has a survivor not listed;
//   - with --baseline <results before the run: a Stryker incremental file, or a results folder> (`npm run
//     mutation:ci`): a module whose source changed since then, or that had no results then, has a survivor that was
//     not one there and is not listed, or misses its goal.
//
//   node scripts/mutation-report.js [--report <results folder or report file>] [--baseline <file or folder>]
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const { EQUIVALENT_FILE, keyOf, oneLine, originalText, readEquivalent } = require('../mutation/equivalents');
const { RESULTS_DIR, readStoreAsReport } = require('../mutation/resultsStore');
const NODES = 'nodes/InventoryOps/';

function argument(name, fallback) {
	const index = process.argv.indexOf(name);
	return index === -1 ? fallback : process.argv[index + 1];
}

/** Relative module path -> { source, mutants } of a results folder, a Stryker JSON report or incremental file. */
function readFiles(file) {
	const report = fs.statSync(file).isDirectory() ? readStoreAsReport(file) : JSON.parse(fs.readFileSync(file, 'utf8'));
	const files = new Map();
	for (const [name, data] of Object.entries(report.files ?? {})) {
		files.set(path.relative(ROOT, path.resolve(ROOT, name)).split(path.sep).join('/'), data);
	}
	return files;
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

const GOAL = 95;

/**
 * How many mutants Stryker makes of each module's source (the same instrumenter, without running anything): a
 * module with fewer results than that comes from an interrupted run, and its score is not yet its score.
 */
async function mutantCounts(files) {
	const { Instrumenter } = await import('@stryker-mutator/instrumenter');
	const quiet = { debug() {}, info() {}, warn() {}, error() {}, trace() {}, isDebugEnabled: () => false, isTraceEnabled: () => false };
	const inputs = [...files].map(([name, { source }]) => ({ name, mutate: true, content: source }));
	const { mutants } = await new Instrumenter(quiet).instrument(inputs, { plugins: null, excludedMutations: [], ignorers: [], noHeader: true });
	const counts = new Map();
	for (const mutant of mutants) counts.set(mutant.fileName, (counts.get(mutant.fileName) ?? 0) + 1);
	return counts;
}

async function main() {
	const reportFile = path.resolve(ROOT, argument('--report', RESULTS_DIR));
	const baselineFile = argument('--baseline');
	const equivalent = readEquivalent();
	const files = readFiles(reportFile);
	const counts = await mutantCounts(files);
	const baseline = baselineFile && fs.existsSync(baselineFile) ? readFiles(baselineFile) : baselineFile ? new Map() : undefined;

	const rows = [];
	const failures = [];
	const usedEquivalents = new Set();
	for (const [file, { source, mutants }] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
		const row = { file, detected: 0, survivors: [], equivalent: 0, ignored: 0, static: 0, errors: 0 };
		for (const mutant of mutants) {
			const key = keyOf(file, mutant, source);
			if (DETECTED.has(mutant.status)) row.detected++;
			else if (mutant.status === 'Ignored' && /static/i.test(mutant.statusReason ?? '')) row.static++;
			else if (mutant.status === 'Ignored') row.ignored++;
			else if (!UNDETECTED.has(mutant.status)) row.errors++;
			else if (equivalent.has(key)) {
				row.equivalent++;
				usedEquivalents.add(key);
			} else row.survivors.push({ mutant, key });
		}
		const counted = row.detected + row.survivors.length;
		if (counted + row.equivalent + row.static === 0) continue;
		row.score = counted === 0 ? 100 : (100 * row.detected) / counted;
		row.goal = GOAL;
		row.made = counts.get(file) ?? mutants.length;
		row.partial = mutants.length < row.made;
		const old = baseline?.get(file);
		row.changed = baseline !== undefined && old?.source !== source;
		if (baseline === undefined || row.changed) {
			const oldSurvivors = new Set(
				(old?.mutants ?? []).filter((mutant) => UNDETECTED.has(mutant.status)).map((mutant) => keyOf(file, mutant, old.source)),
			);
			const fresh = row.survivors.filter(({ key }) => baseline === undefined || !oldSurvivors.has(key));
			for (const { mutant } of fresh) {
				failures.push(`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} survived (${mutant.status}): ${oneLine(originalText(source, mutant.location))} -> ${oneLine(mutant.replacement ?? '')}`);
			}
			if (row.partial) {
				failures.push(`${file}: only ${mutants.length} of its ${row.made} mutants have a result (an interrupted run; \`MUTATION_FORCE=0 npm run mutation\` goes on)`);
			} else if (row.score < row.goal) failures.push(`${file}: ${row.score.toFixed(1)}% killed, goal ${row.goal}%`);
		}
		rows.push(row);
	}

	const width = Math.max(...rows.map((row) => row.file.length - NODES.length), 6);
	console.log(`${'module'.padEnd(width)}  score  goal  killed  survived  equivalent  static  errors  results${baseline ? '  changed' : ''}`);
	for (const row of rows) {
		const results = row.partial ? `partial ${files.get(row.file).mutants.length}/${row.made}` : 'all';
		console.log(
			`${row.file.replace(NODES, '').padEnd(width)}  ${row.score.toFixed(1).padStart(5)}  ${String(row.goal).padStart(4)}  ${String(row.detected).padStart(6)}  ${String(row.survivors.length).padStart(8)}  ${String(row.equivalent).padStart(10)}  ${String(row.static).padStart(6)}  ${String(row.errors).padStart(6)}  ${results.padStart(7)}${baseline ? `  ${row.changed ? 'yes' : ''}` : ''}`,
		);
	}
	const complete = rows.filter((row) => !row.partial);
	const total = complete.reduce((sum, row) => ({ detected: sum.detected + row.detected, survivors: sum.survivors + row.survivors.length }), { detected: 0, survivors: 0 });
	const staticCount = complete.reduce((sum, row) => sum + row.static, 0);
	const partialCount = rows.length - complete.length;
	console.log(
		`${partialCount === 0 ? 'all modules' : `the ${complete.length} modules with every result (${partialCount} partial left out)`}: ${((100 * total.detected) / Math.max(1, total.detected + total.survivors)).toFixed(1)}% killed (${total.detected} killed, ${total.survivors} survived; equivalent ones not counted; ${staticCount} static mutants not run, see mutation/README.md)`,
	);
	const stale = [...equivalent.keys()].filter((key) => !usedEquivalents.has(key) && files.has(key.split('\t')[0]));
	for (const key of stale) console.log(`note: listed as equivalent but not a survivor now: ${key.replace(/\t/g, ' | ')}`);

	if (failures.length > 0) {
		console.log(`\nmutation: ${failures.length} problem(s) — kill each survivor with a test, or list it in ${EQUIVALENT_FILE} with why:`);
		for (const failure of failures) console.log(`  ${failure}`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 2;
});
