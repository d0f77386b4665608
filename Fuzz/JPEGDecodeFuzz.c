/* libFuzzer entry for our libjpeg-turbo decoder (CJPEGShims/decode.c), built with AddressSanitizer: any bytes
 * must decode or fail with libjpeg's words, never write outside the buffer it allocates, leak it on a failure
 * (libjpeg's errors jump back through setjmp) or allocate past its cap. The first byte picks the shrink. */
#include <stddef.h>
#include <stdint.h>

#include "CJPEGShims.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    vj_picture picture;
    vj_failure failure;
    if (vj_decode(data + 1, size - 1, 1 << (data[0] & 3), 16 << 20, &picture, &failure) == 0) {
        /* Every byte of the picture is read, so a short buffer shows. */
        const unsigned char *pixels = picture.pixels;
        volatile unsigned sum = 0;
        for (size_t i = 0; i < (size_t) picture.width * (size_t) picture.height * (size_t) picture.bands; i++)
            sum += pixels[i];
        vj_free(picture.pixels);
    }
    return 0;
}
