// Prints the totals of every jest --json report given, as the single plain line CI reads: "N
// passed, N failed". A suite that crashed before running its tests counts as one failure, so a
// broken file can never pass silently. The line before it says which slice of `npm run test:all`
// ran and the times (reports/test-all.txt, written by scripts/test-all.sh), so a reader of the last
// two lines knows what this run proved.
const fs = require('node:fs');

let passed = 0;
let failed = 0;
let reports = 0;
const files = process.argv.slice(2).filter((file) => fs.existsSync(file));
for (const file of files) {
	const report = JSON.parse(fs.readFileSync(file, 'utf8'));
	// Not a jest report (other tools write to reports/ too)
	if (!Array.isArray(report.testResults)) continue;
	reports++;
	passed += report.numPassedTests;
	failed += report.numFailedTests;
	for (const suite of report.testResults) {
		if (suite.status === 'failed' && suite.assertionResults.length === 0) failed += 1;
	}
}
if (reports === 0) failed += 1;
const slice = require('node:path').join(__dirname, '..', 'reports', 'test-all.txt');
if (fs.existsSync(slice)) console.log(fs.readFileSync(slice, 'utf8').trim());
console.log(`${passed} passed, ${failed} failed`);
