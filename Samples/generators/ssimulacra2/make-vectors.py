"""Writes Samples/ssimulacra2: each sample photo as a lossless PNG, the same pixels through JPEG and WebP at
three qualities (encoded and decoded by Pillow, stored as PNG so that no decoder choice enters the test), and
vectors.tsv with each pair's score by score.py.

Run from the repository root with the test venv: .build/test-venv/bin/python Samples/generators/ssimulacra2/make-vectors.py
"""
import io
import os
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402

SOURCES = ["gradient.jpg", "gradient.webp"]
FORMATS = [("JPEG", "jpeg"), ("WEBP", "webp")]
QUALITIES = [30, 60, 90]
OUT = "Samples/ssimulacra2"

os.makedirs(OUT, exist_ok=True)
rows = ["original\tdistorted\treference\tpackage"]
for source in SOURCES:
    stem = source.replace(".", "-")
    original = Image.open(os.path.join("Samples/pictures", source)).convert("RGB")
    original_name = stem + ".png"
    original.save(os.path.join(OUT, original_name), optimize=True)
    for codec, suffix in FORMATS:
        for quality in QUALITIES:
            buffer = io.BytesIO()
            original.save(buffer, codec, quality=quality)
            buffer.seek(0)
            distorted_name = "%s.%s-q%d.png" % (stem, suffix, quality)
            Image.open(buffer).convert("RGB").save(os.path.join(OUT, distorted_name), optimize=True)
            faithful, package = score.scores(os.path.join(OUT, original_name), os.path.join(OUT, distorted_name))
            rows.append("%s\t%s\t%.6f\t%.6f" % (original_name, distorted_name, faithful, package))
with open(os.path.join(OUT, "vectors.tsv"), "w") as f:
    f.write("\n".join(rows) + "\n")
print("\n".join(rows))
