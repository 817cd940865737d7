#!/usr/bin/env bash
# CI's mutation step (`npm run mutation:ci`): Stryker in incremental mode against the committed results file
# (test/mutation/stryker-incremental.json), so an unchanged tree re-tests no mutant and a change re-tests only the
# mutants of the code it changed (and those whose covering tests changed); then the per-module check: a module
# whose source changed must have no new survivor that is not listed as equivalent, and must meet its goal.
# Only modules the results file holds are mutated: one it does not hold yet needs a full run first
# (`npm run mutation`), or CI would pay for it. Commit the updated results file with the change, so the next run
# starts from there.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports/mutation
results=test/mutation/stryker-incremental.json
baseline=reports/mutation/baseline.json
if [ ! -f "$results" ]; then
  echo "mutation:ci: no $results yet (run npm run mutation once and commit it); nothing to compare"
  exit 0
fi
cp "$results" "$baseline"
modules=$(node -e '
  const fs = require("node:fs");
  const held = Object.keys(JSON.parse(fs.readFileSync(process.argv[1], "utf8")).files ?? {});
  const onDisk = held.filter((file) => file.startsWith("nodes/") && fs.existsSync(file));
  const sources = fs.readdirSync("nodes", { recursive: true }).map((name) => `nodes/${name}`).filter((file) => file.endsWith(".ts"));
  for (const file of sources) {
    if (!held.includes(file) && !file.endsWith("node.type.ts")) console.error(`mutation:ci: ${file} is not in the results file yet: not mutated here`);
  }
  console.log(onDisk.join(","));
' "$baseline")
start=$(date +%s)
stryker run --mutate "$modules" --reporters progress-append-only,json
echo "mutation:ci: Stryker finished in $(( $(date +%s) - start ))s"
node scripts/mutation-report.js --baseline "$baseline"
