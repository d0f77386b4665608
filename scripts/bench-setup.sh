#!/usr/bin/env bash
# Prepares `variantd thumbhash bench --compare`: a Python venv at .build/bench-venv with thumbhash-rs,
# the Rust ThumbHash crate's Python binding. Idempotent: a second run only confirms the import works.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/bench-venv"

if [ ! -x "$venv/bin/python3" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python3" -c 'import thumbhash' 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check thumbhash-rs
fi
"$venv/bin/python3" -c 'import thumbhash; print("bench-setup: thumbhash-rs ready in '"$venv"'")'
