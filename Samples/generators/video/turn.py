"""Writes a quarter or half turn into the display matrix of an MP4 or QuickTime file's first track header
(`tkhd`, version 0): python3 turn.py FILE DEGREES, DEGREES clockwise: 90, 180 or 270."""
import struct
import sys

path, degrees = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, 'rb').read())
at = data.find(b'tkhd')
assert at > 0 and data[at + 4] == 0, 'no version 0 tkhd'
matrix_at = at + 4 + 40
width = struct.unpack('>I', data[matrix_at + 36:matrix_at + 40])[0] >> 16
height = struct.unpack('>I', data[matrix_at + 40:matrix_at + 44])[0] >> 16
one, minus_one, w = 0x10000, 0xFFFF0000, 0x40000000
matrix = {
    90: [0, one, 0, minus_one, 0, 0, height << 16, 0, w],
    180: [minus_one, 0, 0, 0, minus_one, 0, width << 16, height << 16, w],
    270: [0, minus_one, 0, one, 0, 0, 0, width << 16, w],
}[degrees]
data[matrix_at:matrix_at + 36] = struct.pack('>9I', *matrix)
open(path, 'wb').write(data)
