#!/usr/bin/env bash
# `npm run mutation`: every mutant of nodes/ again (Stryker --force), then the score of every module
# (scripts/mutation-report.js). Stryker reads and writes one incremental file (reports/mutation/stryker-incremental.json,
# not committed): it is built from the committed results (mutation/results/, one file per module) before the run
# and split back into them after it (scripts/mutation-results.js); commit the module files that changed.
# Static mutants run too (MUTATION_STATIC=1 for stryker.config.mjs; MUTATION_STATIC=0 leaves them out, as
# `mutation:ci` does). The mutants listed as equivalent run no test in a module unchanged since its results
# (mutation/killerFirst.mjs); in a changed one they run again (`rerun-listed` below, for MUTATION_FORCE=0) and the
# report checks that they still survive.
# Uses both cores for hours on the 2-core machine: on a shared machine run it under the shared lock. Arguments go to
# Stryker, e.g. `npm run mutation -- --mutate 'nodes/InventoryOps/trigger/**/*.ts'` (a part: every other module keeps
# its results file, and scripts/mutation-merge.js puts their results back into Stryker's file), or
# `--mutate "$(node scripts/mutation-results.js listed <module>)"` with MUTATION_RUN_EQUIVALENTS=1: the listed
# mutants of that module, every test that covers them. Interrupted (Ctrl-C), Stryker saves what it finished;
# MUTATION_FORCE=0 runs without --force (Stryker's incremental mode: only mutants without a result, or whose code or
# covering tests changed), so it goes on from there.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
results=reports/mutation/stryker-incremental.json
previous=reports/mutation/results-before-run.json
mkdir -p reports/mutation
node scripts/mutation-results.js merge --out "$results" || exit 1
cp "$results" "$previous"
# After the copy: scripts/mutation-merge.js puts a module the run did not reach back from the copy, whole.
node scripts/mutation-results.js rerun-listed --in "$results" || exit 1
export MUTATION_STATIC="${MUTATION_STATIC:-1}"
start=$(date +%s)
force=--force
[ "${MUTATION_FORCE:-1}" = 0 ] && force=
stryker run $force "$@"
status=$?
node scripts/mutation-merge.js "$previous" "$results"
node scripts/mutation-results.js split --from "$results" || exit 1
[ "$status" = 0 ] || exit "$status"
echo "mutation: Stryker finished in $(( $(date +%s) - start ))s"
node scripts/mutation-report.js
