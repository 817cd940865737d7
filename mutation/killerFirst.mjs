// A Stryker reporter plugin that only plans: before the mutant runs start, it writes what the last
// run (Stryker's incremental file as it stood before this run: built from the committed
// mutation/results/ by scripts/mutation-results.js) says of each mutant, and the mutant runs act on
// it (bailEnvironment.js, all.mutation.js):
// - the suite that killed it is loaded first. A mutant run stops at its first failing test, so a
// mutant the same suite
// kills again costs that suite, not every suite before it in the usual order: in the results before
// this, half the
// test time of a full run went to suites that ran before the one that killed. PIT's history does
// the same.
// - a mutant listed as equivalent (equivalent-mutants.tsv, by place: equivalents.js) runs no test
// when its module is
// the very source its results were made of and it survived there: it cannot be killed, and it was
// the dearest kind
// of mutant, running every test that covers it (a line every call passes: all of them). It is
// reported survived,
// as it would be. In a module changed since its results, every listed mutant runs (and the report
// checks that it
//   still survives); MUTATION_RUN_EQUIVALENTS=1 runs them all.
// Every other mutant (new code, a survivor not listed) runs as without this plugin.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const require = createRequire(import.meta.url);
const { placesOf, readEquivalent } = require('./equivalents.js');
const { HINTS_VARIABLE } = require('./hintsFile.js');

/**
 * A mutant's place: its module, mutator and replacement, the text of the line it starts on, its
 * column, and which of the module's lines with that same text it is on. Lines, not line numbers: a
 * module edited above a mutant keeps its hint. `line` and `column` count from 1, as the results
 * file does.
 */
function placeOf(file, lines, { mutatorName, replacement }, line, column) {
	const text = lines[line - 1] ?? '';
	let same = 0;
	for (let before = 0; before < line - 1; before++) if (lines[before] === text) same++;
	return [file, mutatorName, replacement, text, column, same].join('\u0000');
}

/**
 * A mutant exactly as Stryker matches it in one source: module, mutator, replacement and location.
 */
const exactly = (file, { mutatorName, replacement }, { start, end }) =>
	[file, mutatorName, replacement, start.line, start.column, end.line, end.column].join('\u0000');

/**
 * From the last results: the suite of the test that killed each mutant, each module's source, and
 * the listed equivalents (`listed`, may be empty) that survived there, as `exactly` names them.
 */
function lastRun(resultsFile, listed) {
	const suites = new Map();
	const sources = new Map();
	const listedSurvivors = new Set();
	let results;
	try {
		results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	} catch {
		return { suites, sources, listedSurvivors };
	}
	const testNames = new Map();
	for (const { tests } of Object.values(results.testFiles ?? {}))
		for (const test of tests) testNames.set(test.id, test.name);
	for (const [name, { source, mutants }] of Object.entries(results.files ?? {})) {
		const file = path.relative(process.cwd(), path.resolve(name)).split(path.sep).join('/');
		sources.set(file, source);
		const lines = source.split('\n');
		for (const mutant of mutants) {
			const { line, column } = mutant.location.start;
			const killer = testNames.get(mutant.killedBy?.[0]);
			// all.mutation.js names each describe after its test file: a test's name starts with its
			// suite.
			if (mutant.status === 'Killed' && killer)
				suites.set(placeOf(file, lines, mutant, line, column), killer.split(' ')[0]);
		}
		const keys = new Set(listed.filter((entry) => entry.file === file).map((entry) => entry.key));
		if (keys.size === 0) continue;
		placesOf(file, source, mutants).forEach((place, index) => {
			const mutant = mutants[index];
			if (keys.has(place.key) && mutant.status === 'Survived')
				listedSurvivors.add(exactly(file, mutant, mutant.location));
		});
	}
	return { suites, sources, listedSurvivors };
}

/** Stryker's plan counts lines and columns from 0, its results file from 1. */
const fromOne = ({ start, end }) => ({
	start: { line: start.line + 1, column: start.column + 1 },
	end: { line: end.line + 1, column: end.column + 1 },
});

class KillerFirst {
	static inject = [commonTokens.options];

	constructor(options) {
		this.last = lastRun(
			path.resolve(options.incrementalFile),
			process.env.MUTATION_RUN_EQUIVALENTS === '1' ? [] : readEquivalent(),
		);
	}

	onMutationTestingPlanReady({ mutantPlans }) {
		const hints = { firstSuite: {}, listedEquivalent: [] };
		const sources = new Map();
		for (const { plan, mutant } of mutantPlans) {
			if (plan !== 'Run') continue;
			const file = path.relative(process.cwd(), mutant.fileName).split(path.sep).join('/');
			if (!sources.has(file)) sources.set(file, fs.readFileSync(mutant.fileName, 'utf8'));
			const source = sources.get(file);
			const location = fromOne(mutant.location);
			const suite = this.last.suites.get(
				placeOf(file, source.split('\n'), mutant, location.start.line, location.start.column),
			);
			if (suite) hints.firstSuite[mutant.id] = suite;
			// Only in the very source its results were made of: in a changed module, a listed mutant runs
			// again.
			else if (
				this.last.sources.get(file) === source &&
				this.last.listedSurvivors.has(exactly(file, mutant, location))
			) {
				hints.listedEquivalent.push(mutant.id);
			}
		}
		const file = process.env[HINTS_VARIABLE];
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(hints));
	}
}

export const strykerPlugins = [
	declareClassPlugin(PluginKind.Reporter, 'killer-first', KillerFirst),
];
