/* Writes the HDR test pictures of Samples/pictures/hdr with libheif's C API (see README.md there). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>

static void check(struct heif_error e, const char *what) {
    if (e.code != heif_error_Ok) { fprintf(stderr, "%s: %s\n", what, e.message); exit(1); }
}

/* PQ inverse EOTF (SMPTE ST 2084): absolute luminance in cd/m2 to signal 0..1. */
static double pq(double nits) {
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                 c3 = 2392.0 / 4096 * 32;
    double y = pow(nits / 10000, m1);
    return pow((c1 + c2 * y) / (1 + c3 * y), m2);
}

typedef struct { double r, g, b; } rgb;  /* signal values 0..1 */

/* A picture of `count` patches of `size` pixels in a row, `rows` rows, 10-bit, encoded with nclx. */
static void write_patches(const char *path, const rgb *patches, int columns, int rows, int size, int transfer,
                          const char *format) {
    int width = columns * size, height = rows * size;
    struct heif_image *image;
    check(heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_444, &image), "create");
    enum heif_channel channels[3] = {heif_channel_R, heif_channel_G, heif_channel_B};
    for (int c = 0; c < 3; c++) {
        check(heif_image_add_plane(image, channels[c], width, height, 10), "plane");
        int stride;
        uint8_t *plane = heif_image_get_plane(image, channels[c], &stride);
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                const rgb *p = &patches[(y / size) * columns + x / size];
                double v = c == 0 ? p->r : c == 1 ? p->g : p->b;
                ((uint16_t *) (plane + (size_t) y * stride))[x] = (uint16_t) lround(v * 1023);
            }
    }
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    nclx->color_primaries = heif_color_primaries_ITU_R_BT_2020_2_and_2100_0;
    nclx->transfer_characteristics = transfer;
    nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_2020_2_non_constant_luminance;
    nclx->full_range_flag = 1;
    check(heif_image_set_nclx_color_profile(image, nclx), "nclx");

    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder;
    int avif = strcmp(format, "avif") == 0;
    check(heif_context_get_encoder_for_format(context, avif ? heif_compression_AV1 : heif_compression_HEVC,
                                              &encoder), "encoder");
    heif_encoder_set_lossy_quality(encoder, 95);
    check(heif_encoder_set_parameter(encoder, "chroma", "444"), "chroma");
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    options->output_nclx_profile = nclx;
    check(heif_context_encode_image(context, image, encoder, options, NULL), "encode");
    check(heif_context_write_to_file(context, path), "write");
    heif_encoding_options_free(options);
    heif_nclx_color_profile_free(nclx);
    heif_encoder_release(encoder);
    heif_image_release(image);
    heif_context_free(context);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[512];
    /* PQ: grey patches of known luminance, then a row of colours. */
    const double nits[12] = {0, 1, 10, 50, 100, 203, 400, 1000, 2000, 4000, 6000, 10000};
    rgb pqPatches[24];
    for (int i = 0; i < 12; i++) pqPatches[i] = (rgb){pq(nits[i]), pq(nits[i]), pq(nits[i])};
    const double colours[12][3] = {{100, 0, 0}, {0, 100, 0}, {0, 0, 100}, {203, 100, 50}, {1000, 0, 0},
                                   {0, 1000, 0}, {0, 0, 1000}, {1000, 500, 100}, {50, 203, 203},
                                   {4000, 4000, 0}, {203, 203, 203}, {10000, 10000, 10000}};
    for (int i = 0; i < 12; i++)
        pqPatches[12 + i] = (rgb){pq(colours[i][0]), pq(colours[i][1]), pq(colours[i][2])};
    snprintf(path, sizeof path, "%s/pq-patches.avif", dir);
    write_patches(path, pqPatches, 12, 2, 16, heif_transfer_characteristic_ITU_R_BT_2100_0_PQ, "avif");
    snprintf(path, sizeof path, "%s/pq-patches.heic", dir);
    write_patches(path, pqPatches, 12, 2, 16, heif_transfer_characteristic_ITU_R_BT_2100_0_PQ, "heic");
    /* The same grey patches capped at 203 cd/m2: a PQ picture whose brightest part is reference white. */
    rgb sdrRange[6];
    for (int i = 0; i < 6; i++) sdrRange[i] = pqPatches[i];
    snprintf(path, sizeof path, "%s/pq-to-203.avif", dir);
    write_patches(path, sdrRange, 6, 1, 16, heif_transfer_characteristic_ITU_R_BT_2100_0_PQ, "avif");
    /* HLG: grey signal levels; 0.75 is reference white (203 cd/m2 on a 1000 cd/m2 display, BT.2408). */
    const double signals[8] = {0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 1.0};
    rgb hlgPatches[8];
    for (int i = 0; i < 8; i++) hlgPatches[i] = (rgb){signals[i], signals[i], signals[i]};
    snprintf(path, sizeof path, "%s/hlg-patches.avif", dir);
    write_patches(path, hlgPatches, 8, 1, 16, heif_transfer_characteristic_ITU_R_BT_2100_0_HLG, "avif");
    return 0;
}
