// A Stryker reporter plugin that only plans: before the mutant runs start, it writes what the last run (Stryker's
// incremental file as it stood before this run: built from the committed mutation/results/ by
// scripts/mutation-results.js) says of each mutant, and the mutant runs act on it (bailEnvironment.js,
// all.mutation.js):
// - the suite that killed it is loaded first. A mutant run stops at its first failing test, so a mutant the same suite
//   kills again costs that suite, not every suite before it in the usual order: in the results before this, half the
//   test time of a full run went to suites that ran before the one that killed. PIT's history does the same.
// - a survivor listed as equivalent (equivalent-mutants.tsv) runs no test: it cannot be killed, and it was the
//   dearest kind of mutant, running every test that covers it (a line every call passes: all of them). It is
//   reported survived, as it would be; MUTATION_RUN_EQUIVALENTS=1 runs their tests too. Only a mutant that survived
//   at the same place last time is skipped: a mutant of the same text elsewhere (an entry covers those too) runs.
// Every other mutant (new code, a survivor not listed) runs as without this plugin.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const require = createRequire(import.meta.url);
const { keyOf, readEquivalent } = require('./equivalents.js');
const { HINTS_VARIABLE } = require('./hintsFile.js');

/**
 * A mutant's place: its module, mutator and replacement, the text of the line it starts on, its column, and which of
 * the module's lines with that same text it is on. Lines, not line numbers: a module edited above a mutant keeps
 * its hint. `line` and `column` count from 1, as the results file does.
 */
function placeOf(file, lines, { mutatorName, replacement }, line, column) {
	const text = lines[line - 1] ?? '';
	let same = 0;
	for (let before = 0; before < line - 1; before++) if (lines[before] === text) same++;
	return [file, mutatorName, replacement, text, column, same].join('\u0000');
}

/** From the last results: the suite of the test that killed each mutant, and the places of the survivors. */
function lastRun(resultsFile) {
	const suites = new Map();
	const survivors = new Set();
	let results;
	try {
		results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	} catch {
		return { suites, survivors };
	}
	const testNames = new Map();
	for (const { tests } of Object.values(results.testFiles ?? {})) for (const test of tests) testNames.set(test.id, test.name);
	for (const [file, { source, mutants }] of Object.entries(results.files ?? {})) {
		const lines = source.split('\n');
		for (const mutant of mutants) {
			const { line, column } = mutant.location.start;
			const place = placeOf(file, lines, mutant, line, column);
			if (mutant.status === 'Survived') survivors.add(place);
			const killer = testNames.get(mutant.killedBy?.[0]);
			// all.mutation.js names each describe after its test file: a test's name starts with its suite.
			if (mutant.status === 'Killed' && killer) suites.set(place, killer.split(' ')[0]);
		}
	}
	return { suites, survivors };
}

/** Stryker's plan counts lines and columns from 0, its results file from 1. */
const fromOne = ({ start, end }) => ({
	start: { line: start.line + 1, column: start.column + 1 },
	end: { line: end.line + 1, column: end.column + 1 },
});

class KillerFirst {
	static inject = [commonTokens.options];

	constructor(options) {
		this.last = lastRun(path.resolve(options.incrementalFile));
		this.equivalent = process.env.MUTATION_RUN_EQUIVALENTS === '1' ? new Map() : readEquivalent();
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
			const place = placeOf(file, source.split('\n'), mutant, location.start.line, location.start.column);
			const suite = this.last.suites.get(place);
			if (suite) hints.firstSuite[mutant.id] = suite;
			else if (this.last.survivors.has(place) && this.equivalent.has(keyOf(file, { ...mutant, location }, source))) {
				hints.listedEquivalent.push(mutant.id);
			}
		}
		const file = process.env[HINTS_VARIABLE];
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(hints));
	}
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'killer-first', KillerFirst)];
