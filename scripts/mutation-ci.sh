#!/usr/bin/env bash
# CI's mutation step (`npm run mutation:ci`), against the committed results (mutation/results/, one file per module
# of nodes/, written by `npm run mutation` and by this step): only the modules whose source differs from the one
# their results record, and the modules with no results yet, are mutated, in Stryker's incremental mode, so an
# unchanged tree runs no mutant and a change re-tests only the mutants of the code it changed (a mutant whose code
# and covering tests are unchanged keeps its result). Stryker reads and writes one incremental file
# (reports/mutation/stryker-incremental.json, not committed): built from mutation/results/ before the run, split back
# into it after (scripts/mutation-results.js). In a changed module the mutants listed as equivalent run again too
# (their results are dropped from Stryker's file first: `rerun-listed`), and must still survive. Static mutants are
# left out here (`npm run mutation` runs them). Then the check (scripts/mutation-report.js --baseline): in a changed
# or new module, a survivor that was not one before and is not listed as equivalent, or a score under the goal, fails
# the step; so does an entry of the list that names no mutant, or one that is killed or that no test reaches. Commit
# the rewritten results files with the change (only the re-tested modules' files change), so the next run starts
# there. After a change of layout only (a reformat), `node scripts/mutation-results.js rekey` moves the results to
# the new layout first, so that no module reads as changed.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports/mutation
results=reports/mutation/stryker-incremental.json
baseline=reports/mutation/baseline.json
node scripts/mutation-results.js merge --out "$results"
cp "$results" "$baseline"
# The endpoint table gets no mutant from Stryker (`as const`); its hand mutants run when it changed since their record.
endpoints=nodes/InventoryOps/transport/endpoints.ts
if ! node -e 'const fs = require("node:fs"); process.exit(JSON.parse(fs.readFileSync(process.argv[1], "utf8")).source === fs.readFileSync(process.argv[2], "utf8") ? 0 : 1)' mutation/endpoints-results.json "$endpoints" 2>/dev/null; then
  echo "mutation:ci: $endpoints differs from mutation/endpoints-results.json: its hand mutants (npm run mutation:endpoints)"
  node scripts/mutation-endpoints.js
fi
# Changed modules, and modules with no results file yet (a new module is mutated here, not left to a full run).
modules=$(node scripts/mutation-results.js changed)
if [ -z "$modules" ]; then
  echo "mutation:ci: no module changed since its results were written; no mutant to test"
else
  echo "mutation:ci: changed since their results, or without results: $modules"
  node scripts/mutation-results.js rerun-listed --in "$results"
  start=$(date +%s)
  stryker run --mutate "$modules" --reporters progress-append-only,json
  echo "mutation:ci: Stryker finished in $(( $(date +%s) - start ))s"
  node scripts/mutation-results.js split --from "$results"
  node scripts/mutation-report.js --baseline "$baseline"
fi
