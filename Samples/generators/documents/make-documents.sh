#!/usr/bin/env bash
# Makes the TIFF and JPEG XL samples of Samples/documents with Debian's libvips CLI (libvips-tools, which
# setup installs): pictures of known content, whose renditions the decoding tests compare with the same CLI's
# render of the same file.
#
#   cmyk.tif       64×48 CMYK, striped, with Ghostscript's 5 kB PostScript CMYK profile embedded (libgs-common,
#                  which poppler-utils brings; it converts only at the perceptual intent): a red, a green, a
#                  blue and a grey quarter, each separated through the profile from its sRGB colour.
#   gradient.jxl   64×48 lossless 8-bit sRGB: red rising left to right, green top to bottom, blue 128.
set -euo pipefail
out=$(cd "$(dirname "$0")/../../documents" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

patch() { vips black "$1.v" 32 24 --bands 3 && vips linear "$1.v" "$1c.v" "0 0 0" "$2" --uchar; }
patch red "220 30 30"; patch green "30 180 60"; patch blue "40 60 200"; patch grey "128 128 128"
vips arrayjoin "redc.v greenc.v bluec.v greyc.v" quarters.v --across 2
vips copy quarters.v srgb.v --interpretation srgb
vips icc_export srgb.v cmyk.v --output-profile /usr/share/color/icc/ghostscript/ps_cmyk.icc \
  --intent perceptual
vips tiffsave cmyk.v "$out/cmyk.tif" --compression lzw

vips xyz xy.v 64 48
vips extract_band xy.v x.v 0
vips extract_band xy.v y.v 1
vips linear x.v red.v 4 0 --uchar
vips linear y.v green.v 5 0 --uchar
vips black zero.v 64 48
vips linear zero.v blue.v 1 128 --uchar
vips bandjoin "red.v green.v blue.v" rgb.v
vips copy rgb.v rgbs.v --interpretation srgb
vips jxlsave rgbs.v "$out/gradient.jxl" --lossless
