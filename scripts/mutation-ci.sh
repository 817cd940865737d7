#!/usr/bin/env bash
# CI's mutation step (`npm run mutation:ci`), against the committed results file mutation/stryker-incremental.json
# (written by `npm run mutation`): only the modules whose source differs from the one that file recorded are
# mutated, in Stryker's incremental mode, so an unchanged tree runs no mutant and a change re-tests only the mutants
# of the code it changed (a mutant whose code and covering tests are unchanged keeps its result). Then the check
# (scripts/mutation-report.js --baseline): in a changed module, a survivor that was not one before and is not listed
# as equivalent, or a score under the goal, fails the step. A module the results file does not hold is not mutated
# here (a full run takes it in). Commit the rewritten results file with the change, so the next run starts there.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports/mutation
results=mutation/stryker-incremental.json
baseline=reports/mutation/baseline.json
if [ ! -f "$results" ]; then
  echo "mutation:ci: no $results yet (npm run mutation writes it); nothing to compare"
  exit 0
fi
cp "$results" "$baseline"
# The endpoint table gets no mutant from Stryker (`as const`); its hand mutants run when it changed since their record.
endpoints=nodes/InventoryOps/transport/endpoints.ts
if ! node -e 'const fs = require("node:fs"); process.exit(JSON.parse(fs.readFileSync(process.argv[1], "utf8")).source === fs.readFileSync(process.argv[2], "utf8") ? 0 : 1)' mutation/endpoints-results.json "$endpoints" 2>/dev/null; then
  echo "mutation:ci: $endpoints differs from mutation/endpoints-results.json: its hand mutants (npm run mutation:endpoints)"
  node scripts/mutation-endpoints.js
fi
modules=$(node -e '
  const fs = require("node:fs");
  const files = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).files ?? {};
  const sources = fs.readdirSync("nodes", { recursive: true }).map((name) => `nodes/${name}`).filter((file) => file.endsWith(".ts"));
  const changed = [];
  for (const file of sources) {
    if (file.endsWith("transport/endpoints.ts")) continue; // no Stryker mutant: checked above
    if (files[file] === undefined) console.error(`mutation:ci: ${file} is not in the results file yet: not mutated here`);
    else if (files[file].source !== fs.readFileSync(file, "utf8")) changed.push(file);
  }
  console.log(changed.join(","));
' "$baseline")
if [ -z "$modules" ]; then
  echo "mutation:ci: no module changed since the results file was written; no mutant to test"
else
  echo "mutation:ci: changed since the results file: $modules"
  start=$(date +%s)
  stryker run --mutate "$modules" --reporters progress-append-only,json
  echo "mutation:ci: Stryker finished in $(( $(date +%s) - start ))s"
  node scripts/mutation-report.js --baseline "$baseline"
fi
