#!/usr/bin/env bash
# The main job on the repository's samples: installs what is missing, builds, and renders the embedded
# default bucket's variants for every picture under Samples/pictures with the batch CLI. The manifest (one
# JSON line per file, errors included) and the renditions land in
# ${VARIANTD_SAMPLES_OUT:-/tmp/variantd-samples}; a second run resumes and skips what is done.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
swift build -c release --product variantd
out=${VARIANTD_SAMPLES_OUT:-/tmp/variantd-samples}
.build/release/variantd batch --bucket Samples/buckets/post-images.json --out "$out" Samples/pictures
