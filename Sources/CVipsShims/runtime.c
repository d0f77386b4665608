#include <vips/vips.h>

#include "error.h"

/* Loaders that stay reachable: exactly the four we call by name. Everything else that loads is
 * blocked, including trusted-but-unneeded ones such as TIFF, which VIPS_BLOCK_UNTRUSTED leaves open. */
static const char *const allowed_loaders[] = {
    "VipsForeignLoadJpeg",
    "VipsForeignLoadPng",
    "VipsForeignLoadWebp",
    "VipsForeignLoadNsgif",
};

int
vv_init(const char *program_name, int concurrency, vv_error *error)
{
    static GMutex lock;
    static int started = 0;
    int result = 0;

    g_mutex_lock(&lock);
    if (!started) {
        if (VIPS_INIT(program_name)) {
            result = vv_fail(error);
        } else {
            vips_block_untrusted_set(TRUE);
            vips_operation_block_set("VipsForeignLoad", TRUE);
            for (size_t i = 0; i < G_N_ELEMENTS(allowed_loaders); i++)
                vips_operation_block_set(allowed_loaders[i], FALSE);
            vips_cache_set_max(0);
            started = 1;
        }
    }
    if (result == 0 && concurrency > 0)
        vips_concurrency_set(concurrency);
    g_mutex_unlock(&lock);
    return result;
}

const char *
vv_version(void)
{
    return vips_version_string();
}

int
vv_generic_loader_opens(const void *bytes, size_t length)
{
    /* libvips' sniffer still names blocked loaders; what the block stops is building the operation. */
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    vips_error_clear();
    if (!image)
        return 0;
    g_object_unref(image);
    return 1;
}

void
vv_unref(VipsImage *image)
{
    if (image)
        g_object_unref(image);
}

void
vv_free(void *bytes)
{
    g_free(bytes);
}
