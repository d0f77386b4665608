#!/usr/bin/env bash
# The main job on the repository's samples: installs what is missing, builds, and prints the completion
# metadata of every sample (or its typed error), one JSON line each.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
swift build -c release --product variantd
.build/release/variantd probe Samples/pictures/* Samples/other/*
