#!/usr/bin/env bash
# Adds jpegli, the JPEG encoder of libjxl, to /opt/variantd as a static library and the headers our shim
# includes (run as root; called by setup.sh after codec-stack.sh). JPEG renditions are encoded with it: plain
# JPEG files that every decoder reads, smaller than libjpeg-turbo's at the same look.
#
# Source: Debian 13 (trixie)'s upstream tarball of libjxl 0.11.2 with Debian's own patches, fetched from the
# pool of the machine's Debian source entry and checked against the SHA-256 sums pinned below (the ones its
# .dsc lists), then ours, in scripts/patches (each says why in its header): a sequential file asked for as
# baseline keeps to the two Huffman tables of each class that baseline allows. Only jpegli's own files are
# compiled, the list libjxl's lib/jxl_lists.cmake names for jpegli-static, at Debian's -O2, against the static
# Highway 1.2.0 codec-stack.sh installed and bookworm's libjpeg-turbo headers (the libjpeg 6.2 API jpegli
# implements; the tarball does not ship them). No JPEG XL, no tools, no tests. Additive: it writes
# lib/libjpegli-static.a and include/jpegli/ and nothing else.
#
# Idempotent: a stamp in the prefix records what was built; when it matches, this takes well under a second.
set -euo pipefail

. "$(dirname "$0")/debian-sources.sh"
uri=${1:?usage: jpegli.sh DEBIAN_URI}

# name, pool path, SHA-256
sources=(
  "jpeg-xl_0.11.2.orig.tar.gz j/jpeg-xl ab38928f7f6248e2a98cc184956021acb927b16a0dee71b4d260dc040a4320ea"
  "jpeg-xl_0.11.2-0.1~deb13u2.debian.tar.xz j/jpeg-xl 54192375c3ff271f395b815a8ea111a5f632f5db8966baeda9dabedbc86ea2d4"
)
build_deps=(patch xz-utils g++ libjpeg62-turbo-dev)
units=(
  adaptive_quantization bit_writer bitstream color_quantize color_transform common decode decode_marker
  decode_scan destination_manager downsample encode encode_finish encode_streaming entropy_coding error huffman
  idct input memory_manager quant render simd source_manager upsample
)
# libjxl's own flags for its library (lib/CMakeLists.txt), at the optimisation Debian builds it with. Compiled
# from the tree's root, so that jpegli's error messages name lib/jpegli/FILE, not a temporary directory.
flags=(
  -O2 -DNDEBUG -fPIC -std=c++17 -fno-rtti -fno-exceptions -fmerge-all-constants -fno-builtin-fwrite
  -fno-builtin-fread -fsized-deallocation -fmath-errno -I. -Ilib/include
)
# What `#include "lib/jpegli/encode.h"` reaches, below include/jpegli.
headers=(lib/jpegli/encode.h lib/jpegli/common.h lib/jpegli/types.h lib/jxl/base/include_jpeglib.h)

our_patches=("$(cd "$(dirname "$0")" && pwd)"/patches/jpegli-*.patch)

stamp_file="$prefix/.variantd-jpegli-stamp"
stamp=$(printf '%s\n' "${sources[@]}" "${units[*]}" "${flags[*]}" "${headers[*]}"; patch_sums "${our_patches[@]}")
is_built "$stamp_file" "$stamp" "$prefix/lib/libjpegli-static.a" && exit 0
[ -f "$prefix/include/hwy/highway.h" ] || { echo "jpegli: no Highway in $prefix (run codec-stack.sh)" >&2; exit 1; }

begin_build "$uri" "$cache"
src="$work/libjxl"
mkdir -p "$work/obj"
unpack_debian "$cache/${sources[0]%% *}" "$cache/${sources[1]%% *}" "$src"
apply_patches "$src" "${our_patches[@]}"

(cd "$src" && printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -I{} \
  g++ -c "${flags[@]}" -I"$prefix/include" "lib/jpegli/{}.cc" -o "$work/obj/{}.o")
ar rcs "$work/libjpegli-static.a" "$work"/obj/*.o

rm -rf "$prefix/include/jpegli"
for header in "${headers[@]}"; do
  install -D -m 644 "$src/$header" "$prefix/include/jpegli/$header"
done
install -m 644 "$src/LICENSE" "$prefix/include/jpegli/LICENSE"
install -m 644 "$work/libjpegli-static.a" "$prefix/lib/libjpegli-static.a"

mark_built "$stamp_file" "$stamp"
echo "jpegli: libjxl 0.11.2's jpegli (${#our_patches[@]} patch(es) of ours) built into $prefix in $(($(date +%s) - started)) s"
