#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks the formatting, builds everything (the tests start the built variantd as
# their decoder child), fuzzes the untrusted-input parsers briefly, and runs the Swift Testing suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
# The house format (.swift-format: 4 spaces, 110 columns); `swift format format -i --recursive Sources Tests
# Fuzz Package.swift` applies it.
swift format lint --strict --recursive Sources Tests Fuzz Package.swift
swift build --build-tests
# A short bounded fuzz run of every parser that reads untrusted input (longer runs: `bash scripts/fuzz.sh 3600`,
# described under "Hostile input" in README.md).
bash scripts/fuzz.sh 15
bash scripts/run-tests.sh
