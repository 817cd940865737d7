// Reads the mutation results (the committed mutation/results/, one file per module, which every run
// rewrites for the modules it tested; or --report reports/mutation/mutation.json, or a Stryker
// incremental file) and prints the mutation score of every module of nodes/, against the goal of
// issue 39: 95% killed in every module. A mutant listed in mutation/equivalent-mutants.tsv (by
// place: mutation/equivalents.js) counts in no score; every other survivor is printed. Static
// mutants count like any other once run (`npm run mutation` runs them; a run that leaves them out,
// `mutation:ci`, gives them no result: column `static not run`). Columns: killed includes timed
// out; errors are mutants that broke the suite's loading (runtime errors: noticed, but not
// counted). Exit status 1 when:
// - an entry of the list names no mutant (stale), or a listed mutant is not a survivor: killed (or
// timed out, or
// broke the run) or not covered by any test (NoCoverage: no test reaches it, so its survival proves
// nothing);
// - without --baseline (`npm run mutation`): a module misses its goal or has a survivor not listed;
// - with --baseline <results before the run: a Stryker incremental file, or a results folder> (`npm
// run
// mutation:ci`): a module whose source changed since then, or that had no results then, has a
// survivor that was
//     not one there and is not listed, or misses its goal.
//
// node scripts/mutation-report.js [--report <results folder or report file>] [--baseline <file or
// folder>]
// [--equivalents <list>] another list than mutation/equivalent-mutants.tsv
// node scripts/mutation-report.js --markdown the table of CONTRIBUTING.md, *Mutation testing*, and
// its total
//   node scripts/mutation-report.js --places <module>
// every mutant of the module with its place, as the list's columns
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const {
	EQUIVALENT_FILE,
	entryName,
	oneLine,
	originalText,
	placesOf,
	readEquivalent,
} = require('../mutation/equivalents');
const { RESULTS_DIR, readStoreAsReport } = require('../mutation/resultsStore');
const { mutantsOf, withoutGhosts } = require('../mutation/instrument');
const NODES = 'nodes/InventoryOps/';

function argument(name, fallback) {
	const index = process.argv.indexOf(name);
	return index === -1 ? fallback : process.argv[index + 1];
}

/**
 * Relative module path -> { source, mutants } of a results folder, a Stryker JSON report or
 * incremental file.
 */
function readFiles(file) {
	const report = fs.statSync(file).isDirectory()
		? readStoreAsReport(file)
		: JSON.parse(fs.readFileSync(file, 'utf8'));
	const files = new Map();
	for (const [name, data] of Object.entries(report.files ?? {})) {
		files.set(path.relative(ROOT, path.resolve(ROOT, name)).split(path.sep).join('/'), data);
	}
	return files;
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const isStatic = (mutant) =>
	mutant.status === 'Ignored' && /static/i.test(mutant.statusReason ?? '');

const GOAL = 95;

const where = (file, mutant) =>
	`${file}:${mutant.location.start.line}:${mutant.location.start.column}`;

/**
 * A mutant as the list's first six columns (module, declaration, mutator, code, replacement,
 * occurrence).
 */
const listColumns = (file, place) =>
	[
		file,
		place.declaration,
		place.mutator,
		place.original,
		place.replacement,
		place.occurrence,
	].join('\t');

/**
 * One module's row, and what of it fails the check: the entries of the list for it (matched by
 * place) are marked used.
 */
function moduleRow(file, { source, mutants }, entries, used) {
	const row = {
		file,
		detected: 0,
		survivors: [],
		equivalent: 0,
		ignored: 0,
		static: 0,
		errors: 0,
		listedProblems: [],
	};
	const listed = new Map(
		entries.filter((entry) => entry.file === file).map((entry) => [entry.key, entry]),
	);
	const places = placesOf(file, source, mutants);
	mutants.forEach((mutant, index) => {
		const place = places[index];
		const entry = listed.get(place.key);
		if (entry) used.add(entry);
		const problem = (what) =>
			row.listedProblems.push(
				`${where(file, mutant)} listed as equivalent, but ${what}: ${entryName(entry)}`,
			);
		if (DETECTED.has(mutant.status)) {
			row.detected++;
			if (entry)
				problem(
					`${mutant.status === 'Killed' ? 'killed' : 'timed out'} now (a test tells it apart: the entry goes)`,
				);
		} else if (isStatic(mutant)) {
			row.static++;
		} else if (mutant.status === 'Ignored') {
			row.ignored++;
			if (entry) problem(`not tested (${oneLine(mutant.statusReason ?? 'ignored')})`);
		} else if (!UNDETECTED.has(mutant.status)) {
			row.errors++;
			if (entry)
				problem(
					`it ${mutant.status === 'RuntimeError' ? 'breaks the run' : `is ${mutant.status}`} now`,
				);
		} else if (entry && mutant.status === 'Survived') {
			row.equivalent++;
		} else {
			row.survivors.push({ mutant, key: place.key, place, listed: entry !== undefined });
			if (entry)
				problem(
					'no test reaches it (NoCoverage): a survival no test could have told apart proves nothing',
				);
		}
	});
	return row;
}

/**
 * --places <module>: every mutant of the module, as the list's columns, with its line and status.
 */
function printPlaces(files, module) {
	const name = module.startsWith('nodes/') ? module : `${NODES}${module}`;
	const result = files.get(name);
	if (!result) {
		console.error(`no results for ${name}`);
		process.exitCode = 1;
		return;
	}
	console.log(
		'# line:column\tstatus\tmodule\tdeclaration\tmutator\toriginal\treplacement\toccurrence',
	);
	const places = placesOf(name, result.source, result.mutants);
	result.mutants.forEach((mutant, index) => {
		console.log(
			`${mutant.location.start.line}:${mutant.location.start.column}\t${mutant.status}\t${listColumns(name, places[index])}`,
		);
	});
}

const percent = (value) => `${value.toFixed(1)}%`;

function printMarkdown(rows, files, total) {
	console.log('| module | score | goal | killed | survived | equivalent | static not run |');
	console.log('|---|---:|---:|---:|---:|---:|---:|');
	for (const row of rows) {
		const score = row.partial
			? `partial ${files.get(row.file).mutants.length}/${row.made}`
			: percent(row.score);
		console.log(
			`| \`${row.file.replace(NODES, '')}\` | ${score} | ${row.goal}% | ${row.detected} | ${row.survivors.length} | ${row.equivalent} | ${row.static} |`,
		);
	}
	console.log('');
	console.log(total);
}

async function main() {
	const reportFile = path.resolve(ROOT, argument('--report', RESULTS_DIR));
	const baselineFile = argument('--baseline');
	const entries = readEquivalent(
		argument('--equivalents') && path.resolve(argument('--equivalents')),
	);
	const files = readFiles(reportFile);
	if (process.argv.includes('--places')) return printPlaces(files, argument('--places', ''));
	// What Stryker makes of each recorded source: a module with fewer results than that comes from an
	// interrupted run (its score is not yet its score); a result of a mutant the source does not make
	// is a ghost (mutation/instrument.js).
	const made = await mutantsOf(new Map([...files].map(([name, { source }]) => [name, source])));
	const notes = [];
	for (const [file, result] of files) {
		const { mutants, ghosts } = withoutGhosts(result.mutants, made.get(file));
		if (ghosts.length === 0) continue;
		notes.push(
			`${file}: ${ghosts.length} result(s) of mutants its source does not make (ghosts: mutation/instrument.js), not counted; \`node scripts/mutation-results.js prune\` drops them`,
		);
		files.set(file, { ...result, mutants });
	}
	const baseline =
		baselineFile && fs.existsSync(baselineFile)
			? readFiles(baselineFile)
			: baselineFile
				? new Map()
				: undefined;

	const rows = [];
	const failures = [];
	const used = new Set();
	for (const [file, result] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
		const { source, mutants } = result;
		const row = moduleRow(file, result, entries, used);
		failures.push(...row.listedProblems);
		const counted = row.detected + row.survivors.length;
		if (counted + row.equivalent + row.static === 0) continue;
		row.score = counted === 0 ? 100 : (100 * row.detected) / counted;
		row.goal = GOAL;
		row.made = made.get(file).length;
		row.partial = mutants.length < row.made;
		const old = baseline?.get(file);
		row.changed = baseline !== undefined && old?.source !== source;
		if (baseline === undefined || row.changed) {
			const oldSurvivors = new Set(
				old === undefined
					? []
					: placesOf(file, old.source, old.mutants)
							.filter((place, index) => UNDETECTED.has(old.mutants[index].status))
							.map(({ key }) => key),
			);
			const fresh = row.survivors.filter(
				({ key, listed }) => !listed && (baseline === undefined || !oldSurvivors.has(key)),
			);
			for (const { mutant, place } of fresh) {
				failures.push(
					`${where(file, mutant)} ${mutant.mutatorName} survived (${mutant.status}): ${oneLine(originalText(source, mutant.location))} -> ${oneLine(mutant.replacement ?? '')}\n      as listed: ${listColumns(file, place)}\t<why>`,
				);
			}
			if (row.partial) {
				failures.push(
					`${file}: only ${mutants.length} of its ${row.made} mutants have a result (an interrupted run; \`MUTATION_FORCE=0 npm run mutation\` goes on)`,
				);
			} else if (row.score < row.goal)
				failures.push(`${file}: ${row.score.toFixed(1)}% killed, goal ${row.goal}%`);
		}
		rows.push(row);
	}
	for (const entry of entries)
		if (!used.has(entry))
			failures.push(
				`no mutant at the place of ${entryName(entry)} (stale: the code changed; list the mutant it meant again, or drop the entry)`,
			);

	const complete = rows.filter((row) => !row.partial);
	const sum = (list, of) => list.reduce((total, row) => total + of(row), 0);
	const detected = sum(complete, (row) => row.detected);
	const survived = sum(complete, (row) => row.survivors.length);
	const partialCount = rows.length - complete.length;
	const count = (value) => value.toLocaleString('en-US');
	const total = `${partialCount === 0 ? 'All modules' : `The ${complete.length} modules with every result (${partialCount} partial left out)`}: ${percent((100 * detected) / Math.max(1, detected + survived))} killed (${count(detected)} killed, ${count(survived)} survived, ${count(sum(complete, (row) => row.equivalent))} equivalent by place and not counted; static mutants counted as any other, ${count(sum(complete, (row) => row.static))} of them not run yet: \`npm run mutation\` runs them).`;

	if (process.argv.includes('--markdown')) {
		printMarkdown(rows, files, total);
	} else {
		const width = Math.max(...rows.map((row) => row.file.length - NODES.length), 6);
		console.log(
			`${'module'.padEnd(width)}  score  goal  killed  survived  equivalent  static not run  errors  results${baseline ? '  changed' : ''}`,
		);
		for (const row of rows) {
			const results = row.partial
				? `partial ${files.get(row.file).mutants.length}/${row.made}`
				: 'all';
			console.log(
				`${row.file.replace(NODES, '').padEnd(width)}  ${row.score.toFixed(1).padStart(5)}  ${String(row.goal).padStart(4)}  ${String(row.detected).padStart(6)}  ${String(row.survivors.length).padStart(8)}  ${String(row.equivalent).padStart(10)}  ${String(row.static).padStart(14)}  ${String(row.errors).padStart(6)}  ${results.padStart(7)}${baseline ? `  ${row.changed ? 'yes' : ''}` : ''}`,
			);
		}
		console.log(total);
	}

	for (const note of notes) console.error(`note: ${note}`);
	if (failures.length > 0) {
		// On stderr: the table (stdout) stays a table, e.g. for --markdown.
		console.error(
			`\nmutation: ${failures.length} problem(s): kill each survivor with a test or list it in ${EQUIVALENT_FILE} with why; a listed mutant must be a survivor that a test reaches:`,
		);
		for (const failure of failures) console.error(`  ${failure}`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 2;
});
