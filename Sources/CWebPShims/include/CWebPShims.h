/*
 * WebP output through libwebp directly.
 *
 * Why not libvips' saver: libvips 8.14's webpsave writes a generated EXIF chunk even with strip set, and
 * renditions must carry no metadata but what a variant keeps. Calling libwebp also lets the encoder use more than one thread.
 * The shim only forwards: every setting arrives from Swift.
 */
#ifndef CWEBP_SHIMS_H
#define CWEBP_SHIMS_H

#include <stddef.h>

typedef struct vw_options {
    float quality;   /* 0-100 */
    int method;      /* libwebp effort, 0 (fast) to 6 (slow, smaller) */
    int threads;     /* 1: use one thread; >1: let libwebp use its worker thread */
} vw_options;

/* Encodes 8-bit interleaved RGB or RGBA (rows packed) as a lossy WebP with no metadata chunk.
 * Returns 0 and a buffer to free with vw_free, or a libwebp error code (> 0). */
int vw_encode(const void *pixels, int width, int height, int bands, const vw_options *options, void **bytes,
              size_t *length);

/* Encodes frames of 8-bit RGB or RGBA (each width x height, rows packed) as a lossy animated WebP that
 * shows frame i for delays[i] milliseconds and plays `loop` times (0: forever), with no metadata chunk.
 * libwebp's animation encoder finds the changed rectangle of each frame and its disposal itself.
 * Returns 0 and a buffer to free with vw_free, or a libwebp error code (> 0). */
int vw_encode_animation(const void *const *frames, int count, int width, int height, int bands, const int *delays,
                        int loop, const vw_options *options, void **bytes, size_t *length);

/* The WebP in `bytes` with an EXIF chunk (a TIFF-structured block) and an XMP chunk added, either may be NULL
 * (an extended header then says so); the file is rewritten through libwebp's muxer, its image data unchanged.
 * Returns 0 and a buffer to free with vw_free, or a WebPMuxError (< 0). */
int vw_add_metadata(const void *webp, size_t webp_length, const void *exif, size_t exif_length, const void *xmp,
                    size_t xmp_length, void **bytes, size_t *length);

void vw_free(void *bytes);

#endif
