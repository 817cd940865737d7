#!/usr/bin/env bash
# CI's mutation step (`npm run mutation:ci`): Stryker in incremental mode against the committed results file
# (test/mutation/stryker-incremental.json), so an unchanged tree re-tests no mutant and a change re-tests only the
# mutants of the code it changed (and those whose covering tests changed); then the per-module check: a module
# whose source changed must have no new survivor that is not listed as equivalent, and must meet its goal.
# Commit the updated results file with the change (`npm run mutation:ci` rewrites it), so the next run starts there.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports/mutation
baseline=reports/mutation/baseline.json
cp test/mutation/stryker-incremental.json "$baseline" 2>/dev/null || echo '{"files":{}}' > "$baseline"
start=$(date +%s)
stryker run --reporters progress-append-only,json
echo "mutation:ci: Stryker finished in $(( $(date +%s) - start ))s"
node scripts/mutation-report.js --baseline "$baseline"
