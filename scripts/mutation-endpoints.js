'use strict';

// `npm run mutation:endpoints`: the mutants Stryker cannot make. The endpoint table
// (transport/endpoints.ts) is an object literal `as const`, and Stryker's instrumenter makes no
// mutant inside one, yet its fields decide whether a call may be repeated (`changesData`), which
// base URL it goes to, the shape its answer must have and how a bare `success: false` reads. Each
// field of each endpoint is set to its other value in the built file (dist/), the jest suites run
// with --bail (the transport's own first, then those of both nodes, which drive it over HTTP, when
// the first all pass), and the file is restored; a mutant no test fails is a survivor. Needs `npm
// run build` first; a mutant the first stage kills takes seconds, any other about 90 s on two
// cores. Exits 1 when one survives. A run of every mutant with none surviving writes
// mutation/endpoints-results.json (commit it): `npm run mutation:ci` runs this again when
// endpoints.ts no longer matches the source recorded there.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const FILE = path.join(ROOT, 'dist/nodes/InventoryOps/transport/endpoints.js');
const SOURCE = path.join(ROOT, 'nodes/InventoryOps/transport/endpoints.ts');
const RECORD = path.join(ROOT, 'mutation/endpoints-results.json');
const STAGES = [['test/transport'], ['test/actions', 'test/trigger', 'test/ai']];
const OTHER_VALUE = {
	'changesData: false': 'changesData: true',
	'changesData: true': 'changesData: false',
	"answer: 'list'": "answer: 'object'",
	"answer: 'object'": "answer: 'list'",
	"base: 'baseUrl'": "base: 'appBaseUrl'",
	"base: 'appBaseUrl'": "base: 'baseUrl'",
};
// E.g. `kitCreate` or `changesData`: only the mutants whose name holds it
const only = process.argv[2];

const original = fs.readFileSync(FILE, 'utf8');
const restore = () => fs.writeFileSync(FILE, original);
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		restore();
		process.exit(130);
	});
}

/** Every mutant: `{ name, source }`, the built file with one field of one endpoint changed. */
function mutants() {
	const list = [];
	for (const [, endpoint] of original.matchAll(/^ {4}(\w+): \{/gm)) {
		const start = original.indexOf(`${endpoint}: {`);
		const end = original.indexOf('}', start);
		const block = original.slice(start, end);
		for (const [from, to] of Object.entries(OTHER_VALUE)) {
			if (!block.includes(from)) continue;
			list.push({
				name: `${endpoint} ${from} -> ${to}`,
				source: original.slice(0, start) + block.replace(from, to) + original.slice(end),
			});
		}
	}
	return list;
}

/** The first failing test of a jest --json report, or '' when none failed. */
function firstFailure(reportFile) {
	try {
		const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
		const failed = report.testResults.flatMap((suite) =>
			suite.assertionResults
				.filter((test) => test.status === 'failed')
				.map((test) => `${path.relative(ROOT, suite.name)}: ${test.title}`),
		);
		return failed[0] ?? '';
	} catch {
		return '';
	}
}

/**
 * The first test of `suites` that fails on the file as it is now, '' if one failed unnamed,
 * undefined if none.
 */
function killerIn(suites) {
	const run = spawnSync(
		'npx',
		['jest', '--bail=1', '--json', `--outputFile=${reportFile}`, ...suites],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	return run.status === 0 ? undefined : firstFailure(reportFile);
}

const reportFile = path.join(ROOT, 'reports/mutation/endpoints-jest.json');
const selected = mutants().filter((mutant) => !only || mutant.name.includes(only));
if (selected.length === 0)
	throw new Error(
		`no mutant of ${path.relative(ROOT, FILE)} matches ${only}: is the package built?`,
	);
fs.mkdirSync(path.dirname(reportFile), { recursive: true });
const results = [];
try {
	for (const mutant of selected) {
		fs.writeFileSync(FILE, mutant.source);
		const started = Date.now();
		const killer = STAGES.reduce((found, suites) => found ?? killerIn(suites), undefined);
		const result = {
			mutant: mutant.name,
			killed: killer !== undefined,
			killer: killer ?? '',
			seconds: Math.round((Date.now() - started) / 1000),
		};
		results.push(result);
		process.stdout.write(
			`${result.killed ? 'killed  ' : 'SURVIVED'} ${String(result.seconds).padStart(4)} s  ${result.mutant}${result.killer ? `  (${result.killer})` : ''}\n`,
		);
	}
} finally {
	restore();
}
fs.writeFileSync(
	path.join(ROOT, 'reports/mutation/endpoints.json'),
	`${JSON.stringify(results, null, 2)}\n`,
);
const survived = results.filter((result) => !result.killed).length;
if (!only && survived === 0) {
	const record = {
		source: fs.readFileSync(SOURCE, 'utf8'),
		results: results.map(({ mutant, killer }) => ({ mutant, killer })),
	};
	fs.writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
}
process.stdout.write(
	`mutation:endpoints: ${results.length - survived} killed, ${survived} survived\n`,
);
process.exitCode = survived === 0 ? 0 : 1;
