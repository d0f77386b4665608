#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds everything (the tests start the built variantd as
# their decoder child), and runs the Swift Testing suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
swift build --build-tests
swift test --skip-build
