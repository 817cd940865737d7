// A Stryker reporter plugin that only plans: before the mutant runs start, it writes which suite killed each mutant
// in the last run (the results file as it stood before this run), so that this run loads that suite first
// (all.mutation.js). A mutant run stops at its first failing test (bailEnvironment.js), so a mutant the same suite
// kills again costs that suite, not every suite before it in the usual order: the last full run spent half its test
// time in suites that ran before the one that killed. PIT's history does the same. No result depends on it: every
// covering test still runs for a mutant no test kills, and a mutant without a hint (new code, a survivor) keeps the
// usual order.
import fs from 'node:fs';
import path from 'node:path';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** Where the hints go; stryker.config.mjs sets it (its workers inherit the variable), bailEnvironment.js reads it. */
export const HINTS_VARIABLE = 'MUTATION_KILLER_HINTS';

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

/** The suite (all.mutation.js names each describe after its test file) of the test that killed each mutant. */
function killerSuites(resultsFile) {
	let results;
	try {
		results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	} catch {
		return new Map();
	}
	const testNames = new Map();
	for (const { tests } of Object.values(results.testFiles ?? {})) for (const test of tests) testNames.set(test.id, test.name);
	const suites = new Map();
	for (const [file, { source, mutants }] of Object.entries(results.files ?? {})) {
		const lines = source.split('\n');
		for (const mutant of mutants) {
			const killer = testNames.get(mutant.killedBy?.[0]);
			if (mutant.status !== 'Killed' || !killer) continue;
			const { line, column } = mutant.location.start;
			suites.set(placeOf(file, lines, mutant, line, column), killer.split(' ')[0]);
		}
	}
	return suites;
}

class KillerFirst {
	static inject = [commonTokens.options];

	constructor(options) {
		this.suites = killerSuites(path.resolve(options.incrementalFile));
	}

	onMutationTestingPlanReady({ mutantPlans }) {
		const hints = {};
		const sources = new Map();
		for (const { plan, mutant } of mutantPlans) {
			if (plan !== 'Run') continue;
			const file = path.relative(process.cwd(), mutant.fileName).split(path.sep).join('/');
			if (!sources.has(file)) sources.set(file, fs.readFileSync(mutant.fileName, 'utf8').split('\n'));
			// Stryker's plan counts lines and columns from 0, its results file from 1.
			const { line, column } = mutant.location.start;
			const suite = this.suites.get(placeOf(file, sources.get(file), mutant, line + 1, column + 1));
			if (suite) hints[mutant.id] = suite;
		}
		const file = process.env[HINTS_VARIABLE];
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(hints));
	}
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'killer-first', KillerFirst)];
