"""The pyvips half of `variantd bench --quality`: each variant of the bucket rendered by pyvips (the libvips the
pyvips-binary wheel bundles) as declared, and the same thumbnail written losslessly, for the scorer to compare.

usage: quality.py OUT VARIANTS_JSON FILE...

VARIANTS_JSON is a list of {name, width, height (absent: no limit), fit (cover or inside), format (jpeg or
webp), quality, withoutEnlargement}. For each FILE (numbered from 0 in the order given) and variant:
pyvips.Image.thumbnail (EXIF orientation applied, crop="centre" for cover, size="down" without enlargement),
then jpegsave or webpsave at Q and libvips' defaults for everything else but metadata, which is not kept
(variantd strips it), into OUT/N-NAME.jpg|webp, and pngsave of the same image (for JPEG, flattened on white as
its JPEG is) into OUT/N-NAME.png. Prints one JSON object: {"tool", "files": [{file, renditions: {NAME: {lossy,
lossless, bytes, width, height}}} or {file, error}]}.
"""
import json
import os
import sys

import pyvips

NO_LIMIT = 10_000_000


def render(path, index, variant, out):
    image = pyvips.Image.thumbnail(
        path, variant.get("width") or NO_LIMIT, height=variant.get("height") or NO_LIMIT,
        crop="centre" if variant["fit"] == "cover" else "none",
        size="down" if variant["withoutEnlargement"] else "both").copy_memory()
    keep = {"keep": 0} if pyvips.at_least_libvips(8, 15) else {"strip": True}
    stem = os.path.join(out, "%d-%s" % (index, variant["name"]))
    if variant["format"] == "jpeg":
        lossy = stem + ".jpg"
        image = image.flatten(background=255) if image.hasalpha() else image
        encoded = image.jpegsave_buffer(Q=variant["quality"], **keep)
    else:
        lossy = stem + ".webp"
        encoded = image.webpsave_buffer(Q=variant["quality"], **keep)
    with open(lossy, "wb") as file:
        file.write(encoded)
    image.pngsave(stem + ".png", **keep)
    return {"lossy": lossy, "lossless": stem + ".png", "bytes": len(encoded),
            "width": image.width, "height": image.height}


def main():
    out, variants, files = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
    results = []
    for index, path in enumerate(files):
        try:
            results.append({"file": path, "renditions": {
                variant["name"]: render(path, index, variant, out) for variant in variants}})
        except pyvips.Error as error:
            results.append({"file": path, "error": str(error).strip()[:300]})
    print(json.dumps({"tool": "pyvips-%d.%d" % (pyvips.version(0), pyvips.version(1)), "files": results}))


if __name__ == "__main__":
    main()
