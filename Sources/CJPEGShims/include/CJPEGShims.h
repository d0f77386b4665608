#ifndef CJPEGSHIMS_H
#define CJPEGSHIMS_H

#include <stddef.h>

typedef struct vj_options {
    int quality;         /* 1 to 100, jpegli's scale (not libjpeg's: JPEGQualityScale maps one to the other) */
    int progressive;     /* nonzero: a progressive scan script instead of one baseline scan */
    int optimize_coding; /* nonzero: Huffman tables fitted to the picture (a second pass) */
    int subsample_chroma; /* nonzero: chroma at half the resolution both ways (4:2:0); RGB only */
    const void *exif;     /* a TIFF-structured EXIF block to write as APP1, or NULL */
    size_t exif_length;   /* at most 65527 bytes */
    const void *xmp;      /* an XMP packet to write as APP1, or NULL */
    size_t xmp_length;    /* at most 65504 bytes */
} vj_options;

/* libjpeg's own words for a failure (its messages fit JMSG_LENGTH_MAX, 200 bytes). */
typedef struct vj_failure {
    char message[200];
} vj_failure;

/* Encodes (with jpegli) `height` rows of `width` 8-bit pixels of 1 (grey) or 3 (RGB) bands, `stride` bytes apart, with no
 * metadata but the EXIF and XMP blocks the options hand over. On success returns 0 and hands over the file in `*bytes` (free with vj_free); on failure returns
 * -1 and says why in `failure`. */
int vj_encode(const void *pixels, int width, int height, int bands, size_t stride, const vj_options *options,
              void **bytes, size_t *length, vj_failure *failure);

/* A decoded picture: `height` rows of `width` pixels of `bands` 8-bit samples, packed. */
typedef struct vj_picture {
    void *pixels; /* free with vj_free */
    int width;
    int height;
    int bands;
} vj_picture;

/* Decodes (with libjpeg-turbo) a grey or YCbCr JPEG to grey or RGB at 1/`shrink` of its size (1, 2, 4 or 8), refusing to allocate
 * more than `max_bytes` for it. On success returns 0; on failure returns -1 and says why in `failure`. */
int vj_decode(const void *bytes, size_t length, int shrink, size_t max_bytes, vj_picture *picture,
              vj_failure *failure);

void vj_free(void *bytes);

#endif
