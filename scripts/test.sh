#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks the formatting, builds everything (the tests start the built variantd as
# their decoder child), fuzzes the untrusted-input parsers briefly, and runs the Swift Testing suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
# The PyPI SSIMULACRA2 the scorer's corpus check compares with, in .build/test-venv; where PyPI cannot be
# reached the venv is removed and that check is skipped, saying why.
if ! .build/test-venv/bin/python -c 'import ssimulacra2' >/dev/null 2>&1; then
  python3 -m venv .build/test-venv
  .build/test-venv/bin/pip install --quiet --disable-pip-version-check ssimulacra2==0.3.0 || rm -rf .build/test-venv
fi
# The house format (.swift-format: 4 spaces, 110 columns); `swift format format -i --recursive Sources Tests
# Fuzz Package.swift` applies it.
swift format lint --strict --recursive Sources Tests Fuzz Package.swift
swift build --build-tests
# A short bounded fuzz run of every parser that reads untrusted input (longer runs: `bash scripts/fuzz.sh 3600`,
# described under "Hostile input" in README.md).
bash scripts/fuzz.sh 15
bash scripts/run-tests.sh
