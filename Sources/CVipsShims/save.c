#include <vips/vips.h>

#include "error.h"

int
vv_save(VipsImage *in, vv_saver saver, const vv_save_options *options, void **bytes, size_t *length,
        vv_error *error)
{
    int status;
    switch (saver) {
    case VV_SAVER_JPEG:
        status = vips_jpegsave_buffer(in, bytes, length, "Q", options->quality, "strip", TRUE, "optimize_coding",
                                      options->optimize_coding, "interlace", options->progressive, NULL);
        break;
    case VV_SAVER_PNG:
        status = vips_pngsave_buffer(in, bytes, length, "compression", options->effort > 0 ? options->effort - 1 : 6,
                                     "strip", TRUE, NULL);
        break;
    default:
        g_strlcpy(error->message, "unknown saver", sizeof(error->message));
        return -1;
    }
    return status ? vv_fail(error) : 0;
}
