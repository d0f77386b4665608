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
    uint32_t *sums;     /* reduced_width x reduced_height x 3 */
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
        uint32_t *sums_row = share->sums + (size_t) (image_y >> shift) * (size_t) share->reduced_width * 3;
        for (int x = 0; x < tile_width; x++) {
            int image_x = tile_x + x;
            if (image_x < 0 || image_x >= share->width)
                continue;
            uint32_t *sum = sums_row + (size_t) (image_x >> shift) * 3;
            sum[0] += row[x * 3];
            sum[1] += row[x * 3 + 1];
            sum[2] += row[x * 3 + 2];
        }
    }
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
    for (int index = share->first; share->status.code == heif_error_Ok && index < count; index += share->stride) {
        int column = index % share->tiling.columns;
        int row = index / share->tiling.columns;
        struct heif_image *tile = NULL;
        share->status = heif_image_handle_decode_image_tile(handle, &tile, heif_colorspace_RGB,
                                                            heif_chroma_interleaved_RGB, options, (uint32_t) column,
                                                            (uint32_t) row);
        if (share->status.code != heif_error_Ok)
            break;
        int stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(tile, heif_channel_interleaved, &stride);
        if (plane)
            add_tile(share, plane, stride, column * share->tiling.tile_width - share->tiling.left_offset,
                     row * share->tiling.tile_height - share->tiling.top_offset,
                     heif_image_get_primary_width(tile), heif_image_get_primary_height(tile));
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
    vh_tiling tiling;
    if (vh_get_tiling(context, &tiling, error))
        return -1;
    int width = heif_image_handle_get_width(context->primary);
    int height = heif_image_handle_get_height(context->primary);
    int reduced_width = (width + factor - 1) / factor;
    int reduced_height = (height + factor - 1) / factor;

    size_t samples = (size_t) reduced_width * (size_t) reduced_height * 3;
    uint32_t *sums = calloc(samples, sizeof(*sums));
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
    for (int y = 0; y < reduced_height; y++) {
        int block_height = (y + 1) * factor <= height ? factor : height - y * factor;
        for (int x = 0; x < reduced_width; x++) {
            int block_width = (x + 1) * factor <= width ? factor : width - x * factor;
            uint32_t count = (uint32_t) (block_width * block_height);
            size_t at = ((size_t) y * (size_t) reduced_width + (size_t) x) * 3;
            for (int band = 0; band < 3; band++)
                pixels[at + band] = (uint8_t) ((sums[at + band] + count / 2) / count);
        }
    }
    free(sums);
    owner->image = NULL;
    owner->buffer = pixels;
    vh_hand_over(context, owner, pixels, reduced_width, reduced_height, 3, out);
    return 0;
}
