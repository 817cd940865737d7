#!/usr/bin/env bash
# Everything CI proves, in one command (`npm run test:all`): the unit and integration suite (`npm test`), the
# end-to-end suite in real n8n hosts 1.x and 2.x (`npm run e2e`), and a small benchmark run that checks the three
# lookup paths still agree (`npm run bench:smoke`). Installing the n8n hosts is the slowest step (sqlite3 compiles),
# so it starts in the background while `npm test` (and the node suites against the other sandbox profiles,
# `npm run jest:profiles`) runs. The e2e suite runs each host line against one sandbox profile (1.x gateway, 2.x
# documented); the nightly run swaps them (.github/workflows/e2e-profiles-nightly.yml). The queue-mode suite
# (`npm run e2e:queue`, ~10 min) runs nightly too (.github/workflows/queue-nightly.yml).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports

npm run e2e:install > reports/e2e-install.log 2>&1 &
install_pid=$!

status=0
npm test || status=1
npm run jest:profiles || status=1
wait "$install_pid" || echo "test-all: e2e:install failed (npm run e2e tries again); see reports/e2e-install.log"
npm run e2e || status=1
npm run bench:smoke || status=1
exit $status
