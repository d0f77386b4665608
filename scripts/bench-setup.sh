#!/usr/bin/env bash
# Installs what `variantd bench --anchors` and `variantd thumbhash-bench --compare` compare against.
# Idempotent: a second run only confirms every anchor imports or runs.
#
# - Debian: libvips-tools (vipsthumbnail, on the same libvips 8.14 as variantd), imagemagick, nginx (the
#   static file server `bench --serve --render` compares cache hits with; the bench starts its own
#   instance on a loopback port, the packaged service is not used) and wrk (the load generator of those
#   hits).
# - .build/bench-venv: pyvips in ABI mode on the system libvips 8.14, Pillow with pillow-heif, numpy (the
#   AVIF quality check) and thumbhash-rs (the Rust ThumbHash crate's Python binding).
# - .build/bench-venv-binary: pyvips on the newer libvips that the pyvips-binary wheel bundles.
# - .build/bench-venv-ssimulacra2: the PyPI package ssimulacra2 (numpy, scipy, Pillow), the referee of
#   `variantd bench --quality`: its scores depend on neither variantd's code nor libvips.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
system_venv="$root/.build/bench-venv"
binary_venv="$root/.build/bench-venv-binary"
score_venv="$root/.build/bench-venv-ssimulacra2"

if ! dpkg -s libvips-tools imagemagick nginx wrk >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq libvips-tools imagemagick nginx wrk >/dev/null
fi

# venv DIR CHECK PACKAGE…: creates the venv and installs the packages unless CHECK already runs there.
# pyvips compiles an API-mode module against whatever libvips pkg-config finds, which would replace the
# module pyvips-binary ships; with pkg-config hidden it builds nothing and runs in ABI mode.
venv() {
  local dir=$1 check=$2
  shift 2
  [ -x "$dir/bin/python3" ] || python3 -m venv "$dir"
  if ! "$dir/bin/python3" -c "$check" >/dev/null 2>&1; then
    PKG_CONFIG=false "$dir/bin/pip" install --quiet --disable-pip-version-check --no-cache-dir \
      --force-reinstall "$@"
  fi
  "$dir/bin/python3" -c "$check"
}

venv "$system_venv" \
  'import thumbhash, numpy, PIL, pillow_heif, pyvips; assert not pyvips.API_mode and pyvips.version(1) == 14
print("bench-venv: pyvips (ABI mode) on libvips 8.14, Pillow", PIL.__version__, "pillow-heif", pillow_heif.__version__)' \
  thumbhash-rs numpy pillow pillow-heif pyvips
# pyvips-binary's module goes in last, alone, so no other install step removes or replaces it.
binary_check='import numpy, pyvips, thumbhash; assert pyvips.API_mode and pyvips.version(1) > 14
print("bench-venv-binary: pyvips on the pyvips-binary libvips", pyvips.version(0), pyvips.version(1))'
if ! "$binary_venv/bin/python3" -c "$binary_check" >/dev/null 2>&1; then
  venv "$binary_venv" 'import numpy, pyvips, thumbhash' numpy pyvips thumbhash-rs
  "$binary_venv/bin/pip" install --quiet --disable-pip-version-check --no-cache-dir --force-reinstall --no-deps \
    pyvips-binary
fi
"$binary_venv/bin/python3" -c "$binary_check"

venv "$score_venv" \
  'import ssimulacra2; assert ssimulacra2.__version__ == "0.3.0"
print("bench-venv-ssimulacra2: ssimulacra2", ssimulacra2.__version__)' \
  ssimulacra2==0.3.0
