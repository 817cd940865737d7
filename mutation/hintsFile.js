'use strict';

// The killer-first planner's hints (killerFirst.mjs): which suite killed each mutant last time, and
// which survivors are listed as equivalent. stryker.config.mjs puts the file's path in this
// variable, so that Stryker's workers inherit it; the planner writes the file, every worker's
// bailEnvironment.js reads it.
const HINTS_VARIABLE = 'MUTATION_KILLER_HINTS';

module.exports = { HINTS_VARIABLE };
