#include <webp/encode.h>
#include <webp/mux.h>

#include "CWebPShims.h"

int
vw_encode_animation(const void *const *frames, int count, int width, int height, int bands, const int *delays,
                    int loop, const vw_options *options, void **bytes, size_t *length)
{
    WebPAnimEncoderOptions animation;
    WebPConfig config;
    WebPPicture picture;
    if (!WebPAnimEncoderOptionsInit(&animation) || !WebPConfigInit(&config) || !WebPPictureInit(&picture))
        return VP8_ENC_ERROR_INVALID_CONFIGURATION;
    animation.anim_params.loop_count = loop;
    config.quality = options->quality;
    config.method = options->method;
    config.thread_level = options->threads > 1;
    if (!WebPValidateConfig(&config))
        return VP8_ENC_ERROR_INVALID_CONFIGURATION;
    WebPAnimEncoder *encoder = WebPAnimEncoderNew(width, height, &animation);
    if (!encoder)
        return VP8_ENC_ERROR_OUT_OF_MEMORY;

    picture.use_argb = 1;
    picture.width = width;
    picture.height = height;
    int timestamp = 0;
    int status = 0;
    for (int i = 0; i < count && !status; i++) {
        int imported = bands == 4 ? WebPPictureImportRGBA(&picture, frames[i], width * 4)
                                  : WebPPictureImportRGB(&picture, frames[i], width * 3);
        if (!imported || !WebPAnimEncoderAdd(encoder, &picture, timestamp, &config))
            status = picture.error_code ? picture.error_code : VP8_ENC_ERROR_OUT_OF_MEMORY;
        timestamp += delays[i];
    }
    WebPData data;
    WebPDataInit(&data);
    if (!status && (!WebPAnimEncoderAdd(encoder, NULL, timestamp, NULL) || !WebPAnimEncoderAssemble(encoder, &data)))
        status = VP8_ENC_ERROR_BAD_WRITE;
    WebPPictureFree(&picture);
    WebPAnimEncoderDelete(encoder);
    if (status) {
        WebPDataClear(&data);
        return status;
    }
    *bytes = (void *) data.bytes;
    *length = data.size;
    return 0;
}
