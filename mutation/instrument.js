// The mutants Stryker makes of a source, without running anything (its own instrumenter, as a run
// calls it, with no ignorer: a run makes the same mutants and marks the ignored ones): for the
// report (scripts/mutation-report.js) and the results' upkeep (scripts/mutation-results.js).
//
// A module's results may hold a mutant its recorded source does not make: Stryker's incremental
// mode keeps the result of an old mutant outside the part of a module a run mutated, at its place
// moved through the diff, and a place moved through an edit can land on text that makes no such
// mutant (a *ghost*: the committed results held 23, e.g. endpoints.ts's static mutants of a table
// that is now `as const`). A ghost is the result of no mutant: the report does not count it, and
// `scripts/mutation-results.js prune` drops it.

const QUIET = {
	debug() {},
	info() {},
	warn() {},
	error() {},
	trace() {},
	isDebugEnabled: () => false,
	isTraceEnabled: () => false,
};

/**
 * Every mutant Stryker's instrumenter makes of each source, with lines and columns from 1 as the
 * results hold them: sources (module -> text) -> module -> [{ mutatorName, replacement, location
 * }], in the instrumenter's order.
 */
async function mutantsOf(sources) {
	const byModule = new Map([...sources.keys()].map((name) => [name, []]));
	if (byModule.size === 0) return byModule;
	const { Instrumenter } = await import('@stryker-mutator/instrumenter');
	const inputs = [...sources].map(([name, content]) => ({ name, mutate: true, content }));
	const { mutants } = await new Instrumenter(QUIET).instrument(inputs, {
		plugins: null,
		excludedMutations: [],
		ignorers: [],
		noHeader: true,
	});
	const fromZero = ({ line, column }) => ({ line: line + 1, column: column + 1 });
	for (const { fileName, mutatorName, replacement, location } of mutants) {
		byModule.get(fileName).push({
			mutatorName,
			replacement,
			location: { start: fromZero(location.start), end: fromZero(location.end) },
		});
	}
	return byModule;
}

/** A mutant as Stryker tells mutants of one module apart: mutator, replacement and place. */
const exactKey = ({ mutatorName, replacement, location: { start, end } }) =>
	[mutatorName, replacement ?? '', start.line, start.column, end.line, end.column].join('\u0000');

/**
 * A module's recorded mutants split into those its source makes and the ghosts, given what the
 * source makes (mutantsOf's list for it).
 */
function withoutGhosts(recorded, made) {
	const real = new Set(made.map(exactKey));
	const mutants = [];
	const ghosts = [];
	for (const mutant of recorded) (real.has(exactKey(mutant)) ? mutants : ghosts).push(mutant);
	return { mutants, ghosts };
}

module.exports = { exactKey, mutantsOf, withoutGhosts };
