// The committed mutation results (mutation/results/, one file per module: mutation/resultsStore.js) and Stryker's
// incremental file (reports/mutation/stryker-incremental.json, stryker.config.mjs), one into the other:
//
//   node scripts/mutation-results.js merge [--out <file>]   the store -> Stryker's file (before a run)
//   node scripts/mutation-results.js split [--from <file>]  Stryker's file -> the store (after a run): each module
//                                                           it holds; a module it does not hold keeps its file,
//                                                           unless the module is gone
//   node scripts/mutation-results.js changed                the modules of nodes/ to mutate in incremental mode
//                                                           (`npm run mutation:ci`), comma-separated: those whose
//                                                           source differs from the recorded one, and those with
//                                                           no results yet
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const store = require('../mutation/resultsStore');

// The endpoint table gets no mutant from Stryker (`as const`): its hand mutants (scripts/mutation-endpoints.js,
// mutation/endpoints-results.json) stand for it.
const HAND_MUTATED = new Set(['nodes/InventoryOps/transport/endpoints.ts']);

function argument(name, fallback) {
	const index = process.argv.indexOf(name);
	return index === -1 ? fallback : process.argv[index + 1];
}

/** How many mutants Stryker's instrumenter makes of each module (as scripts/mutation-report.js counts them). */
async function mutantCounts(files) {
	const { Instrumenter } = await import('@stryker-mutator/instrumenter');
	const quiet = { debug() {}, info() {}, warn() {}, error() {}, trace() {}, isDebugEnabled: () => false, isTraceEnabled: () => false };
	const inputs = files.map((name) => ({ name, mutate: true, content: fs.readFileSync(path.join(ROOT, name), 'utf8') }));
	const { mutants } = await new Instrumenter(quiet).instrument(inputs, { plugins: null, excludedMutations: [], ignorers: [], noHeader: true });
	const counts = new Map(files.map((name) => [name, 0]));
	for (const mutant of mutants) counts.set(mutant.fileName, counts.get(mutant.fileName) + 1);
	return counts;
}

async function changedModules() {
	const recorded = store.recordedSources();
	const sources = fs
		.readdirSync(path.join(ROOT, 'nodes'), { recursive: true })
		.map((name) => `nodes/${name.split(path.sep).join('/')}`)
		.filter((file) => file.endsWith('.ts'))
		.sort();
	const changed = [];
	for (const file of sources) {
		if (HAND_MUTATED.has(file)) continue;
		const source = recorded.get(file);
		if (source === undefined) {
			console.error(`mutation: ${file} has no results yet (mutation/results/${store.resultsPathOf(file)}): mutated`);
			changed.push(file);
		} else if (source !== fs.readFileSync(path.join(ROOT, file), 'utf8')) changed.push(file);
	}
	// A module Stryker makes no mutant of (types only) gets no results from a run: it would be mutated again by
	// every run, each paying for a run of all suites.
	const counts = changed.length === 0 ? new Map() : await mutantCounts(changed);
	return changed.filter((file) => {
		if (counts.get(file) !== 0) return true;
		console.error(`mutation: ${file} makes no mutant: nothing to mutate`);
		return false;
	});
}

const command = process.argv[2];
if (command === 'merge') {
	const out = path.resolve(ROOT, argument('--out', store.INCREMENTAL_FILE));
	const report = store.readStoreAsReport();
	fs.mkdirSync(path.dirname(out), { recursive: true });
	fs.writeFileSync(out, JSON.stringify(report));
	const mutants = Object.values(report.files).reduce((sum, { mutants }) => sum + mutants.length, 0);
	console.log(`mutation: ${path.relative(ROOT, out)} from mutation/results/ (${Object.keys(report.files).length} modules, ${mutants} mutants)`);
} else if (command === 'split') {
	const from = path.resolve(ROOT, argument('--from', store.INCREMENTAL_FILE));
	if (!fs.existsSync(from)) {
		console.error(`mutation: no ${path.relative(ROOT, from)} to split`);
		process.exit(1);
	}
	const { written, removed } = store.writeStore(JSON.parse(fs.readFileSync(from, 'utf8')));
	const names = (list) => list.map((name) => name.replace(/\.json$/, '')).join(', ');
	console.log(`mutation: results written to mutation/results/: ${written.length === 0 ? 'none changed' : names(written)}`);
	if (removed.length > 0) console.log(`mutation: results removed of modules that are gone: ${names(removed)}`);
} else if (command === 'changed') {
	changedModules().then(
		(modules) => console.log(modules.join(',')),
		(error) => {
			console.error(error);
			process.exitCode = 1;
		},
	);
} else {
	console.error('usage: node scripts/mutation-results.js merge [--out <file>] | split [--from <file>] | changed');
	process.exit(2);
}
