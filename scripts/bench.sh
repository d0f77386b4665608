#!/usr/bin/env bash
# The `make bench` of variantd: installs the anchors, builds a release binary, runs the whole benchmark with
# the anchors, keeps the JSON report in .build/bench/latest.json, puts its table into docs/Benchmarks.md
# between the "latest table" markers and its charts into docs/images/bench/. Extra arguments go to
# `variantd bench` (e.g. --iterations 5).
#
#   bash scripts/bench.sh                                   # measure, update the docs
#   bash scripts/bench.sh --baseline docs/bench-baseline.json   # and fail on a regression against it
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
bash scripts/bench-setup.sh
. scripts/env.sh
swift build -c release --product variantd

mkdir -p .build/bench
status=0
.build/release/variantd bench --anchors --json "$@" >.build/bench/latest.json || status=$?
[ -s .build/bench/latest.json ] || exit "$status"
table=$(.build/release/variantd bench --report .build/bench/latest.json)
.build/release/variantd chart .build/bench/latest.json --out docs/images/bench >/dev/null

python3 - "$table" <<'PY'
import sys
path, table = "docs/Benchmarks.md", sys.argv[1]
begin, end = "<!-- latest table: begin -->", "<!-- latest table: end -->"
text = open(path, encoding="utf-8").read()
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(path, "w", encoding="utf-8").write(f"{head}{begin}\n```\n{table}\n```\n{end}{tail}")
PY
echo "bench: wrote .build/bench/latest.json, the table in docs/Benchmarks.md and docs/images/bench/*.svg"
exit "$status"
