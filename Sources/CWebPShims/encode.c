#include <webp/encode.h>

#include "CWebPShims.h"

int
vw_encode(const void *pixels, int width, int height, int bands, const vw_options *options, void **bytes,
          size_t *length)
{
    WebPConfig config;
    WebPPicture picture;
    WebPMemoryWriter writer;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture))
        return VP8_ENC_ERROR_BAD_DIMENSION;
    config.quality = options->quality;
    config.method = options->method;
    config.thread_level = options->threads > 1;
    if (!WebPValidateConfig(&config))
        return VP8_ENC_ERROR_INVALID_CONFIGURATION;

    picture.use_argb = 0;
    picture.width = width;
    picture.height = height;
    int imported = bands == 4 ? WebPPictureImportRGBA(&picture, pixels, width * 4)
                              : WebPPictureImportRGB(&picture, pixels, width * 3);
    if (!imported) {
        WebPPictureFree(&picture);
        return VP8_ENC_ERROR_OUT_OF_MEMORY;
    }
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int encoded = WebPEncode(&config, &picture);
    int status = encoded ? VP8_ENC_OK : picture.error_code;
    WebPPictureFree(&picture);
    if (!encoded) {
        WebPMemoryWriterClear(&writer);
        return status ? status : VP8_ENC_ERROR_BAD_WRITE;
    }
    *bytes = writer.mem;
    *length = writer.size;
    return 0;
}

void
vw_free(void *bytes)
{
    WebPFree(bytes);
}
