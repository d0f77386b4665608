/*
 * The whole surface of libvips that Swift sees.
 *
 * Why a shim: Swift cannot call C variadic functions (every vips operation takes NULL-terminated
 * optional arguments) nor function-like macros (VIPS_INIT). Each function here forwards to one
 * libvips operation with every option passed explicitly; the shim makes no decisions. Errors are
 * copied into a vv_error the caller owns, so Swift never reads libvips' global error buffer.
 *
 * Conventions: functions return 0 on success and -1 on failure with *error filled. Output images
 * are new references the caller releases with vv_unref; input images are borrowed.
 */
#ifndef CVIPS_SHIMS_H
#define CVIPS_SHIMS_H

#include <stddef.h>
#include <stdint.h>

typedef struct _VipsImage VipsImage;

/* An error copied out of libvips. */
typedef struct vv_error {
    char message[1024];
} vv_error;

/* Starts libvips once per process, turns the operation cache off and sets the worker-thread count. */
int vv_init(const char *program_name, int concurrency, vv_error *error);

/* glibc's mallopt for the process libvips runs in: at most `arenas` arenas, blocks under `heap_limit` bytes
 * from the heap, free memory at the heap's top kept up to `kept_free` bytes. A setting glibc refuses stays at
 * its default: the process runs as before, only slower. */
void vv_set_allocator(int arenas, int heap_limit, int kept_free);

/* "8.16.1": the libvips running. */
const char *vv_version(void);

/* The libvips version of the headers this shim was compiled against. */
const char *vv_header_version(void);

/* The file the running libvips was loaded from; "" when the loader cannot say. */
const char *vv_library_path(void);

/* The libraries behind libvips' document loaders, for `--version`. */
typedef enum vv_loader_library {
    VV_LIBRARY_RSVG = 0,
    VV_LIBRARY_POPPLER = 1,
    VV_LIBRARY_TIFF = 2,
    VV_LIBRARY_JXL = 3,
} vv_loader_library;

/* "2.54.7": the version of that library in this process, read through the symbol it exports for it (libvips
 * links it; the shim does not), or "" when none is loaded. The string lives until the next call on the same
 * thread. */
const char *vv_loader_library_version(vv_loader_library library);

/* vips_block_untrusted_set: blocks (1) or unblocks (0) every operation libvips marks untrusted. */
void vv_block_untrusted(int blocked);

/* vips_operation_block_set: blocks (1) or unblocks (0) the named operation class and all its subclasses. */
void vv_block_operation(const char *name, int blocked);

/* One concrete loader class of the running libvips. The names are GType names, valid for the process. */
typedef struct vv_loader_class {
    const char *name;    /* "VipsForeignLoadJpegBuffer" */
    const char *family;  /* its parent class, "VipsForeignLoadJpeg" */
    int blocked;         /* 1 when VIPS_OPERATION_BLOCKED is set */
} vv_loader_class;

/* Fills out[0..capacity) with the loaders this libvips was built with and returns how many there are
 * (which may exceed capacity: call again with more room). */
size_t vv_list_loaders(vv_loader_class *out, size_t capacity);

/* 1 when libvips' generic "load anything" entry opens these bytes: used only by the start-up self-check,
 * on bytes we make, to prove blocked loaders stay blocked; never on user bytes. */
int vv_generic_loader_opens(const void *bytes, size_t length);

/* Loaders we call by name; the generic "load anything" entry is never used on user bytes. */
typedef enum vv_loader {
    VV_LOADER_JPEG = 0,
    VV_LOADER_PNG = 1,
    VV_LOADER_WEBP = 2,
    VV_LOADER_GIF = 3,
    VV_LOADER_TIFF = 4,
    VV_LOADER_SVG = 5,
    VV_LOADER_PDF = 6,
    VV_LOADER_JXL = 7,
} vv_loader;

typedef struct vv_load_options {
    int shrink;      /* JPEG only: shrink-on-load factor 1, 2, 4 or 8 */
    double scale;    /* WebP: scale-on-load factor in (0, 1]; SVG and PDF: the factor they render at */
    int fail_on;     /* VipsFailOn: 0 none, 1 truncated, 2 error, 3 warning */
    int sequential;  /* 1: pixels are read once, top to bottom (less memory) */
    int pages;       /* GIF and WebP: frames to load, stacked top to bottom; -1 for all, 0 or 1 for the first;
                      * TIFF, PDF and JPEG XL: always the first page */
} vv_load_options;

/* Opens an image from a copy of the bytes (header only; pixels are decoded when first needed). */
int vv_load(vv_loader loader, const void *bytes, size_t length, const vv_load_options *options,
            VipsImage **out, vv_error *error);

/* What the header says. */
typedef struct vv_image_info {
    int width;          /* stored width, before orientation */
    int height;         /* stored height */
    int bands;          /* channels, alpha included */
    int bits;           /* bits per sample: 8, 16, 32 or 64 */
    int orientation;    /* EXIF orientation 1-8; 1 when absent */
    int has_alpha;      /* 1 when the last band is alpha */
    int pages;          /* frames or pages; 1 for a still picture */
    int interlaced;     /* 1 for progressive JPEG and interlaced PNG/GIF */
    int has_icc;        /* 1 when an ICC profile is attached */
    int is_cmyk;        /* 1 when the pixels are CMYK */
} vv_image_info;

void vv_image_get_info(VipsImage *image, vv_image_info *info);

/* An animation loaded with all its pages: the height of one frame, the loop count (0 forever) and up to
 * `capacity` frame delays in milliseconds; returns how many delays were copied. */
int vv_image_get_animation(VipsImage *image, int *page_height, int *loop, int *delays, int capacity);

/* Wraps pixels that someone else owns: 8-bit interleaved, rows packed. release(owner) runs when the
 * image closes. */
int vv_image_new_from_pixels(void *pixels, int width, int height, int bands,
                             void (*release)(void *owner), void *owner, VipsImage **out, vv_error *error);

/* Attaches an ICC profile (copied) so vv_to_srgb can honour it. */
void vv_image_set_icc(VipsImage *image, const void *profile, size_t length);

/* Tags the image with an EXIF orientation (1-8), which vv_autorotate then applies. */
void vv_image_set_orientation(VipsImage *image, int orientation);

/* Gives `image` what a rendition keeps of `source`'s description: its resolution, ICC profile and
 * orientation. */
void vv_image_take_description(VipsImage *image, VipsImage *source);

/* The attached ICC profile, borrowed from the image (valid while it lives); 0 when there is none. */
size_t vv_image_get_icc(VipsImage *image, const void **profile);

/* A metadata block a loader attached, borrowed from the image (valid while it lives): the EXIF block as the
 * file holds it (JPEG's with its "Exif\0\0" signature) or the XMP packet; 0 when there is none. */
typedef enum vv_metadata_block {
    VV_METADATA_EXIF = 0,
    VV_METADATA_XMP = 1,
} vv_metadata_block;

size_t vv_image_get_metadata(VipsImage *image, vv_metadata_block block, const void **data);

/* Whether libvips would convert through the attached ICC profile rather than a stand-in of its own: lcms
 * opens it, libvips converts its colour space, and its channels are the image's (grey, RGB or CMYK). */
int vv_image_icc_fits(VipsImage *image);

/* Removes the attached ICC profile, if any. */
void vv_image_remove_icc(VipsImage *image);

/* Applies the EXIF orientation and removes the tag. An upright image is handed back itself (a new
 * reference), not wrapped in a copy operation: a decode already in memory stays there. */
int vv_autorotate(VipsImage *in, VipsImage **out, vv_error *error);

/* What became of an image's colour profile in vv_to_srgb. */
typedef enum vv_profile {
    VV_PROFILE_NONE = 0,       /* none embedded (CMYK then goes through libvips' built-in CMYK profile) */
    VV_PROFILE_CONVERTED = 1,  /* the embedded profile was honoured */
    VV_PROFILE_IGNORED = 2,    /* lcms could not use it; the pixels were treated as having none */
} vv_profile;

/* Converts to 8-bit sRGB (3 bands, or 4 with alpha): an embedded ICC profile is honoured with the given
 * rendering intent (VipsIntent: 0 perceptual, 1 relative colorimetric, 2 saturation, 3 absolute), CMYK,
 * 16-bit and grey are converted, alpha is kept, and 16-bit samples are reduced only after conversion.
 * A negative intent leaves the embedded profile unapplied (the caller found it to be sRGB). */
int vv_to_srgb(VipsImage *in, int intent, VipsImage **out, int *profile, vv_error *error);

/* Resamples by independent horizontal and vertical factors with a Lanczos-3 kernel, alpha premultiplied. */
int vv_resize(VipsImage *in, double hscale, double vscale, VipsImage **out, vv_error *error);

/* Rotates by 90, 180 or 270 degrees clockwise. */
int vv_rotate(VipsImage *in, int degrees, VipsImage **out, vv_error *error);

int vv_crop(VipsImage *in, int left, int top, int width, int height, VipsImage **out, vv_error *error);

/* Mirrors left to right (horizontal 1) or top to bottom (horizontal 0). */
int vv_flip(VipsImage *in, int horizontal, VipsImage **out, vv_error *error);

/* The bounding box of what differs from a background colour (one value per band, alpha excluded) by more
 * than threshold, after a 3x3 median that ignores noise; width and height are 0 when nothing does. */
int vv_find_trim(VipsImage *in, double threshold, const double *background, int bands, int *left, int *top,
                 int *width, int *height, vv_error *error);

/* Crops to width x height where libvips finds the most interest: 0 entropy, 1 attention. Reports the top
 * left corner of the rectangle it chose. */
int vv_smartcrop(VipsImage *in, int width, int height, int strategy, VipsImage **out, int *left, int *top,
                 vv_error *error);

/* Places the image at (left, top) on a width x height canvas of an RGBA colour (0-255). */
int vv_embed(VipsImage *in, int left, int top, int width, int height, const double rgba[4],
             VipsImage **out, vv_error *error);

/* Composes alpha onto an RGB colour (0-255) and drops the alpha band. */
int vv_flatten(VipsImage *in, const double rgb[3], VipsImage **out, vv_error *error);

/* Composes `overlay` over `base` with its top left corner at (x, y), its alpha (an opaque one when it has
 * none) multiplied by `opacity` (0-1); the result has base's bands, 8-bit. */
int vv_overlay(VipsImage *base, VipsImage *overlay, int x, int y, double opacity, VipsImage **out,
               vv_error *error);

/* Gaussian blur of the given sigma, alpha premultiplied so transparent pixels do not darken the edges. */
int vv_gaussblur(VipsImage *in, double sigma, VipsImage **out, vv_error *error);

int vv_sharpen(VipsImage *in, double sigma, VipsImage **out, vv_error *error);

/* Decodes every pixel into memory now, so decode errors surface here and later steps reuse them. */
int vv_materialize(VipsImage *in, VipsImage **out, vv_error *error);

/* The pixels of an 8-bit image held in memory (materialised, or adopted), borrowed: valid while the image
 * lives; NULL for an image computed on demand. */
const void *vv_image_memory(VipsImage *in, size_t *length);

/* Copies the pixels out, 8-bit interleaved; free *bytes with vv_free. */
int vv_write_pixels(VipsImage *in, void **bytes, size_t *length, vv_error *error);

/* Copies the pixels out as RGB or RGBA of 16 bits a sample (native endian), for a signal that must not lose
 * precision before it is mapped: 8-bit samples are scaled by 257, float ones from [0, 1] (clipped), grey
 * is repeated into three bands. *bands is 3 or 4; free *bytes with vv_free. */
int vv_write_words(VipsImage *in, void **bytes, size_t *length, int *bands, vv_error *error);

/* A PNG (effort 1-10: zlib level effort - 1) with all metadata stripped; free *bytes with vv_free. JPEG,
 * WebP and AVIF are encoded by their libraries directly. */
int vv_save_png(VipsImage *in, int effort, void **bytes, size_t *length, vv_error *error);

void vv_unref(VipsImage *image);

void vv_free(void *bytes);

#endif
