#!/usr/bin/env bash
# Everything CI proves, in one command (`npm run test:all`, what .ci/run runs): the core on every run, plus one
# slice of the longer suites, chosen in rotation from the commit.
#
# Core: the unit and integration suite (`npm test`), the incremental mutation step (`npm run mutation:ci`,
# mutation/README.md), the node suites under the other sandbox profiles
# (`npm run jest:profiles`), the end-to-end suite in real n8n 1.x and 2.x (`npm run e2e`), the release rehearsal
# (`npm run release:rehearse`, scripts/release.mjs: the guard, a fresh build from `git archive`, the pack test and
# n8n's scanner on that tarball, its publish to a local registry, and the installer suite installing it through n8n
# on 1.x and 2.x), and a small benchmark run that checks the three lookup paths still agree (`npm run bench:smoke`).
# Installing the n8n hosts is the slowest step (sqlite3 compiles), so it starts in the background while `npm test`
# runs. RELEASE_TARBALL=<file> (release.yml) makes the rehearsal verify and install that tarball instead of its own
# build.
#
# Slices (CONTRIBUTING.md "Testing" gives their times):
#   swapped     the e2e suite with the sandbox profiles swapped between the lines (e2e/run.js)
#   oldest      the oldest supported n8n, 1.99.1 (e2e/hosts/1.99): the e2e suite, and the rehearsal on it (CONTRIBUTING's
#               install from a clone, of the tarball; n8n 1.99.1 has no test mode for the installer)
#   queue       n8n queue mode on PostgreSQL + Redis (`npm run e2e:queue`, e2e/queue/README.md)
#   properties  the property suites with 1,000 runs and a fresh seed, and the long rate-limit tests (LONG_TESTS=1)
# The slice is the commit hash modulo the number of slices, so consecutive commits walk through all of them.
#
# Options: --slice <name> (or TEST_ALL_SLICE=<name>) runs that slice instead of the rotation's; --slice all runs
# every slice (`npm run test:everything`, for a release); --no-core runs the slice alone (while developing one).
# Which slice ran, and the times, go to reports/test-all.txt, which scripts/jest-totals.js prints next to the totals.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
mkdir -p reports

SLICES=(swapped oldest queue properties)
slice=${TEST_ALL_SLICE:-}
core=1
while [ $# -gt 0 ]; do
  case "$1" in
    --slice) slice=${2:-}; shift 2 ;;
    --slice=*) slice=${1#--slice=}; shift ;;
    --no-core) core=0; shift ;;
    *) echo "test-all: unknown argument $1 (use --slice <name>|all, --no-core)" >&2; exit 2 ;;
  esac
done

if [ -n "$slice" ]; then
  why="chosen with --slice/TEST_ALL_SLICE"
else
  commit=$(git rev-parse HEAD 2>/dev/null || true)
  if [ -n "$commit" ]; then
    index=$(( 16#${commit:0:8} % ${#SLICES[@]} ))
    why="rotation: commit ${commit:0:7}, 0x${commit:0:8} mod ${#SLICES[@]} = $index"
  else
    index=0
    why="rotation: no git commit here, first slice"
  fi
  slice=${SLICES[$index]}
fi
if [ "$slice" = all ]; then
  chosen=("${SLICES[@]}")
elif [[ " ${SLICES[*]} " == *" $slice "* ]]; then
  chosen=("$slice")
else
  echo "test-all: unknown slice '$slice' (slices: ${SLICES[*]}, all)" >&2
  exit 2
fi
echo "test-all: slice ${chosen[*]} ($why)"

# What the chosen suites need from the machine besides Node, installed from Debian here, once, before anything runs
# in parallel (scripts/system-packages.sh: as root, waiting for apt's lock; otherwise it names what is missing and
# the run goes on, to fail where that is needed). PostgreSQL and Redis only when the queue slice runs.
needs=()
[ "$core" = 1 ] && needs+=(lint build browser)
[[ " ${chosen[*]} " == *" swapped "* || " ${chosen[*]} " == *" oldest "* ]] && needs+=(build browser)
[[ " ${chosen[*]} " == *" queue "* ]] && needs+=(build queue)
if [ ${#needs[@]} -gt 0 ]; then
  bash scripts/system-packages.sh "${needs[@]}" || echo "test-all: going on without them; what needs them will fail"
fi

# Host lines the run needs: the per-push ones for the core, and 1.99 for the oldest slice.
hosts=()
[ "$core" = 1 ] && hosts+=(1.x 2.x)
[[ " ${chosen[*]} " == *" swapped "* ]] && hosts+=(1.x 2.x)
[[ " ${chosen[*]} " == *" queue "* ]] && hosts+=(2.x)
[[ " ${chosen[*]} " == *" oldest "* ]] && hosts+=('1.99')
hosts=($(printf '%s\n' "${hosts[@]}" | sort -u))

install_pid=
if [ ${#hosts[@]} -gt 0 ]; then
  npm run e2e:install -- "${hosts[@]}" > reports/e2e-install.log 2>&1 &
  install_pid=$!
fi
wait_for_hosts() {
  [ -n "$install_pid" ] || return 0
  wait "$install_pid" || echo "test-all: e2e:install failed (npm run e2e tries again); see reports/e2e-install.log"
  install_pid=
}

run_slice() {
  case "$1" in
    swapped)
      E2E_SANDBOX_PROFILES=swapped npm run e2e -- 1.x 2.x ;;
    oldest)
      # The tarball of this run's rehearsal (release/, which the rehearsal empties before it builds) when the core
      # ran; alone, the rehearsal builds one.
      local tarball=${RELEASE_TARBALL:-}
      local built=(release/*.tgz)
      [ -z "$tarball" ] && [ "$core" = 1 ] && [ -e "${built[0]}" ] && tarball=${built[0]}
      local result=0
      npm run e2e -- 1.99 || result=1
      RELEASE_TARBALL=$tarball npm run release:rehearse -- 1.99 || result=1
      return $result ;;
    queue)
      npm run e2e:queue ;;
    properties)
      # A fresh seed every run, printed so that a failure can be repeated; PROPERTY_SEED=<seed> repeats one.
      local seed=${PROPERTY_SEED:-$(( (RANDOM << 15 | RANDOM) + 1 ))}
      local result=0
      echo "test-all: property suites, PROPERTY_RUNS=1000 PROPERTY_SEED=$seed (repeat: PROPERTY_RUNS=1000 PROPERTY_SEED=$seed npm run properties:long)"
      PROPERTY_RUNS=1000 PROPERTY_SEED=$seed npm run properties:long -- --json --outputFile=reports/slice-properties.json || result=1
      # The tests that wait out real rate-limit delays longer than a call allows itself (they read LONG_TESTS).
      local long_files
      long_files=$(grep -rl "LONG_TESTS" test --include='*.test.js')
      echo "test-all: long tests, LONG_TESTS=1:" $long_files
      LONG_TESTS=1 npx jest $long_files --json --outputFile=reports/slice-long-tests.json || result=1
      return $result ;;
  esac
}

status=0
summary=()
started=$(date +%s)
if [ "$core" = 1 ]; then
  npm test || status=1
  npm run mutation:ci || status=1
  npm run jest:profiles || status=1
  wait_for_hosts
  npm run e2e || status=1
  npm run release:rehearse || status=1
  npm run bench:smoke || status=1
  summary+=("core $(( $(date +%s) - started )) s")
fi
# The build a slice's suites load (dist/) is the core's; alone, a slice builds it first.
[ "$core" = 1 ] || npm run build || status=1
wait_for_hosts
for name in "${chosen[@]}"; do
  slice_started=$(date +%s)
  slice_status=passed
  run_slice "$name" || { status=1; slice_status=failed; }
  summary+=("slice $name $(( $(date +%s) - slice_started )) s, $slice_status")
  echo "test-all: slice $name $slice_status in $(( $(date +%s) - slice_started )) s"
done

line="test-all: slice ${chosen[*]} ($why); $(IFS=';'; echo "${summary[*]}" | sed 's/;/; /g'); total $(( $(date +%s) - started )) s"
echo "$line" | tee reports/test-all.txt
exit $status
