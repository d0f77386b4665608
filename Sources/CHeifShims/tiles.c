#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>

#include "context.h"

int
vh_get_tiling(vh_context *context, vh_tiling *out, vh_error *error)
{
    struct heif_image_tiling tiling;
    memset(&tiling, 0, sizeof(tiling));
    struct heif_error status = heif_image_handle_get_image_tiling(context->primary, 1, &tiling);
    if (status.code != heif_error_Ok)
        return vh_fail(error, status);
    out->columns = (int) tiling.num_columns;
    out->rows = (int) tiling.num_rows;
    out->tile_width = (int) tiling.tile_width;
    out->tile_height = (int) tiling.tile_height;
    /* libheif 1.19 reports a non-zero offset when a rotation or mirror moves the grid's excess (the part of
     * the last tiles beyond the picture) to the left or top, but its value there is tile size minus excess;
     * the shift itself is the excess, so it is computed here from the sizes. */
    int excess_x = out->columns * out->tile_width - heif_image_handle_get_width(context->primary);
    int excess_y = out->rows * out->tile_height - heif_image_handle_get_height(context->primary);
    out->left_offset = tiling.left_offset ? excess_x : 0;
    out->top_offset = tiling.top_offset ? excess_y : 0;
    return 0;
}

/* One worker's share: tiles whose index modulo `stride` is `first`, added into disjoint blocks of `sums`. */
struct vh_share {
    const vh_context *context;
    vh_tiling tiling;
    int factor;
    int first;
    int stride;
    int width;          /* the picture, displayed */
    int height;
    int reduced_width;
    uint16_t *sums;     /* reduced_width x reduced_height x 3; a block of at most 16 x 16 totals 65,280 */
    struct heif_error status;
};

static void
add_tile(struct vh_share *share, const uint8_t *plane, int stride, int tile_x, int tile_y, int tile_width,
         int tile_height)
{
    int shift = __builtin_ctz((unsigned) share->factor);
    for (int y = 0; y < tile_height; y++) {
        int image_y = tile_y + y;
        if (image_y < 0 || image_y >= share->height)
            continue;
        const uint8_t *row = plane + (size_t) y * (size_t) stride;
        uint16_t *sums_row = share->sums + (size_t) (image_y >> shift) * (size_t) share->reduced_width * 3;
        for (int x = 0; x < tile_width; x++) {
            int image_x = tile_x + x;
            if (image_x < 0 || image_x >= share->width)
                continue;
            uint16_t *sum = sums_row + (size_t) (image_x >> shift) * 3;
            sum[0] += row[x * 3];
            sum[1] += row[x * 3 + 1];
            sum[2] += row[x * 3 + 2];
        }
    }
}

/* How a tile's Y'CbCr becomes R'G'B': luma's offset and scale to full range, chroma's scale, and the
 * matrix's weights (R = Y + rv V, G = Y - gu U - gv V, B = Y + bu U, with U and V centred and scaled). */
struct vh_conversion {
    double y_offset, y_scale, c_scale, rv, gu, gv, bu;
};

/* The conversion for the matrices phone HEICs use: BT.709 (1), BT.601 (5, 6) and BT.2020 non-constant (9).
 * Returns 0 for any other matrix. */
static int
conversion_of(const struct heif_color_profile_nclx *nclx, struct vh_conversion *out)
{
    double kr, kb;
    switch (nclx->matrix_coefficients) {
    case heif_matrix_coefficients_ITU_R_BT_709_5: kr = 0.2126; kb = 0.0722; break;
    case heif_matrix_coefficients_ITU_R_BT_470_6_System_B_G:
    case heif_matrix_coefficients_ITU_R_BT_601_6: kr = 0.299; kb = 0.114; break;
    case heif_matrix_coefficients_ITU_R_BT_2020_2_non_constant_luminance: kr = 0.2627; kb = 0.0593; break;
    default: return 0;
    }
    int full_range = nclx->full_range_flag != 0;
    double kg = 1 - kr - kb;
    *out = (struct vh_conversion){
        .y_offset = full_range ? 0 : 16,
        .y_scale = full_range ? 1 : 255.0 / 219,
        .c_scale = full_range ? 1 : 255.0 / 224,
        .rv = 2 * (1 - kr),
        .gu = 2 * kb * (1 - kb) / kg,
        .gv = 2 * kr * (1 - kr) / kg,
        .bu = 2 * (1 - kb),
    };
    return 1;
}

/* Adds rows [first_row, end_row) of one plane, columns [first_column, end_column), into per-block totals:
 * column x belongs to block x / run. Each block's run is summed in a register first (the compiler vectorises
 * it), so consecutive samples do not wait on the same total in memory. */
static void
sum_rows(const uint8_t *plane, int stride, int first_row, int end_row, int first_column, int end_column, int run,
         uint32_t *totals)
{
    for (int y = first_row; y < end_row; y++) {
        const uint8_t *samples = plane + (size_t) y * (size_t) stride;
        for (int start = first_column; start < end_column;) {
            int block = start / run;
            int end = (block + 1) * run < end_column ? (block + 1) * run : end_column;
            uint32_t sum = 0;
            for (int x = start; x < end; x++)
                sum += samples[x];
            totals[block] += sum;
            start = end;
        }
    }
}

/* Halves an 8-bit 4:2:0 tile, its first `width` x `height` pixels (both even; the part inside the picture).
 * Each 2x2 block of luma has exactly one chroma sample, so the block's mean converts in integers (weights in
 * Q14) in one pass over the planes, into block totals (4 x the value) as add_tile makes them. This is the path
 * of a 12-megapixel phone HEIC rendered at 1600 pixels: libheif's own conversion upsampled the chroma of every
 * pixel first, and converting each block in floating point cost more than that. */
static void
add_halved_tile(struct vh_share *share, const uint8_t *luma, int y_stride, const uint8_t *cb, int cb_stride,
                const uint8_t *cr, int cr_stride, int tile_x, int tile_y, int width, int height,
                const struct vh_conversion *conversion)
{
    enum { q = 14 };
    /* Four samples' worth of each weight, so the result is the block's total. */
    double one = 1 << q, chroma = 4 * conversion->c_scale * one;
    int32_t ys = (int32_t) (conversion->y_scale * one + 0.5);
    int32_t rv = (int32_t) (conversion->rv * chroma + 0.5);
    int32_t gu = (int32_t) (conversion->gu * chroma + 0.5);
    int32_t gv = (int32_t) (conversion->gv * chroma + 0.5);
    int32_t bu = (int32_t) (conversion->bu * chroma + 0.5);
    int32_t offset4 = (int32_t) (4 * conversion->y_offset);
    int blocks_across = width / 2;
    for (int by = 0; by < height / 2; by++) {
        const uint8_t *top = luma + (size_t) (2 * by) * (size_t) y_stride;
        const uint8_t *bottom = top + y_stride;
        const uint8_t *cb_row = cb + (size_t) by * (size_t) cb_stride;
        const uint8_t *cr_row = cr + (size_t) by * (size_t) cr_stride;
        uint16_t *sums = share->sums
                         + ((size_t) (tile_y / 2 + by) * (size_t) share->reduced_width + (size_t) (tile_x / 2)) * 3;
        for (int bx = 0; bx < blocks_across; bx++) {
            int32_t luma4 = top[2 * bx] + top[2 * bx + 1] + bottom[2 * bx] + bottom[2 * bx + 1] - offset4;
            int32_t base = luma4 * ys + (1 << (q - 1));
            int32_t u = cb_row[bx] - 128, v = cr_row[bx] - 128;
            int32_t rgb[3] = {(base + rv * v) >> q, (base - gu * u - gv * v) >> q, (base + bu * u) >> q};
            for (int band = 0; band < 3; band++)
                sums[3 * bx + band] = (uint16_t) (rgb[band] < 0 ? 0 : rgb[band] > 1020 ? 1020 : rgb[band]);
        }
    }
}

/* Averages an 8-bit 4:2:0 tile block by block in YCbCr and converts only the means to RGB, into the block
 * totals add_tile would have made (mean × pixels, so one final division serves both). The conversion is
 * affine, so the mean commutes with it: libheif's per-pixel conversion and chroma upsampling of a
 * 200-megapixel picture are skipped. Returns 0, touching nothing, when the tile is laid out otherwise. */
static int
add_planar_tile(struct vh_share *share, const struct heif_image *tile, int tile_x, int tile_y)
{
    if (heif_image_get_colorspace(tile) != heif_colorspace_YCbCr
        || heif_image_get_chroma_format(tile) != heif_chroma_420
        || heif_image_get_bits_per_pixel_range(tile, heif_channel_Y) != 8
        || heif_image_get_bits_per_pixel_range(tile, heif_channel_Cb) != 8
        || heif_image_get_bits_per_pixel_range(tile, heif_channel_Cr) != 8)
        return 0;
    struct heif_color_profile_nclx *nclx = NULL;
    struct vh_conversion conversion;
    if (heif_image_get_nclx_color_profile(tile, &nclx).code != heif_error_Ok || !nclx)
        return 0;
    int known = conversion_of(nclx, &conversion);
    heif_nclx_color_profile_free(nclx);
    if (!known)
        return 0;
    int y_stride = 0, cb_stride = 0, cr_stride = 0;
    const uint8_t *luma = heif_image_get_plane_readonly(tile, heif_channel_Y, &y_stride);
    const uint8_t *cb = heif_image_get_plane_readonly(tile, heif_channel_Cb, &cb_stride);
    const uint8_t *cr = heif_image_get_plane_readonly(tile, heif_channel_Cr, &cr_stride);
    if (!luma || !cb || !cr)
        return 0;

    int factor = share->factor;
    int shift = __builtin_ctz((unsigned) factor);
    int tile_width = heif_image_get_primary_width(tile);
    int tile_height = heif_image_get_primary_height(tile);
    /* The part of the tile inside the picture; tile_x and tile_y are multiples of the factor. */
    int left = tile_x < 0 ? -tile_x : 0;
    int top = tile_y < 0 ? -tile_y : 0;
    int right = tile_x + tile_width > share->width ? share->width - tile_x : tile_width;
    int bottom = tile_y + tile_height > share->height ? share->height - tile_y : tile_height;
    if (right <= left || bottom <= top)
        return 1;
    if (factor == 2 && left == 0 && top == 0 && right % 2 == 0 && bottom % 2 == 0) {
        add_halved_tile(share, luma, y_stride, cb, cb_stride, cr, cr_stride, tile_x, tile_y, right, bottom,
                        &conversion);
        return 1;
    }
    int blocks = (tile_width + factor - 1) / factor;
    uint32_t *totals = calloc((size_t) blocks * 3, sizeof(*totals));
    if (!totals)
        return 0;
    for (int band_top = top - top % factor; band_top < bottom; band_top += factor) {
        int first = band_top > top ? band_top : top;
        int end = band_top + factor < bottom ? band_top + factor : bottom;
        memset(totals, 0, (size_t) blocks * 3 * sizeof(*totals));
        sum_rows(luma, y_stride, first, end, left, right, factor, totals);
        /* Chroma samples whose top-left luma sample is inside the band and the picture. */
        int c_first = (first + 1) / 2, c_end = (end + 1) / 2;
        int c_left = (left + 1) / 2, c_right = (right + 1) / 2;
        sum_rows(cb, cb_stride, c_first, c_end, c_left, c_right, factor / 2, totals + blocks);
        sum_rows(cr, cr_stride, c_first, c_end, c_left, c_right, factor / 2, totals + 2 * blocks);
        int image_row = (tile_y + band_top) >> shift;
        for (int block = left >> shift; block < blocks && block * factor < right; block++) {
            int x0 = block * factor > left ? block * factor : left;
            int x1 = (block + 1) * factor < right ? (block + 1) * factor : right;
            int pixels = (x1 - x0) * (end - first);
            int chroma = ((x1 + 1) / 2 - (x0 + 1) / 2) * (c_end - c_first);
            if (pixels <= 0 || chroma <= 0)
                continue;
            double y = ((double) totals[block] / pixels - conversion.y_offset) * conversion.y_scale;
            double u = ((double) totals[blocks + block] / chroma - 128) * conversion.c_scale;
            double v = ((double) totals[2 * blocks + block] / chroma - 128) * conversion.c_scale;
            double rgb[3] = {y + conversion.rv * v, y - conversion.gu * u - conversion.gv * v, y + conversion.bu * u};
            uint16_t *sum = share->sums
                            + ((size_t) image_row * (size_t) share->reduced_width
                               + (size_t) ((tile_x + block * factor) >> shift)) * 3;
            for (int band = 0; band < 3; band++) {
                double value = rgb[band] < 0 ? 0 : rgb[band] > 255 ? 255 : rgb[band];
                sum[band] = (uint16_t) (value * pixels + 0.5);
            }
        }
    }
    free(totals);
    return 1;
}

static void *
decode_share(void *argument)
{
    struct vh_share *share = argument;
    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    vh_apply_limits(context, &share->context->limits);
    heif_context_set_max_decoding_threads(context, 1);
    share->status = heif_context_read_from_memory_without_copy(context, share->context->bytes,
                                                               share->context->length, NULL);
    if (share->status.code == heif_error_Ok)
        share->status = heif_context_get_image_handle(context, share->context->item, &handle);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    options->decoder_id = share->context->decoder_id;
    int count = share->tiling.columns * share->tiling.rows;
    /* Tiles are averaged in the coded YCbCr until one turns out not to be 8-bit 4:2:0 with a known matrix; that
     * tile and the rest of this share are decoded to RGB by libheif instead. At a factor of 2, whole tiles take
     * add_halved_tile's integer pass; the picture's edge tiles take the general one. */
    int planar = 1;
    for (int index = share->first; share->status.code == heif_error_Ok && index < count; index += share->stride) {
        int column = index % share->tiling.columns;
        int row = index / share->tiling.columns;
        int tile_x = column * share->tiling.tile_width - share->tiling.left_offset;
        int tile_y = row * share->tiling.tile_height - share->tiling.top_offset;
        struct heif_image *tile = NULL;
        if (planar) {
            share->status = heif_image_handle_decode_image_tile(handle, &tile, heif_colorspace_undefined,
                                                                heif_chroma_undefined, options, (uint32_t) column,
                                                                (uint32_t) row);
            if (share->status.code != heif_error_Ok)
                break;
            planar = add_planar_tile(share, tile, tile_x, tile_y);
            heif_image_release(tile);
            tile = NULL;
            if (planar)
                continue;
        }
        share->status = heif_image_handle_decode_image_tile(handle, &tile, heif_colorspace_RGB,
                                                            heif_chroma_interleaved_RGB, options, (uint32_t) column,
                                                            (uint32_t) row);
        if (share->status.code != heif_error_Ok)
            break;
        int stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(tile, heif_channel_interleaved, &stride);
        if (plane)
            add_tile(share, plane, stride, tile_x, tile_y, heif_image_get_primary_width(tile),
                     heif_image_get_primary_height(tile));
        heif_image_release(tile);
    }
    heif_decoding_options_free(options);
    if (handle)
        heif_image_handle_release(handle);
    heif_context_free(context);
    return NULL;
}

int
vh_decode_reduced(vh_context *context, int factor, int threads, vh_pixels *out, vh_error *error)
{
    if (factor < 1 || factor > 16 || (factor & (factor - 1)) != 0)
        return vh_fail_with(error, "the reduction factor must be a power of two up to 16");
    vh_tiling tiling;
    if (vh_get_tiling(context, &tiling, error))
        return -1;
    int width = heif_image_handle_get_width(context->primary);
    int height = heif_image_handle_get_height(context->primary);
    int reduced_width = (width + factor - 1) / factor;
    int reduced_height = (height + factor - 1) / factor;

    size_t samples = (size_t) reduced_width * (size_t) reduced_height * 3;
    uint16_t *sums = calloc(samples, sizeof(*sums));
    struct vh_share *shares = calloc((size_t) threads, sizeof(*shares));
    pthread_t *workers = calloc((size_t) threads, sizeof(*workers));
    if (!sums || !shares || !workers) {
        free(sums);
        free(shares);
        free(workers);
        return vh_fail_with(error, "out of memory");
    }
    for (int t = 0; t < threads; t++) {
        shares[t] = (struct vh_share){context, tiling, factor, t, threads, width, height, reduced_width, sums,
                                      {heif_error_Ok, heif_suberror_Unspecified, "Success"}};
        if (t > 0 && pthread_create(&workers[t], NULL, decode_share, &shares[t]) != 0) {
            threads = t;
            break;
        }
    }
    decode_share(&shares[0]);
    for (int t = 1; t < threads; t++)
        pthread_join(workers[t], NULL);
    free(workers);
    for (int t = 0; t < threads; t++) {
        if (shares[t].status.code != heif_error_Ok) {
            int failed = vh_fail(error, shares[t].status);
            free(sums);
            free(shares);
            return failed;
        }
    }
    free(shares);

    /* Each sum becomes the mean of its block; edge blocks hold fewer pixels. */
    uint8_t *pixels = malloc(samples ? samples : 1);
    struct vh_owner *owner = malloc(sizeof(*owner));
    if (!pixels || !owner) {
        free(sums);
        free(pixels);
        free(owner);
        return vh_fail_with(error, "out of memory");
    }
    /* Whole blocks hold factor² pixels, a power of two: a shift, not a division, for nearly every sample. */
    int shift = 2 * __builtin_ctz((unsigned) factor);
    for (int y = 0; y < reduced_height; y++) {
        int block_height = (y + 1) * factor <= height ? factor : height - y * factor;
        for (int x = 0; x < reduced_width; x++) {
            int block_width = (x + 1) * factor <= width ? factor : width - x * factor;
            uint32_t count = (uint32_t) (block_width * block_height);
            size_t at = ((size_t) y * (size_t) reduced_width + (size_t) x) * 3;
            if (count == 1u << shift) {
                for (int band = 0; band < 3; band++)
                    pixels[at + band] = (uint8_t) ((sums[at + band] + count / 2) >> shift);
            } else {
                for (int band = 0; band < 3; band++)
                    pixels[at + band] = (uint8_t) ((sums[at + band] + count / 2) / count);
            }
        }
    }
    free(sums);
    owner->image = NULL;
    owner->buffer = pixels;
    vh_hand_over(context, owner, pixels, reduced_width, reduced_height, 3, out);
    return 0;
}
