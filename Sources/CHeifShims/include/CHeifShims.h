/*
 * The part of libheif that Swift sees.
 *
 * Why a shim: libheif returns its errors as structs by value whose message may point into the
 * context, and its security limits are a struct reached through a pointer; both are simpler to
 * handle once in C. The shim only forwards: every limit arrives from Swift, no defaults live here.
 */
#ifndef CHEIF_SHIMS_H
#define CHEIF_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/* A libheif error, message copied. */
typedef struct vh_error {
    int code;       /* enum heif_error_code */
    int subcode;    /* enum heif_suberror_code */
    char message[512];
} vh_error;

typedef struct vh_limits {
    uint64_t max_pixels;        /* largest primary image, width x height */
    uint64_t max_memory_block;  /* largest single allocation libheif may make */
    uint32_t max_items;         /* items in the meta box */
    uint32_t max_tiles;         /* grid tiles */
    int threads;                /* decoding threads for grid tiles */
} vh_limits;

/* What the container says about its primary image; sizes are after irot/imir/clap. */
typedef struct vh_info {
    int width;
    int height;
    int has_alpha;
    int bit_depth;           /* luma bits per sample */
    int top_level_images;    /* images besides thumbnails and auxiliary planes */
    uint32_t item_type;      /* four-character code of the primary item: 'hvc1', 'av01', 'grid', ... */
    uint32_t coded_type;     /* four-character code of what is actually coded: a grid's first tile */
    int nclx_primaries;      /* the nclx colour description (ISO/IEC 23091-2 codes), 0 when there is none */
    int nclx_transfer;
    float nclx_xy[8];        /* white, red, green, blue chromaticities (x, y) of those primaries */
} vh_info;

typedef struct vh_context vh_context;

/* Parses the container from a copy of the bytes; pixels are not decoded. */
int vh_open(const void *bytes, size_t length, const vh_limits *limits, vh_context **out, vh_info *info,
            vh_error *error);

void vh_close(vh_context *context);

/* Decoded primary image: interleaved RGB or RGBA, rows packed (stride = width * bands * bytes per sample). */
typedef struct vh_pixels {
    void *data;
    int width;
    int height;
    int bands;
    int bits;            /* significant bits per sample: 8 (one byte each), or 9-16 (two bytes, little endian) */
    const void *icc;     /* ICC profile bytes or NULL; valid until vh_pixels_release */
    size_t icc_length;
    void *owner;         /* pass to vh_pixels_release */
} vh_pixels;

/* 8-bit samples, or with `keep_bit_depth` the coded depth kept (two bytes a sample above 8 bits): an HDR
 * picture is tone-mapped from those, not from libheif's 8-bit reduction of its signal. */
int vh_decode(vh_context *context, int keep_bit_depth, vh_pixels *out, vh_error *error);

/* Makes the next decodes of this context use the named decoder plugin ("ffmpeg", "libde265"); decoder_id
 * must outlive the context (a static string); NULL lets libheif choose by plugin priority. */
void vh_choose_decoder(vh_context *context, const char *decoder_id);

/* A copy (free with vh_free) of the primary image's first EXIF block (as libheif hands it: a 4-byte offset to
 * the TIFF header, then the block) or, with `xmp`, its first XMP packet; NULL when it has none of at most
 * `max_length` bytes. */
void *vh_copy_metadata(const vh_context *context, int xmp, size_t max_length, size_t *length);

/* 1 when a loaded libheif plugin decodes HEVC under this id. */
int vh_has_hevc_decoder(const char *decoder_id);

/* How a grid image is tiled, in displayed (transformed) coordinates; columns = rows = 1 when it is not. */
typedef struct vh_tiling {
    int columns;
    int rows;
    int tile_width;
    int tile_height;
    int left_offset;   /* how far the top-left tile starts left of the picture (a rotation can put the */
    int top_offset;    /* grid's excess on the left or top); above it, for top_offset */
} vh_tiling;

int vh_get_tiling(vh_context *context, vh_tiling *out, vh_error *error);

/* Decodes a grid image tile by tile, each tile averaged down by `factor` (a power of two that divides the
 * tile size and the offsets) into one small 8-bit RGB image: the full-size picture never exists in memory.
 * `threads` workers (at least one; how many is the caller's choice) each read the file through a context of
 * their own. Opaque pictures only. */
int vh_decode_reduced(vh_context *context, int factor, int threads, vh_pixels *out, vh_error *error);

/* One image of an overlay: the item shown and where its top-left corner goes on the canvas. */
typedef struct vh_placement {
    uint32_t item;
    int32_t x;
    int32_t y;
} vh_placement;

/* Composes an overlay: a width x height canvas of `fill` (RGBA, 16 bits a channel), each placed item decoded
 * (with its own transformations) and drawn over it in order, clipped to the canvas, blended by its alpha.
 * 8-bit RGB, or RGBA when the fill is not opaque; the colour profile is the context's primary item's. */
int vh_decode_overlay(vh_context *context, int width, int height, const uint16_t fill[4],
                      const vh_placement *placements, int count, vh_pixels *out, vh_error *error);

/* What an item's clean aperture (`clap`) crops from each side of a width x height image, as libheif rounds
 * it: left, top, right, bottom. 1 when the item has no clean aperture, 0 when `borders` is filled. */
int vh_crop_borders(vh_context *context, uint32_t item, int width, int height, int borders[4]);

/* Frees decoded pixels; its signature lets libvips call it when an image wrapping them closes. */
void vh_pixels_release(void *owner);

typedef struct vh_encode_options {
    int quality;    /* 1-100, libheif's lossy quality */
    int speed;      /* AV1 encoder speed 0 (slowest, smallest) to 9 (fastest) */
    int threads;    /* encoder threads */
    const void *exif;   /* a TIFF-structured EXIF block to attach to the image, or NULL */
    size_t exif_length;
    const void *xmp;    /* an XMP packet to attach to the image, or NULL */
    size_t xmp_length;
} vh_encode_options;

/* Encodes 8-bit interleaved sRGB pixels (3 or 4 bands, rows packed) as a still AVIF with an sRGB nclx
 * profile and no other metadata but the EXIF and XMP blocks the options hand over; free *bytes with vh_free. */
int vh_encode_avif(const void *pixels, int width, int height, int bands, const vh_encode_options *options,
                   void **bytes, size_t *length, vh_error *error);

void vh_free(void *bytes);

/* "1.19.7" */
const char *vh_version(void);

#endif
