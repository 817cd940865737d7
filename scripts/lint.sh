#!/usr/bin/env bash
# n8n-node lint exits 0 on warnings; we hold the package to zero warnings, so any reported problem fails.
set -uo pipefail
out=$(n8n-node lint "$@" 2>&1); status=$?
printf '%s\n' "$out"
if [ $status -ne 0 ] || printf '%s' "$out" | grep -qE '[0-9]+ problems?'; then
  echo "lint: n8n-node lint reported problems (warnings count too)" >&2
  exit 1
fi
