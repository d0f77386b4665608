#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jpegli/encode.h"

#include "CJPEGShims.h"
#include "error.h"

/* Warnings (a corrupt-data notice, which an encoder does not meet) are not failures. */
static void
vj_output_message(j_common_ptr info)
{
    (void) info;
}

/* The progressive scan script: DC first (luma alone, then both chroma components together), then each
 * component's two lowest AC coefficients, then the rest of each, by spectral selection only. jpegli's own
 * script, with successive approximation, is no smaller on photos at three times the extra time: each
 * refinement scan is one more pass over every coefficient. */
static const jpeg_scan_info vj_colour_scans[] = {
    {1, {0}, 0, 0, 0, 0},  {2, {1, 2}, 0, 0, 0, 0},  {1, {0}, 1, 2, 0, 0},  {1, {1}, 1, 2, 0, 0},
    {1, {2}, 1, 2, 0, 0}, {1, {0}, 3, 63, 0, 0}, {1, {1}, 3, 63, 0, 0}, {1, {2}, 3, 63, 0, 0},
};
static const jpeg_scan_info vj_grey_scans[] = {
    {1, {0}, 0, 0, 0, 0},
    {1, {0}, 1, 2, 0, 0},
    {1, {0}, 3, 63, 0, 0},
};

/* An APP1 segment: its signature, then the block. Segments over 65533 bytes are left out (the caller bounds
 * them well below). */
static void
vj_write_app1(j_compress_ptr info, const char *signature, size_t signature_length, const void *block,
              size_t length)
{
    if (!block || length == 0 || signature_length + length > 65533)
        return;
    unsigned char *segment = malloc(signature_length + length);
    if (!segment)
        return;
    memcpy(segment, signature, signature_length);
    memcpy(segment + signature_length, block, length);
    jpegli_write_marker(info, JPEG_APP0 + 1, segment, (unsigned int) (signature_length + length));
    free(segment);
}

/* Through jpegli, libjxl's libjpeg-compatible encoder: plain 8-bit JPEG that any decoder reads, with
 * quantisation tuned to the eye and adapted to each block's content. No JFIF header is written, and no
 * other marker but the EXIF and XMP blocks the caller hands over. */
int
vj_encode(const void *pixels, int width, int height, int bands, size_t stride, const vj_options *options,
          void **bytes, size_t *length, vj_failure *failure)
{
    struct jpeg_compress_struct info;
    vj_error error;
    /* volatile: written between setjmp and a longjmp back to it. */
    unsigned char *volatile output = NULL;
    unsigned long volatile size = 0;

    failure->message[0] = '\0';
    if (bands != 1 && bands != 3) {
        strcpy(failure->message, "JPEG takes 1 or 3 bands");
        return -1;
    }
    info.err = vj_error_init(&error, failure->message, jpegli_std_error);
    error.manager.output_message = vj_output_message;
    if (setjmp(error.recovery)) {
        jpegli_destroy_compress(&info);
        free(output);
        return -1;
    }
    jpegli_create_compress(&info);
    jpegli_mem_dest(&info, (unsigned char **) &output, (unsigned long *) &size);

    info.image_width = (JDIMENSION) width;
    info.image_height = (JDIMENSION) height;
    info.input_components = bands;
    info.in_color_space = bands == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpegli_set_defaults(&info);
    info.optimize_coding = options->optimize_coding ? TRUE : FALSE;
    if (options->progressive) {
        info.scan_info = bands == 3 ? vj_colour_scans : vj_grey_scans;
        info.num_scans = bands == 3 ? (int) (sizeof vj_colour_scans / sizeof *vj_colour_scans)
                                    : (int) (sizeof vj_grey_scans / sizeof *vj_grey_scans);
    }
    int luma = bands == 3 && options->subsample_chroma ? 2 : 1;
    info.comp_info[0].h_samp_factor = info.comp_info[0].v_samp_factor = luma;
    for (int i = 1; i < bands; i++)
        info.comp_info[i].h_samp_factor = info.comp_info[i].v_samp_factor = 1;
    /* After the sampling: jpegli scales its tables for the chroma resolution they will quantise. Baseline:
     * 8-bit quantisation tables, which every decoder accepts. */
    jpegli_set_quality(&info, options->quality, TRUE);
    info.write_JFIF_header = FALSE;

    jpegli_start_compress(&info, TRUE);
    vj_write_app1(&info, "Exif\0\0", 6, options->exif, options->exif_length);
    vj_write_app1(&info, "http://ns.adobe.com/xap/1.0/", 29, options->xmp, options->xmp_length);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW) ((const unsigned char *) pixels + (size_t) info.next_scanline * stride);
        jpegli_write_scanlines(&info, &row, 1);
    }
    jpegli_finish_compress(&info);
    jpegli_destroy_compress(&info);

    *bytes = output;
    *length = size;
    return 0;
}
