#!/usr/bin/env bash
# A long soak: `serve` and `work` on one queue under a steady mixed load while host faults come at random
# (a full or read-only rendition store, decoder children and the worker killed, the worker stopped, the
# queue's PostgreSQL restarted), for $1 seconds (default 900). The test suite runs the same soak for 150 s.
# It prints the answers by kind, the faults it injected, and the daemon's memory and descriptors, and fails
# on a lost or doubly finished job, an unexpected answer, a leaked descriptor or child, or memory that grew.
# Needs root (the store is a tmpfs it mounts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
swift build --build-tests
VARIANTD_SOAK_SECONDS="${1:-900}" swift test --skip-build --filter SoakTests
