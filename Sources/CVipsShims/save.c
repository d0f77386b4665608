#include <vips/vips.h>

#include "error.h"

int
vv_save_png(VipsImage *in, int effort, void **bytes, size_t *length, vv_error *error)
{
    return vips_pngsave_buffer(in, bytes, length, "compression", effort > 0 ? effort - 1 : 6, "strip", TRUE, NULL)
               ? vv_fail(error)
               : 0;
}
