#include <string.h>
#include <webp/mux.h>

#include "CWebPShims.h"

int
vw_add_metadata(const void *webp, size_t webp_length, const void *exif, size_t exif_length, const void *xmp,
                size_t xmp_length, void **bytes, size_t *length)
{
    WebPData input = {webp, webp_length};
    WebPMux *mux = WebPMuxCreate(&input, 0);
    if (!mux)
        return WEBP_MUX_BAD_DATA;
    WebPMuxError status = WEBP_MUX_OK;
    if (exif && exif_length > 0) {
        WebPData chunk = {exif, exif_length};
        status = WebPMuxSetChunk(mux, "EXIF", &chunk, 1);
    }
    if (status == WEBP_MUX_OK && xmp && xmp_length > 0) {
        WebPData chunk = {xmp, xmp_length};
        status = WebPMuxSetChunk(mux, "XMP ", &chunk, 1);
    }
    WebPData output = {NULL, 0};
    if (status == WEBP_MUX_OK)
        status = WebPMuxAssemble(mux, &output);
    WebPMuxDelete(mux);
    if (status != WEBP_MUX_OK) {
        WebPDataClear(&output);
        return status;
    }
    *bytes = (void *) output.bytes;
    *length = output.size;
    return 0;
}
