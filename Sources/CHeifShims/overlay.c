#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>
#include <libheif/heif_properties.h>

#include "context.h"

/* Draws one decoded image over the canvas at (x, y), clipped; an image with alpha is blended over it. */
static void
draw(uint8_t *canvas, int width, int height, int bands, const uint8_t *plane, int stride, int tile_width,
     int tile_height, int tile_bands, int x, int y)
{
    /* Offsets are any 32-bit value: the clipping is done in 64 bits. */
    long long left = x < 0 ? -(long long) x : 0, top = y < 0 ? -(long long) y : 0;
    long long right = (long long) x + tile_width > width ? (long long) width - x : tile_width;
    long long bottom = (long long) y + tile_height > height ? (long long) height - y : tile_height;
    for (long long row = top; row < bottom; row++) {
        const uint8_t *source = plane + (size_t) row * (size_t) stride;
        uint8_t *target = canvas + ((size_t) (y + row) * (size_t) width + (size_t) (x + left)) * (size_t) bands;
        for (long long column = left; column < right; column++, target += bands) {
            const uint8_t *pixel = source + (size_t) column * (size_t) tile_bands;
            unsigned alpha = tile_bands == 4 ? pixel[3] : 255;
            for (int band = 0; band < 3; band++)
                target[band] = (uint8_t) ((pixel[band] * alpha + target[band] * (255 - alpha) + 127) / 255);
            if (bands == 4)
                target[3] = (uint8_t) (alpha + (target[3] * (255 - alpha) + 127) / 255);
        }
    }
}

int
vh_decode_overlay(vh_context *context, int width, int height, const uint16_t fill[4],
                  const vh_placement *placements, int count, vh_pixels *out, vh_error *error)
{
    int bands = fill[3] != 0xFFFF ? 4 : 3;
    size_t size = (size_t) width * (size_t) height * (size_t) bands;
    uint8_t *canvas = width > 0 && height > 0 ? malloc(size) : NULL;
    struct vh_owner *owner = malloc(sizeof(*owner));
    if (!canvas || !owner) {
        free(canvas);
        free(owner);
        return vh_fail_with(error, "out of memory");
    }
    uint8_t colour[4];
    for (int band = 0; band < 4; band++)
        colour[band] = (uint8_t) (((unsigned) fill[band] * 255 + 32767) / 65535);
    for (size_t at = 0; at < size; at += (size_t) bands)
        memcpy(canvas + at, colour, (size_t) bands);

    struct heif_decoding_options *options = heif_decoding_options_alloc();
    options->convert_hdr_to_8bit = 1;
    options->decoder_id = context->decoder_id;
    struct heif_error status = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    for (int i = 0; i < count && status.code == heif_error_Ok; i++) {
        struct heif_image_handle *handle = NULL;
        struct heif_image *image = NULL;
        status = heif_context_get_image_handle(context->context, placements[i].item, &handle);
        if (status.code != heif_error_Ok)
            break;
        int alpha = heif_image_handle_has_alpha_channel(handle);
        status = heif_decode_image(handle, &image, heif_colorspace_RGB,
                                   alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options);
        heif_image_handle_release(handle);
        if (status.code != heif_error_Ok)
            break;
        int stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
        if (plane)
            draw(canvas, width, height, bands, plane, stride, heif_image_get_primary_width(image),
                 heif_image_get_primary_height(image), alpha ? 4 : 3, placements[i].x, placements[i].y);
        heif_image_release(image);
    }
    heif_decoding_options_free(options);
    if (status.code != heif_error_Ok) {
        free(canvas);
        free(owner);
        return vh_fail(error, status);
    }
    owner->image = NULL;
    owner->buffer = canvas;
    vh_hand_over(context, owner, canvas, width, height, bands, out);
    return 0;
}

int
vh_crop_borders(vh_context *context, uint32_t item, int width, int height, int borders[4])
{
    heif_property_id properties[8];
    int count = heif_item_get_transformation_properties(context->context, item, properties, 8);
    for (int i = 0; i < count; i++) {
        if (heif_item_get_property_type(context->context, item, properties[i])
            != heif_item_property_type_transform_crop)
            continue;
        heif_item_get_property_transform_crop_borders(context->context, item, properties[i], width, height,
                                                      &borders[0], &borders[1], &borders[2], &borders[3]);
        return 0;
    }
    return 1;
}
