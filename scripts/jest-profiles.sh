#!/usr/bin/env bash
# The node suites (actions, the transport suites that read answers and failures, trigger, credential, AI tool) against every sandbox profile but the default one, which
# `npm run jest` already covers: one jest run per profile with SANDBOX_PROFILE set, each writing
# reports/jest-profile-<name>.json. `npm run jest:profiles [-- <profile>...]` runs chosen profiles only.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
if [ $# -gt 0 ]; then
  profiles="$*"
else
  profiles=$(node -e "const p=require('./sandbox/profiles'); console.log(Object.keys(p.PROFILES).filter((n)=>n!==p.DEFAULT_PROFILE).join(' '))")
fi
status=0
for profile in $profiles; do
  echo "jest:profiles: SANDBOX_PROFILE=$profile"
  SANDBOX_PROFILE=$profile npx jest test/actions test/trigger test/credential test/ai \
    test/transport/answers.shapes.test.js test/transport/answers.openPoints.test.js test/transport/errors.serviceFailures.test.js \
    --json --outputFile="reports/jest-profile-$profile.json" || status=1
done
exit $status
