"""SSIMULACRA2 of two PNGs as JPEG XL's reference tool computes it, built from the PyPI package `ssimulacra2`
(0.3.0), whose colour conversion, downsampling, error maps, weights and final mapping match the reference.

Two of its steps do not, and are replaced here by the reference's:
- the blur: the reference runs a recursive Gaussian (Charalampidis' three truncated cosines, sigma 1.5,
  radius 5) that reads zero beyond every edge; the package uses scipy's exact Gaussian, mirrored at the left
  and right edges. On photos at JPEG quality 30 this moves the score by up to about 2 points.
- the number of scales: the reference checks that the previous scale is at least 8 pixels a side before
  halving it once more; the package checks the halved one, so a picture 113 to 224 pixels on its shorter side
  gets 5 scales from it instead of 6 (and smaller ones fewer).
Alpha is dropped, as the package does (its loader converts to RGB); the pairs scored here are opaque.

Usage: score.py ORIGINAL.png DISTORTED.png  ->  prints "<reference-faithful score> <package score>"
"""
import sys

import numpy as np
from PIL import Image
from ssimulacra2 import ssimulacra2 as package

RADIUS = 5
# n2 and d1 of the three cosines, as the reference stores them (single precision).
INPUT_WEIGHTS = np.array([0.05529523572608661, -0.05883668702694996, 0.012955819110517082], np.float32)
FEEDBACK = np.array([-1.902113032590307, -1.1755705045849463, -1.2246467991473532e-16], np.float32)


def recursive_pass(plane):
    """The recursion along axis 0, zero outside, output n centred on input n."""
    length = plane.shape[0]
    padded = np.zeros((length + 4 * RADIUS,) + plane.shape[1:])
    padded[2 * RADIUS:2 * RADIUS + length] = plane
    shape = (3,) + (1,) * (plane.ndim - 1)
    weights, feedback = INPUT_WEIGHTS.reshape(shape), FEEDBACK.reshape(shape)
    previous = np.zeros((3,) + plane.shape[1:])
    before = np.zeros_like(previous)
    out = np.zeros(plane.shape)
    for n in range(1 - RADIUS, length):
        total = padded[n + RADIUS - 1] + padded[n + 3 * RADIUS - 1]
        current = weights * total - feedback * previous - before
        before, previous = previous, current
        if n >= 0:
            out[n] = current.sum(axis=0)
    return out


def blur(image):
    rows = recursive_pass(np.swapaxes(image, 0, 1))
    return recursive_pass(np.swapaxes(rows, 0, 1))


def reference_score(original, distorted):
    linear1 = package.srgb_to_linear(original)
    linear2 = package.srgb_to_linear(distorted)
    metric = package.Msssim()
    for scale in range(package.kNumScales):
        if linear1.shape[0] < 8 or linear1.shape[1] < 8:
            break
        if scale:
            linear1 = package.downsample(linear1, 2, 2)
            linear2 = package.downsample(linear2, 2, 2)
        img1 = package.make_positive_xyb(package.linear_rgb_to_xyb(linear1))
        img2 = package.make_positive_xyb(package.linear_rgb_to_xyb(linear2))
        mu1, mu2 = blur(img1), blur(img2)
        data = package.MsssimScale()
        data.avg_ssim = package.ssim_map(mu1, mu2, blur(img1 * img1), blur(img2 * img2), blur(img1 * img2))
        data.avg_edgediff = package.edge_diff_map(img1, mu1, img2, mu2)
        metric.scales.append(data)
    return metric.score()


def scores(original_path, distorted_path):
    load = lambda path: np.array(Image.open(path).convert("RGB"), dtype=np.float64)
    faithful = reference_score(load(original_path), load(distorted_path))
    return faithful, package.compute_ssimulacra2_with_alpha(original_path, distorted_path)


if __name__ == "__main__":
    print("%.6f %.6f" % scores(sys.argv[1], sys.argv[2]))
