#!/usr/bin/env bash
# Writes the test videos of Samples/videos with Debian's ffmpeg (see README.md here).
set -euo pipefail
out=${1:?usage: make-video-samples.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

# 96 x 64, 10 frames a second, 2 s: red, yellow from 0.5 s, at 1 s blue with a white 48 x 32 marker at the
# top left, green from 1.2 s, magenta from 1.5 s.
timeline="color=c=red:s=96x64:r=10:d=2"
for step in "yellow:0:0:96:64:0.5" "blue:0:0:96:64:1" "white:0:0:48:32:1" "green:0:0:96:64:1.2" \
            "magenta:0:0:96:64:1.5"; do
  IFS=: read -r colour x y w h from <<<"$step"
  timeline+=",drawbox=x=$x:y=$y:w=$w:h=$h:color=$colour:t=fill:enable='gte(t,$from)'"
done
keys=(-force_key_frames 0,0.5,1,1.5)
encode() {  # encode FILTER OUT ARGS...
  local filter=$1 file=$2
  shift 2
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$timeline,$filter,format=yuv420p" "$@" "$out/$file"
}

# Stored landscape, shown portrait (turned a quarter clockwise), as a phone records.
encode null portrait-h264.mp4 -c:v libx264 -qp 16 "${keys[@]}" -movflags +faststart
python3 "$here/turn.py" "$out/portrait-h264.mp4" 90
# Stored upside down and turned a quarter anticlockwise: shows the same picture.
encode hflip,vflip portrait-hevc.mov -c:v libx265 -x265-params log-level=error -qp 16 "${keys[@]}" -tag:v hvc1
python3 "$here/turn.py" "$out/portrait-hevc.mov" 270
# WebM and Matroska have no display matrix FFmpeg writes: stored portrait.
encode transpose=clock portrait-vp9.webm -c:v libvpx-vp9 -crf 10 -b:v 0 -deadline good -cpu-used 4 "${keys[@]}"
encode transpose=clock portrait-av1.webm -c:v libaom-av1 -crf 20 -b:v 0 -cpu-used 8 "${keys[@]}"
encode transpose=clock portrait-h264.mkv -c:v libx264 -qp 16 "${keys[@]}"
# A 2 s clip whose only keyframe is its first frame: the poster is the first frame.
encode null one-keyframe-h264.mp4 -c:v libx264 -qp 16 -g 100 -x264-params scenecut=0 -force_key_frames 0
# HDR: 0.5 s of grey at HDR reference white (203 cd/m²: HLG signal 0.75, PQ signal 0.58), 10-bit HEVC tagged
# BT.2020 with the HLG or PQ transfer.
for hdr in hlg:arib-std-b67:BFBFBF pq:smpte2084:949494; do
  IFS=: read -r name transfer grey <<<"$hdr"
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "color=c=0x$grey:s=64x48:r=10:d=0.5,format=yuv420p10le" \
    -c:v libx265 -x265-params log-level=error -qp 4 -tag:v hvc1 -color_primaries bt2020 -color_trc "$transfer" \
    -colorspace bt2020nc "$out/$name-hevc.mov"
done
# Sound alone, 0.3 s of a 440 Hz tone: an MP4 and a WebM that are no video.
ffmpeg -hide_banner -loglevel error -y -f lavfi -i sine=frequency=440:duration=0.3 -c:a aac -b:a 32k \
  "$out/audio-only.mp4"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i sine=frequency=440:duration=0.3 -c:a libopus -b:a 16k \
  "$out/audio-only.webm"
# 0.5 s: a cyan first frame, then orange.
ffmpeg -hide_banner -loglevel error -y -f lavfi \
  -i "color=c=orange:s=96x64:r=10:d=0.5,drawbox=x=0:y=0:w=96:h=64:color=cyan:t=fill:enable='lt(t,0.1)',format=yuv420p" \
  -c:v libx264 -qp 16 -movflags +faststart "$out/short-h264.mp4"
