"""The referee of `variantd bench --quality`: SSIMULACRA2 as JPEG XL's reference tool computes it, by the PyPI
package `ssimulacra2` with the reference's blur and scale count put back (Samples/generators/ssimulacra2/score.py
says which two steps differ and why: the plain package is up to 9 points off on a 200-pixel thumbnail). It shares
no code with variantd or libvips: Pillow reads the files, numpy and scipy compute.

usage: score.py LOSSLESS LOSSY [LOSSLESS LOSSY ...]

Prints one JSON object: {"scorer": "...", "scores": [score of each pair, in order]}; 100 is identical, 90
visually lossless, 70 high quality.
"""
import importlib.util
import json
import pathlib
import sys

import ssimulacra2

REFERENCE = pathlib.Path(__file__).resolve().parents[3] / "Samples/generators/ssimulacra2/score.py"


def reference_scorer():
    spec = importlib.util.spec_from_file_location("ssimulacra2_reference", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    paths = sys.argv[1:]
    if not paths or len(paths) % 2:
        sys.exit("usage: score.py LOSSLESS LOSSY [LOSSLESS LOSSY ...]")
    reference = reference_scorer()
    scores = [reference.scores(paths[i], paths[i + 1])[0] for i in range(0, len(paths), 2)]
    scorer = "ssimulacra2 " + ssimulacra2.__version__ + " with the reference's blur and scales"
    print(json.dumps({"scorer": scorer, "scores": scores}))


if __name__ == "__main__":
    main()
