"""The standard job (W1) done by a tool users would pick instead of variantd, timed as `variantd bench-worker` times it.

usage: w1.py TOOL ITERATIONS WARMUPS FILE...   (TOOL: pyvips, pillow, vipsthumbnail, imagemagick)

Per file: read, SHA-256, open, decode with orientation, width and height, a ThumbHash from a <= 100 x 100 RGBA
rendition (thumbhash-rs), and three variants with metadata stripped: thumb 200x200 cover WebP q75, medium
600x600 inside WebP q80, large 1600x1600 inside JPEG q82; never enlarged. Each tool uses its best method:
pyvips decodes once (shrink-on-load to the large size) and derives every variant from that; Pillow does the
same with draft(); vipsthumbnail is called once per output; ImageMagick once per file with -write chains.

A warm-up pass finds the files the tool cannot process (reported in "failed", not timed); then ITERATIONS timed
passes. Prints one JSON object in the shape of variantd's Measurement. Peak RSS is this process's for the
in-process tools and the largest child's for the command-line ones.
"""
import hashlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from thumbhash import rgba_to_thumb_hash

IMAGEMAGICK = "/usr/bin/convert-im6.q16"  # Debian's own binary, whatever else is called `convert` on PATH


def placeholder_hash(width, height, rgba):
    return rgba_to_thumb_hash(width, height, rgba)


class PyvipsW1:
    def __init__(self):
        import pyvips
        self.pyvips = pyvips
        self.keep = {"keep": 0} if pyvips.at_least_libvips(8, 15) else {"strip": True}
        self.name = "pyvips-once-%d.%d" % (pyvips.version(0), pyvips.version(1))

    def run(self, path, data, scratch):
        vips = self.pyvips
        header = vips.Image.new_from_buffer(data, "")
        width, height = header.width, header.height
        if header.get_typeof("orientation") and header.get("orientation") >= 5:
            width, height = height, width
        base = vips.Image.thumbnail_buffer(data, 1600, height=1600, size="down")
        if base.interpretation not in ("srgb",) or base.format != "uchar":
            base = base.colourspace("srgb")
        base = base.copy_memory()
        (base.flatten(background=255) if base.hasalpha() else base).jpegsave_buffer(Q=82, **self.keep)
        base.thumbnail_image(600, height=600, size="down").webpsave_buffer(Q=80, **self.keep)
        base.thumbnail_image(200, height=200, size="down", crop="centre").webpsave_buffer(Q=75, **self.keep)
        small = base.thumbnail_image(100, height=100, size="down")
        if not small.hasalpha():
            small = small.bandjoin(255)
        placeholder_hash(small.width, small.height, bytes(small.write_to_memory()))
        return width, height


class PillowW1:
    name = "pillow"

    def __init__(self):
        from PIL import Image, ImageOps
        import pillow_heif
        pillow_heif.register_heif_opener()
        self.Image, self.ImageOps = Image, ImageOps

    def run(self, path, data, scratch):
        Image, ImageOps = self.Image, self.ImageOps
        image = Image.open(io.BytesIO(data))
        width, height = image.size
        if image.getexif().get(0x0112, 1) >= 5:
            width, height = height, width
        scale = min(1.0, 1600 / max(width, height))
        image.draft("RGB", (max(1, int(width * scale)), max(1, int(height * scale))))
        image = ImageOps.exif_transpose(image)
        image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
        large = image.copy()
        large.thumbnail((1600, 1600), Image.LANCZOS)
        large.convert("RGB").save(io.BytesIO(), "JPEG", quality=82)
        medium = large.copy()
        medium.thumbnail((600, 600), Image.LANCZOS)
        medium.save(io.BytesIO(), "WEBP", quality=80)
        side = min(200, *large.size)
        ImageOps.fit(large, (side, side), Image.LANCZOS).save(io.BytesIO(), "WEBP", quality=75)
        small = large.copy()
        small.thumbnail((100, 100), Image.LANCZOS)
        small = small.convert("RGBA")
        placeholder_hash(small.width, small.height, small.tobytes())
        return width, height


def read_rgba_png(path):
    from PIL import Image
    with Image.open(path) as image:
        image = image.convert("RGBA")
        return image.width, image.height, image.tobytes()


class VipsthumbnailW1:
    name = "vipsthumbnail"

    def run(self, path, data, scratch):
        def call(size, output, *extra):
            subprocess.run(["vipsthumbnail", path, "-s", size, *extra, "-o", output],
                           check=True, capture_output=True)
        call("1600x1600>", os.path.join(scratch, "large.jpg[Q=82,strip]"))
        call("600x600>", os.path.join(scratch, "medium.webp[Q=80,strip]"))
        call("200x200>", os.path.join(scratch, "thumb.webp[Q=75,strip]"), "--smartcrop", "centre")
        call("100x100>", os.path.join(scratch, "placeholder.png"))
        placeholder_hash(*read_rgba_png(os.path.join(scratch, "placeholder.png")))
        return None, None


class ImageMagickW1:
    name = "imagemagick"

    def run(self, path, data, scratch):
        out = lambda name: os.path.join(scratch, name)
        subprocess.run([
            IMAGEMAGICK, "-define", "jpeg:size=3200x3200", path + "[0]", "-auto-orient", "-strip",
            "-colorspace", "sRGB", "-resize", "1600x1600>", "-quality", "82", "-write", out("large.jpg"),
            "(", "+clone", "-thumbnail", "200x200^>", "-gravity", "center", "-extent", "200x200",
            "-quality", "75", "-write", out("thumb.webp"), "+delete", ")",
            "-resize", "600x600>", "-quality", "80", "-write", out("medium.webp"),
            "-resize", "100x100>", out("placeholder.png"),
        ], check=True, capture_output=True)
        placeholder_hash(*read_rgba_png(out("placeholder.png")))
        return None, None


TOOLS = {"pyvips": PyvipsW1, "pillow": PillowW1, "vipsthumbnail": VipsthumbnailW1, "imagemagick": ImageMagickW1}


def main():
    tool_name, iterations, warmups, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    tool = TOOLS[tool_name]()
    scratch = tempfile.mkdtemp(prefix="variantd-anchor-")

    def once(path):
        start = time.perf_counter()
        with open(path, "rb") as handle:
            data = handle.read()
        hashlib.sha256(data).hexdigest()
        size = tool.run(path, data, scratch)
        return time.perf_counter() - start, size

    timed, failed = [], []
    for path in files:
        try:
            _, size = once(path)
            timed.append({"file": path, "seconds": [], "width": size[0], "height": size[1]})
        except Exception as error:  # any failure of the tool is a result: the file is reported, not timed
            message = getattr(error, "stderr", None) or str(error)
            if isinstance(message, bytes):
                message = message.decode("utf-8", "replace")
            failed.append({"file": path, "error": message.strip()[:300] or type(error).__name__})
    for _ in range(1, max(warmups, 1)):
        for image in timed:
            once(image["file"])
    started = time.perf_counter()
    for _ in range(iterations):
        for image in timed:
            image["seconds"].append(once(image["file"])[0])
    wall = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({
        "tool": tool.name, "jobs": 1, "iterations": iterations, "wall_seconds": wall,
        "peak_rss_kib": children if tool_name in ("vipsthumbnail", "imagemagick") else own,
        "images": timed, "failed": failed, "stages": {},
    }))


if __name__ == "__main__":
    main()
