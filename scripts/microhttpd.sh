#!/usr/bin/env bash
# Adds the HTTP server library of `variantd serve`, libmicrohttpd, to /opt/variantd as a static library with
# our patches (run as root; called by setup.sh after jpegli.sh). The binary carries it: nothing of it is
# looked up at run time.
#
# Source: Debian 12 (bookworm)'s libmicrohttpd 0.9.75 with Debian's own patches, fetched from the pool of the
# machine's Debian source entry and checked against the SHA-256 sums pinned below (the ones its .dsc lists).
# After Debian's patches come ours, in scripts/patches (each says why in its header): the answers the library
# makes itself (a head over its memory, a head it cannot parse, an HTTP version other than 1.0 and 1.1, a bad
# Content-Length or chunked body) carry the daemon's wire error JSON, not HTML; a connection's memory is not
# zeroed as it is freed, so that it can hold heads of 200 KB without costing every request; and a file body
# leaves with its header in one transmission instead of after it. Built at
# Debian's hardening flags, without HTTPS (the daemon never speaks TLS), documentation or examples.
# Additive, under names of its own so that nothing built against the system's libmicrohttpd picks it up by
# accident: lib/libmicrohttpd-variantd.a, include/microhttpd-variantd/ and lib/pkgconfig/microhttpd-variantd.pc,
# nothing else.
#
# Idempotent: a stamp in the prefix records what was built; when it matches, this takes well under a second.
set -euo pipefail

. "$(dirname "$0")/debian-sources.sh"
uri=${1:?usage: microhttpd.sh DEBIAN_URI}

# name, pool path, SHA-256
sources=(
  "libmicrohttpd_0.9.75.orig.tar.xz libm/libmicrohttpd 796e7e217a4802679fcac667a4e98501c53185dcf50ca0583870e84192620131"
  "libmicrohttpd_0.9.75-6.debian.tar.xz libm/libmicrohttpd 566c247bfbf67e20858705ae695f58db747d50ed8512f2bc46a28bef9086e5af"
)
build_deps=(patch xz-utils gcc make)
configure_flags=(
  --disable-shared --enable-static --with-pic --disable-https --disable-doc --disable-examples
  --disable-curl --disable-nls --disable-dependency-tracking
)
# Debian's hardening=+all, as its package is built.
cflags="-O2 -fstack-protector-strong -fstack-clash-protection -fcf-protection -Wformat -Werror=format-security"
cppflags="-D_FORTIFY_SOURCE=2"
name=microhttpd-variantd

our_patches=("$(cd "$(dirname "$0")" && pwd)"/patches/microhttpd-*.patch)

stamp_file="$prefix/.variantd-microhttpd-stamp"
stamp=$(printf '%s\n' "${sources[@]}" "${configure_flags[*]}" "$cflags" "$cppflags"
        patch_sums "${our_patches[@]}")
is_built "$stamp_file" "$stamp" "$prefix/lib/lib$name.a" && exit 0

begin_build "$uri" "$cache"
src="$work/libmicrohttpd"
unpack_debian "$cache/${sources[0]%% *}" "$cache/${sources[1]%% *}" "$src"
apply_patches "$src" "${our_patches[@]}"

(cd "$src" && CFLAGS="$cflags" CPPFLAGS="$cppflags" ./configure "${configure_flags[@]}" \
  && make -C src/microhttpd -j"$(nproc)" libmicrohttpd.la) >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; exit 1; }

install -D -m 644 "$src/src/microhttpd/.libs/libmicrohttpd.a" "$prefix/lib/lib$name.a"
install -D -m 644 "$src/src/include/microhttpd.h" "$prefix/include/$name/microhttpd.h"
install -m 644 "$src/COPYING" "$prefix/include/$name/COPYING"
install -D -m 644 /dev/stdin "$prefix/lib/pkgconfig/$name.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include/$name

Name: libmicrohttpd (variantd)
Description: libmicrohttpd 0.9.75 with variantd's patches, static
Version: 0.9.75
Libs: -L\${libdir} -l$name
Cflags: -I\${includedir}
PC

mark_built "$stamp_file" "$stamp"
echo "microhttpd: libmicrohttpd 0.9.75 (${#our_patches[@]} patch(es) of ours) built into $prefix in $(($(date +%s) - started)) s"
