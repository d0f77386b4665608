#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "CJPEGShims.h"
#include "error.h"

/* libvips' policy when told to fail on errors, kept so that either decoder refuses the same files: data that
 * ends before the picture does is fatal, and so are a hundred warnings; a lone corrupt-data warning is not. */
static void
vj_decode_emit_message(j_common_ptr info, int level)
{
    if (level >= 0)
        return;
    long warnings = ++info->err->num_warnings;
    if (info->err->msg_code == JWRN_JPEG_EOF || warnings >= 100)
        info->err->error_exit(info);
}

int
vj_decode(const void *bytes, size_t length, int shrink, size_t max_bytes, vj_picture *picture, vj_failure *failure)
{
    struct jpeg_decompress_struct info;
    vj_error error;
    /* volatile: written between setjmp and a longjmp back to it. */
    unsigned char *volatile pixels = NULL;

    memset(picture, 0, sizeof(*picture));
    failure->message[0] = '\0';
    info.err = vj_error_init(&error, failure->message, jpeg_std_error);
    error.manager.emit_message = vj_decode_emit_message;
    if (setjmp(error.recovery)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return -1;
    }
    jpeg_create_decompress(&info);
    /* libjpeg's own working memory (a progressive picture's coefficients, above all) is bounded too: past
     * four times the picture's cap it fails, having no backing store, instead of allocating what a header
     * declares. */
    info.mem->max_memory_to_use = (long) (max_bytes < LONG_MAX / 4 ? max_bytes * 4 : LONG_MAX);
    jpeg_mem_src(&info, (const unsigned char *) bytes, (unsigned long) length);
    jpeg_read_header(&info, TRUE);
    if (info.out_color_space != JCS_GRAYSCALE && info.out_color_space != JCS_RGB) {
        strcpy(failure->message, "only grey and YCbCr/RGB JPEGs are decoded here");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    info.scale_num = 1;
    info.scale_denom = (unsigned int) shrink;
    jpeg_start_decompress(&info);

    /* libjpeg rounds a scaled side up and fills the fraction of a pixel with what the IDCT gives; libvips' loader
     * rounds down, dropping it, and so do we, so that both decode the same pixels to the same size. */
    JDIMENSION width = info.image_width / (JDIMENSION) shrink, height = info.image_height / (JDIMENSION) shrink;
    if (width == 0 || height == 0) {
        strcpy(failure->message, "the picture is smaller than a pixel at that shrink");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    size_t stride = (size_t) info.output_width * (size_t) info.output_components;
    size_t kept = (size_t) width * (size_t) info.output_components;
    if (stride > max_bytes / height) {
        snprintf(failure->message, sizeof(failure->message), "the decoded picture would be over %zu bytes", max_bytes);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    pixels = malloc(stride * height);
    if (!pixels) {
        strcpy(failure->message, "out of memory for the decoded picture");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    JSAMPROW rows[16];
    while (info.output_scanline < height) {
        JDIMENSION count = height - info.output_scanline;
        if (count > 16)
            count = 16;
        for (JDIMENSION i = 0; i < count; i++)
            rows[i] = pixels + (size_t) (info.output_scanline + i) * stride;
        jpeg_read_scanlines(&info, rows, count);
    }
    if (kept < stride)
        for (JDIMENSION y = 1; y < height; y++)
            memmove(pixels + y * kept, pixels + y * stride, kept);
    picture->pixels = pixels;
    picture->width = (int) width;
    picture->height = (int) height;
    picture->bands = info.output_components;
    /* No jpeg_finish_decompress: it only reads the file's tail, which holds nothing we render. */
    jpeg_destroy_decompress(&info);
    return 0;
}
