#!/usr/bin/env bash
# Builds the libvips variantd links against into /opt/variantd (run as root; called by setup.sh).
#
# Sources: Debian 13 (trixie)'s upstream tarballs of libvips 8.16.1 and highway 1.2.0 with Debian's own
# patches (security fixes included), fetched from the pool of the machine's Debian source entry and checked
# against the SHA-256 sums pinned below (the ones trixie's Sources index lists). Built with bookworm's
# compilers and libraries, with only the formats variantd reads and writes: JPEG (libjpeg-turbo), PNG
# (libspng, both ways), WebP, GIF (libvips' own decoder; we never write GIF, so no cgif), lcms, EXIF and
# Highway's SIMD kernels; and, read only, the documents and drawings a bucket holds beside photos, through
# bookworm's libraries: TIFF (libtiff), SVG (librsvg), PDF (poppler-glib) and JPEG XL (libjxl). Every loader
# is linked in (no dynamic modules), so a decoder child has them all loaded before it seals itself. No HEIF
# (libheif is called directly), ImageMagick, OpenSlide, JPEG 2000, FITS, Matlab, …: a loader that is not
# built cannot be reached by hostile input. After Debian's
# patches come ours, in scripts/patches (each says why in its header): two change speed, never pixels; the GIF
# one composes frames as browsers do (an area disposed to background becomes transparent).
#
# Idempotent: a stamp in the prefix records what was built; when it matches, this takes well under a second.
set -euo pipefail

. "$(dirname "$0")/debian-sources.sh"
uri=${1:?usage: codec-stack.sh DEBIAN_URI}

# name, pool path, SHA-256
sources=(
  "vips_8.16.1.orig.tar.gz v/vips df960c3df02da8ae16ee19e79c9428e955d178242a8f06064e07e0c417238e6e"
  "vips_8.16.1-1+deb13u1.debian.tar.xz v/vips 2acd86c435b8ca9fe537c65d21c5f326814c9b10d244cafad5689e60bdb1dc37"
  "highway_1.2.0.orig.tar.gz h/highway 7e0be78b8318e8bdbf6fa545d2ecb4c90f947df03f7aadc42c1967f019e63343"
  "highway_1.2.0-2.debian.tar.xz h/highway 0f112418716ca1000b19ed86d0c49c8b9edf384ccf966e458790dcea660fec96"
)
build_deps=(
  patch xz-utils meson ninja-build cmake g++ pkg-config libglib2.0-dev libexpat1-dev libjpeg62-turbo-dev
  libspng-dev libwebp-dev liblcms2-dev libexif-dev libtiff-dev librsvg2-dev libpoppler-glib-dev libjxl-dev
)
# Highway is linked into libvips statically, so no other libhwy on the machine can stand in for it.
highway_flags=(
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DHWY_ENABLE_TESTS=OFF -DHWY_ENABLE_EXAMPLES=OFF -DHWY_ENABLE_CONTRIB=OFF -DHWY_ENABLE_INSTALL=ON
  -DCMAKE_INSTALL_LIBDIR=lib
)
vips_flags=(
  --buildtype=release --libdir=lib -Dauto_features=disabled
  -Djpeg=enabled -Dspng=enabled -Dwebp=enabled -Dlcms=enabled -Dexif=enabled
  -Dhighway=enabled -Dtiff=enabled -Drsvg=enabled -Dpoppler=enabled -Djpeg-xl=enabled -Dnsgif=true -Dppm=false -Danalyze=false -Dradiance=false
  -Dmodules=disabled -Dintrospection=disabled -Dcplusplus=false -Ddeprecated=false -Dexamples=false
  -Dvapi=false
)

our_patches=("$(cd "$(dirname "$0")" && pwd)"/patches/vips-*.patch)

stamp_file="$prefix/.variantd-stamp"
stamp=$(printf '%s\n' "${sources[@]}" "${highway_flags[*]}" "${vips_flags[*]}"; patch_sums "${our_patches[@]}")
is_built "$stamp_file" "$stamp" "$prefix/lib/pkgconfig/vips.pc" && exit 0

begin_build "$uri" "$cache"

unpack_debian "$cache/highway_1.2.0.orig.tar.gz" "$cache/highway_1.2.0-2.debian.tar.xz" "$work/highway"
unpack_debian "$cache/vips_8.16.1.orig.tar.gz" "$cache/vips_8.16.1-1+deb13u1.debian.tar.xz" "$work/vips"
apply_patches "$work/vips" "${our_patches[@]}"

rm -rf "$prefix"
cmake -S "$work/highway" -B "$work/highway/build" -G Ninja -DCMAKE_INSTALL_PREFIX="$prefix" \
  "${highway_flags[@]}" >/dev/null
cmake --build "$work/highway/build" >/dev/null
cmake --install "$work/highway/build" >/dev/null

PKG_CONFIG_PATH="$prefix/lib/pkgconfig" meson setup "$work/vips/build" "$work/vips" --prefix="$prefix" \
  "${vips_flags[@]}" >"$work/meson.log" || { cat "$work/meson.log" >&2; exit 1; }
meson compile -C "$work/vips/build" >/dev/null
meson install -C "$work/vips/build" --quiet >/dev/null

mark_built "$stamp_file" "$stamp"
echo "codec-stack: libvips 8.16.1 (${#our_patches[@]} patch(es) of ours) and highway 1.2.0 built into $prefix in $(($(date +%s) - started)) s"
