// After a run of part of nodes/ (`npm run mutation -- --mutate <globs>`): Stryker writes only the modules it
// mutated into test/mutation/stryker-incremental.json, so this puts back the results the file held before for every
// other module that still exists. The tests are one list per run, numbered in their order, and a mutant names the
// tests that covered or killed it by number: the kept mutants' numbers are translated through the tests' names, and
// a test that no longer exists is dropped from them (Stryker's incremental mode then re-tests what it can no longer
// vouch for). A full run replaces every module, so there is nothing to put back.
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

const before = testIndex(previous);
const now = testIndex(current);
const translate = (ids) =>
	ids?.map((id) => now.idByName.get(before.nameById.get(id))).filter((id) => id !== undefined);

const kept = [];
for (const [file, result] of Object.entries(previous.files ?? {})) {
	if (current.files[file] !== undefined || !fs.existsSync(path.resolve(file))) continue;
	current.files[file] = {
		...result,
		mutants: result.mutants.map((mutant) => ({
			...mutant,
			coveredBy: translate(mutant.coveredBy),
			killedBy: translate(mutant.killedBy),
		})),
	};
	kept.push(file);
}
if (kept.length > 0) {
	current.files = Object.fromEntries(Object.entries(current.files).sort(([a], [b]) => a.localeCompare(b)));
	fs.writeFileSync(currentFile, JSON.stringify(current, null, 2));
	console.log(`mutation: kept the earlier results of ${kept.length} module(s) this run did not mutate`);
}
