// After a run of part of nodes/ (`npm run mutation -- --mutate <globs>`), or an interrupted one:
// Stryker writes only the modules, and the mutants, it got to into its incremental file
// (reports/mutation/stryker-incremental.json, built from mutation/results/ before the run:
// scripts/mutation-full.sh), so this puts back the results the file held before for every other
// module that still exists, and for the mutants of an unchanged module that the run did not report;
// scripts/mutation-results.js then splits it into the committed per-module files. The tests are one
// list per run, numbered in their order, and a mutant names the tests that covered or killed it by
// number: the kept mutants' numbers are translated through the tests' names, and a test that no
// longer exists is dropped from them (Stryker's incremental mode then re-tests what it can no
// longer vouch for). A full run that finishes replaces every module, so there is nothing to put
// back.
//
//   node scripts/mutation-merge.js <results file before the run> <results file Stryker wrote>
const fs = require('node:fs');
const path = require('node:path');

const [previousFile, currentFile] = process.argv.slice(2);
if (!previousFile || !currentFile) {
	console.error('usage: node scripts/mutation-merge.js <results before> <results written>');
	process.exit(2);
}
if (!fs.existsSync(previousFile)) process.exit(0);
const previous = JSON.parse(fs.readFileSync(previousFile, 'utf8'));
const current = JSON.parse(fs.readFileSync(currentFile, 'utf8'));

/** test id -> name, and name -> id, over every test file of a report. */
function testIndex(report) {
	const nameById = new Map();
	const idByName = new Map();
	for (const testFile of Object.values(report.testFiles ?? {})) {
		for (const test of testFile.tests) {
			nameById.set(test.id, test.name);
			idByName.set(test.name, test.id);
		}
	}
	return { nameById, idByName };
}

const testsBefore = testIndex(previous);
const testsNow = testIndex(current);
const translate = (ids) =>
	ids
		?.map((id) => testsNow.idByName.get(testsBefore.nameById.get(id)))
		.filter((id) => id !== undefined);

const withTestsOfNow = (mutant) => ({
	...mutant,
	coveredBy: translate(mutant.coveredBy),
	killedBy: translate(mutant.killedBy),
});
const placeOf = ({ mutatorName, replacement, location: { start, end } }) =>
	[mutatorName, replacement, start.line, start.column, end.line, end.column].join(' ');

const kept = [];
for (const [file, result] of Object.entries(previous.files ?? {})) {
	if (!fs.existsSync(path.resolve(file))) continue;
	const written = current.files[file];
	if (written === undefined) {
		current.files[file] = { ...result, mutants: result.mutants.map(withTestsOfNow) };
		kept.push(file);
		continue;
	}
	// An interrupted run reports only the mutants it got to: the others keep their earlier result,
	// where the source is the same.
	if (written.source !== result.source) continue;
	const reported = new Set(written.mutants.map(placeOf));
	const missing = result.mutants.filter((mutant) => !reported.has(placeOf(mutant)));
	if (missing.length === 0) continue;
	written.mutants.push(...missing.map(withTestsOfNow));
	kept.push(`${file} (${missing.length} mutants)`);
}
if (kept.length > 0) {
	current.files = Object.fromEntries(
		Object.entries(current.files).sort(([a], [b]) => a.localeCompare(b)),
	);
	fs.writeFileSync(currentFile, JSON.stringify(current, null, 2));
	console.log(`mutation: kept earlier results where this run gave none: ${kept.join(', ')}`);
}
