#!/usr/bin/env bash
# `npm run mutation`: every mutant of nodes/ again (Stryker --force, which also rewrites the committed results
# file mutation/stryker-incremental.json), then the score of every module (scripts/mutation-report.js).
# Uses both cores for hours on the 2-core machine: on a shared machine run it under the shared lock. Arguments go to
# Stryker, e.g. `npm run mutation -- --mutate 'nodes/InventoryOps/trigger/**/*.ts'` (a part: the results file keeps
# every other module's earlier results, scripts/mutation-merge.js) or, with MUTATION_STATIC=1, the static mutants too. Interrupted
# (Ctrl-C), Stryker saves what it finished; MUTATION_FORCE=0 runs without --force (Stryker's incremental mode: only
# mutants without a result, or whose code or covering tests changed), so it goes on from there.
set -uo pipefail
cd "$(dirname "$0")/.."
results=mutation/stryker-incremental.json
previous=reports/mutation/results-before-run.json
mkdir -p reports/mutation
rm -f "$previous"
[ -f "$results" ] && cp "$results" "$previous"
start=$(date +%s)
force=--force
[ "${MUTATION_FORCE:-1}" = 0 ] && force=
stryker run $force "$@"
status=$?
node scripts/mutation-merge.js "$previous" "$results"
[ "$status" = 0 ] || exit "$status"
echo "mutation: Stryker finished in $(( $(date +%s) - start ))s"
node scripts/mutation-report.js
