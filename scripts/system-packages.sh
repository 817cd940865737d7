#!/usr/bin/env bash
# What the test run needs from the machine besides Node (which scripts/node24.sh brings), installed from Debian's
# packages when missing: once, at the start of `npm run test:all` (scripts/test-all.sh), before anything runs in
# parallel, so that no two processes ever meet at apt's lock. Runs apt-get only as root and only for what is missing;
# otherwise it names each missing package, what needs it, and the command that installs it.
#
#   bash scripts/system-packages.sh [lint] [build] [browser] [queue]     (no group: all of them)
#
# Exit status: 0 when everything asked for is there afterwards, 1 when something is still missing.
set -uo pipefail

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(lint build browser queue)

# group -> Debian packages, what needs them
packages_of() {
  case "$1" in
    lint) echo shellcheck ;;
    build) echo python3 make g++ ;;
    browser) echo chromium ;;
    queue) echo postgresql redis-server ;;
    *) return 1 ;;
  esac
}
needed_by() {
  case "$1" in
    lint) echo "the workflow lint in npm test, scripts/lint-workflows.mjs" ;;
    build) echo "building sqlite3 into the n8n test hosts, npm run e2e:install" ;;
    browser) echo "the editor tests in a real browser, npm run e2e (or set CHROMIUM=<path>)" ;;
    queue) echo "the queue slice, npm run e2e:queue" ;;
  esac
}
# Whether a package's program is there, where the code that needs it looks for it.
present() {
  case "$1" in
    chromium) [ -n "${CHROMIUM:-}" ] && [ -x "${CHROMIUM}" ] || [ -x /usr/bin/chromium ] || [ -x /usr/bin/chromium-browser ] ;;
    # e2e/queue/lib/infra.js: the newest /usr/lib/postgresql/<version>/bin/postgres, and /usr/bin/redis-server.
    postgresql) compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null ;;
    redis-server) [ -x /usr/bin/redis-server ] ;;
    *) command -v "$1" >/dev/null ;;
  esac
}

missing=()
reasons=()
seen=" "
for group in "${groups[@]}"; do
  [[ "$seen" == *" $group "* ]] && continue
  seen+="$group "
  list=$(packages_of "$group") || { echo "system-packages: unknown group '$group' (groups: lint build browser queue)" >&2; exit 2; }
  absent=()
  for package in $list; do present "$package" || absent+=("$package"); done
  [ ${#absent[@]} -gt 0 ] || continue
  missing+=("${absent[@]}")
  reasons+=("${absent[*]}, for $(needed_by "$group")")
done
[ ${#missing[@]} -eq 0 ] && exit 0

say_missing() {
  for reason in "${reasons[@]}"; do echo "system-packages: missing $reason" >&2; done
  echo "system-packages: $1" >&2
}
if ! command -v apt-get >/dev/null; then
  say_missing "this machine has no apt-get: install ${missing[*]} with its package manager, then run again"
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  say_missing "not root, so not installed: run \`sudo apt-get install -y ${missing[*]}\` (or this script as root), then run again"
  exit 1
fi

echo "system-packages: installing ${missing[*]} with apt-get" >&2
started=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
# Wait for another apt or dpkg (unattended upgrades, another clone's run) instead of failing on its lock. The option
# covers dpkg's lock; `apt-get update` takes the lists' lock, which it does not wait for, so that one is retried.
lock_wait=600
apt=(apt-get -o "DPkg::Lock::Timeout=$lock_wait" -qq)
until out=$("${apt[@]}" update 2>&1); do
  if ! grep -q 'Could not get lock' <<<"$out" || [ $(($(date +%s) - started)) -ge $lock_wait ]; then
    printf '%s\n' "$out" >&2
    echo "system-packages: apt-get update failed; install ${missing[*]} by hand" >&2
    exit 1
  fi
  sleep 2
done
# Debian's maintainer scripts would start PostgreSQL and Redis as system services; the tests start their own, so a
# policy-rc.d that answers 101 ("action not allowed") keeps them stopped, and goes again if we put it there.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# written by scripts/system-packages.sh while it installs: start no service\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi
if ! "${apt[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null; then
  echo "system-packages: apt-get install ${missing[*]} failed (its messages above)" >&2
  exit 1
fi

still=()
for package in "${missing[@]}"; do present "$package" || still+=("$package"); done
if [ ${#still[@]} -gt 0 ]; then
  echo "system-packages: apt-get installed ${missing[*]}, but ${still[*]} is still not where the tests look for it" >&2
  exit 1
fi
echo "system-packages: installed ${missing[*]} in $(($(date +%s) - started)) s" >&2
