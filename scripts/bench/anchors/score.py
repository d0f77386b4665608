"""The referee of `variantd bench --quality`: SSIMULACRA2 by the PyPI package `ssimulacra2`, which shares no code
with variantd or libvips (it reads the files with Pillow and computes the metric with numpy and scipy).

usage: score.py LOSSLESS LOSSY [LOSSLESS LOSSY ...]

Prints one JSON object: {"scorer": "ssimulacra2 VERSION", "scores": [score of each pair, in order]}; 100 is
identical, 90 visually lossless, 70 high quality.
"""
import json
import sys

import ssimulacra2


def main():
    paths = sys.argv[1:]
    if not paths or len(paths) % 2:
        sys.exit("usage: score.py LOSSLESS LOSSY [LOSSLESS LOSSY ...]")
    scores = [ssimulacra2.compute_ssimulacra2_with_alpha(paths[i], paths[i + 1]) for i in range(0, len(paths), 2)]
    print(json.dumps({"scorer": "ssimulacra2 " + ssimulacra2.__version__, "scores": scores}))


if __name__ == "__main__":
    main()
