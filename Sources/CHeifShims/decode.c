#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>
#include <libheif/heif_items.h>

#include "context.h"

void
vh_apply_limits(struct heif_context *context, const vh_limits *limits)
{
    struct heif_security_limits *security = heif_context_get_security_limits(context);
    security->max_image_size_pixels = limits->max_pixels;
    security->max_memory_block_size = limits->max_memory_block;
    security->max_items = limits->max_items;
    security->max_number_of_tiles = limits->max_tiles;
    if (limits->threads > 0)
        heif_context_set_max_decoding_threads(context, limits->threads);
}

static uint32_t
coded_type(const vh_context *context, heif_item_id primary, uint32_t item_type)
{
    heif_item_id tile = 0;
    if (item_type != heif_fourcc('g', 'r', 'i', 'd'))
        return item_type;
    if (heif_image_handle_get_grid_image_tile_id(context->primary, 0, 0, 0, &tile).code != heif_error_Ok)
        return item_type;
    (void) primary;
    return heif_item_get_item_type(context->context, tile);
}

/* Some files point `pitm` at a thumbnail of another image; like libvips and pillow-heif, show the first
 * top-level image then, since a thumbnail is never a top-level image. */
static heif_item_id
displayed_item(struct heif_context *context, heif_item_id primary)
{
    int count = heif_context_get_number_of_top_level_images(context);
    if (count <= 0)
        return primary;
    heif_item_id *ids = calloc((size_t) count, sizeof(*ids));
    if (!ids)
        return primary;
    count = heif_context_get_list_of_top_level_image_IDs(context, ids, count);
    heif_item_id chosen = count > 0 ? ids[0] : primary;
    for (int i = 0; i < count; i++)
        if (ids[i] == primary)
            chosen = primary;
    free(ids);
    return chosen;
}

int
vh_open(const void *bytes, size_t length, const vh_limits *limits, vh_context **out, vh_info *info,
        vh_error *error)
{
    vh_context *context = calloc(1, sizeof(*context));
    if (!context || !(context->bytes = malloc(length ? length : 1))) {
        free(context);
        return vh_fail_with(error, "out of memory");
    }
    memcpy(context->bytes, bytes, length);
    context->context = heif_context_alloc();
    vh_apply_limits(context->context, limits);
    context->limits = *limits;
    context->length = length;

    heif_item_id primary = 0;
    struct heif_error status = heif_context_read_from_memory_without_copy(context->context, context->bytes,
                                                                           length, NULL);
    if (status.code == heif_error_Ok)
        status = heif_context_get_primary_image_ID(context->context, &primary);
    if (status.code == heif_error_Ok) {
        primary = displayed_item(context->context, primary);
        context->item = primary;
        status = heif_context_get_image_handle(context->context, primary, &context->primary);
    }
    if (status.code != heif_error_Ok) {
        vh_fail(error, status);
        vh_close(context);
        return -1;
    }

    memset(info, 0, sizeof(*info));
    info->width = heif_image_handle_get_width(context->primary);
    info->height = heif_image_handle_get_height(context->primary);
    info->has_alpha = heif_image_handle_has_alpha_channel(context->primary);
    info->bit_depth = heif_image_handle_get_luma_bits_per_pixel(context->primary);
    info->top_level_images = heif_context_get_number_of_top_level_images(context->context);
    info->item_type = heif_item_get_item_type(context->context, primary);
    info->coded_type = coded_type(context, primary, info->item_type);
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(context->primary, &nclx).code == heif_error_Ok && nclx) {
        info->nclx_primaries = nclx->color_primaries;
        info->nclx_transfer = nclx->transfer_characteristics;
        float xy[8] = {nclx->color_primary_white_x, nclx->color_primary_white_y, nclx->color_primary_red_x,
                       nclx->color_primary_red_y, nclx->color_primary_green_x, nclx->color_primary_green_y,
                       nclx->color_primary_blue_x, nclx->color_primary_blue_y};
        memcpy(info->nclx_xy, xy, sizeof(xy));
        heif_nclx_color_profile_free(nclx);
    }
    *out = context;
    return 0;
}

void
vh_close(vh_context *context)
{
    if (!context)
        return;
    if (context->primary)
        heif_image_handle_release(context->primary);
    if (context->context)
        heif_context_free(context->context);
    free(context->bytes);
    free(context);
}

void *
vh_copy_profile(const struct heif_image_handle *handle, size_t *length)
{
    *length = 0;
    if (heif_image_handle_get_color_profile_type(handle) != heif_color_profile_type_prof
        && heif_image_handle_get_color_profile_type(handle) != heif_color_profile_type_rICC)
        return NULL;
    size_t size = heif_image_handle_get_raw_color_profile_size(handle);
    void *profile = size ? malloc(size) : NULL;
    if (profile && heif_image_handle_get_raw_color_profile(handle, profile).code == heif_error_Ok) {
        *length = size;
        return profile;
    }
    free(profile);
    return NULL;
}

int
vh_decode(vh_context *context, int keep_bit_depth, vh_pixels *out, vh_error *error)
{
    int alpha = heif_image_handle_has_alpha_channel(context->primary);
    int high = keep_bit_depth && heif_image_handle_get_luma_bits_per_pixel(context->primary) > 8;
    enum heif_chroma chroma = high ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                                   : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB);
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    options->convert_hdr_to_8bit = !high;
    options->decoder_id = context->decoder_id;
    struct heif_error status = heif_decode_image(context->primary, &image, heif_colorspace_RGB, chroma, options);
    heif_decoding_options_free(options);
    if (status.code != heif_error_Ok)
        return vh_fail(error, status);

    int stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    int width = heif_image_get_primary_width(image);
    int height = heif_image_get_primary_height(image);
    int bands = alpha ? 4 : 3;
    int bits = high ? heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) : 8;
    if (!plane || width <= 0 || height <= 0 || (high && (bits <= 8 || bits > 16))) {
        heif_image_release(image);
        return vh_fail_with(error, "decoded image has no pixels");
    }
    /* Packed rows (libvips wants them); each row moves up in place, never over a row not yet moved. */
    size_t row = (size_t) width * (size_t) bands * (high ? 2 : 1);
    for (int y = 1; y < height && (size_t) stride != row; y++)
        memmove(plane + (size_t) y * row, plane + (size_t) y * (size_t) stride, row);

    struct vh_owner *owner = malloc(sizeof(*owner));
    if (!owner) {
        heif_image_release(image);
        return vh_fail_with(error, "out of memory");
    }
    owner->image = image;
    owner->buffer = NULL;
    vh_hand_over(context, owner, plane, width, height, bands, out);
    out->bits = bits;
    return 0;
}

void
vh_hand_over(const vh_context *context, struct vh_owner *owner, void *pixels, int width, int height, int bands,
             vh_pixels *out)
{
    owner->icc = vh_copy_profile(context->primary, &out->icc_length);
    out->data = pixels;
    out->width = width;
    out->height = height;
    out->bands = bands;
    out->bits = 8;
    out->icc = owner->icc;
    out->owner = owner;
}

void
vh_pixels_release(void *owner)
{
    struct vh_owner *pixels = owner;
    if (!pixels)
        return;
    if (pixels->image)
        heif_image_release(pixels->image);
    free(pixels->buffer);
    free(pixels->icc);
    free(pixels);
}

void
vh_choose_decoder(vh_context *context, const char *decoder_id)
{
    context->decoder_id = decoder_id;
}

int
vh_has_hevc_decoder(const char *decoder_id)
{
    const struct heif_decoder_descriptor *descriptors[16];
    int count = heif_get_decoder_descriptors(heif_compression_HEVC, descriptors, 16);
    for (int i = 0; i < count; i++)
        if (strcmp(heif_decoder_descriptor_get_id_name(descriptors[i]), decoder_id) == 0)
            return 1;
    return 0;
}

const char *
vh_version(void)
{
    return heif_get_version();
}
