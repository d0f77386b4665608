"""The AVIF half of `variantd bench --anchors`: pyvips (the pyvips-binary libvips) encodes the same 1600-pixel
rendition at Q=60 with its default effort, and both AVIF files are scored against the same reference.

usage: avif.py SOURCE OURS.avif ITERATIONS
       avif.py --score SOURCE OURS.avif      (only the SSIM of OURS.avif: {"ssim": x})

The reference is SOURCE reduced by pyvips to exactly the size of OURS.avif; the score is the mean SSIM of luma
(BT.601 weights, 7x7 uniform windows, the usual K1 = 0.01, K2 = 0.03), computed with numpy. Prints one JSON
object: {"pyvips": {tool, encode_s, bytes, width, height, ssim}, "ours_ssim": x}.
"""
import json
import statistics
import sys
import time

import numpy
import pyvips


def luma(image):
    image = image.colourspace("srgb")
    if image.hasalpha():
        image = image.flatten(background=255)
    pixels = numpy.ndarray(buffer=image.write_to_memory(), dtype=numpy.uint8,
                           shape=[image.height, image.width, image.bands]).astype(numpy.float64)
    return pixels[:, :, 0] * 0.299 + pixels[:, :, 1] * 0.587 + pixels[:, :, 2] * 0.114


def box_mean(values, side=7):
    """Mean over every side x side window (valid positions only), by summed-area table."""
    table = numpy.pad(values, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    total = table[side:, side:] - table[:-side, side:] - table[side:, :-side] + table[:-side, :-side]
    return total / (side * side)


def ssim(a, b):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mean_a, mean_b = box_mean(a), box_mean(b)
    var_a = box_mean(a * a) - mean_a ** 2
    var_b = box_mean(b * b) - mean_b ** 2
    covariance = box_mean(a * b) - mean_a * mean_b
    score = ((2 * mean_a * mean_b + c1) * (2 * covariance + c2)) / (
        (mean_a ** 2 + mean_b ** 2 + c1) * (var_a + var_b + c2))
    return float(score.mean())


def reference_luma(source, ours):
    return luma(pyvips.Image.thumbnail(source, ours.width, height=ours.height, size="force").copy_memory())


def main():
    if sys.argv[1] == "--score":
        ours = pyvips.Image.new_from_file(sys.argv[3])
        print(json.dumps({"ssim": ssim(reference_luma(sys.argv[2], ours), luma(ours))}))
        return
    source, ours_path, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ours = pyvips.Image.new_from_file(ours_path)
    reference = reference_luma(source, ours)
    rendition = pyvips.Image.thumbnail(source, 1600, height=1600, size="down").copy_memory()
    seconds, encoded = [], b""
    for _ in range(iterations):
        start = time.perf_counter()
        encoded = rendition.heifsave_buffer(Q=60, compression="av1", keep=0)
        seconds.append(time.perf_counter() - start)
    theirs = pyvips.Image.new_from_buffer(encoded, "")
    print(json.dumps({
        "pyvips": {
            "tool": "pyvips-%d.%d" % (pyvips.version(0), pyvips.version(1)),
            "encode_s": statistics.median(seconds), "bytes": len(encoded),
            "width": theirs.width, "height": theirs.height, "ssim": ssim(reference, luma(theirs)),
        },
        "ours_ssim": ssim(reference, luma(ours)),
    }))


if __name__ == "__main__":
    main()
