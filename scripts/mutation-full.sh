#!/usr/bin/env bash
# `npm run mutation`: every mutant of nodes/ again (Stryker --force, which also rewrites the committed results
# file test/mutation/stryker-incremental.json), then the score of every module (scripts/mutation-report.js).
# Uses both cores for over an hour: on a shared machine run it under the shared lock. Arguments go to Stryker,
# e.g. `npm run mutation -- --mutate nodes/InventoryOps/trigger/lifecycle.ts` or `-- --ignoreStatic false`.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stryker run --force "$@" || exit $?
echo "mutation: Stryker finished in $(( $(date +%s) - start ))s"
node scripts/mutation-report.js
