#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>

#include "error.h"

/* Where heif_context_write puts the file: a buffer that grows as libheif writes. */
struct vh_buffer {
    uint8_t *bytes;
    size_t length;
};

static struct heif_error
write_to_buffer(struct heif_context *context, const void *data, size_t size, void *userdata)
{
    (void) context;
    struct vh_buffer *buffer = userdata;
    uint8_t *grown = realloc(buffer->bytes, buffer->length + size);
    if (!grown) {
        struct heif_error failure = {heif_error_Memory_allocation_error, heif_suberror_Unspecified,
                                     "out of memory"};
        return failure;
    }
    memcpy(grown + buffer->length, data, size);
    buffer->bytes = grown;
    buffer->length += size;
    /* libheif dereferences the message even on success (libvips 8.14's saver fails on exactly this). */
    struct heif_error success = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    return success;
}

static struct heif_error
fill_image(struct heif_image **image, const uint8_t *pixels, int width, int height, int bands)
{
    struct heif_error status = heif_image_create(width, height, heif_colorspace_RGB,
                                                 bands == 4 ? heif_chroma_interleaved_RGBA
                                                            : heif_chroma_interleaved_RGB, image);
    if (status.code != heif_error_Ok)
        return status;
    status = heif_image_add_plane(*image, heif_channel_interleaved, width, height, 8);
    if (status.code != heif_error_Ok)
        return status;
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(*image, heif_channel_interleaved, &stride);
    size_t row = (size_t) width * (size_t) bands;
    for (int y = 0; y < height; y++)
        memcpy(plane + (size_t) y * (size_t) stride, pixels + (size_t) y * row, row);

    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    nclx->color_primaries = heif_color_primaries_ITU_R_BT_709_5;
    nclx->transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1;
    nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
    nclx->full_range_flag = 1;
    status = heif_image_set_nclx_color_profile(*image, nclx);
    heif_nclx_color_profile_free(nclx);
    return status;
}

int
vh_encode_avif(const void *pixels, int width, int height, int bands, const vh_encode_options *options,
               void **bytes, size_t *length, vh_error *error)
{
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct vh_buffer buffer = {NULL, 0};

    struct heif_error status = heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder);
    if (status.code == heif_error_Ok)
        status = heif_encoder_set_lossy_quality(encoder, options->quality);
    if (status.code == heif_error_Ok)
        status = heif_encoder_set_parameter_integer(encoder, "speed", options->speed);
    if (status.code == heif_error_Ok && options->threads > 0)
        status = heif_encoder_set_parameter_integer(encoder, "threads", options->threads);
    if (status.code == heif_error_Ok)
        status = fill_image(&image, pixels, width, height, bands);
    struct heif_image_handle *handle = NULL;
    if (status.code == heif_error_Ok) {
        struct heif_encoding_options *encoding = heif_encoding_options_alloc();
        encoding->save_alpha_channel = bands == 4;
        status = heif_context_encode_image(context, image, encoder, encoding, &handle);
        heif_encoding_options_free(encoding);
    }
    if (status.code == heif_error_Ok && options->exif && options->exif_length > 0)
        status = heif_context_add_exif_metadata(context, handle, options->exif, (int) options->exif_length);
    if (status.code == heif_error_Ok && options->xmp && options->xmp_length > 0)
        status = heif_context_add_XMP_metadata(context, handle, options->xmp, (int) options->xmp_length);
    if (status.code == heif_error_Ok) {
        struct heif_writer writer = {.writer_api_version = 1, .write = write_to_buffer};
        status = heif_context_write(context, &writer, &buffer);
    }

    int result = status.code == heif_error_Ok ? 0 : vh_fail(error, status);
    if (result == 0) {
        *bytes = buffer.bytes;
        *length = buffer.length;
    } else {
        free(buffer.bytes);
    }
    if (handle)
        heif_image_handle_release(handle);
    if (image)
        heif_image_release(image);
    if (encoder)
        heif_encoder_release(encoder);
    heif_context_free(context);
    return result;
}

void
vh_free(void *bytes)
{
    free(bytes);
}
