#include <string.h>
#include <vips/vips.h>

#include "error.h"

static void
free_copy(VipsImage *image, gpointer copy)
{
    (void) image;
    g_free(copy);
}

int
vv_load(vv_loader loader, const void *bytes, size_t length, const vv_load_options *options,
        VipsImage **out, vv_error *error)
{
    /* The buffer loaders borrow their input; a private copy lives exactly as long as the image. */
    void *copy = g_memdup2(bytes, length);
    VipsAccess access = options->sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM;
    int status;

    switch (loader) {
    case VV_LOADER_JPEG:
        status = vips_jpegload_buffer(copy, length, out, "shrink", options->shrink, "fail_on",
                                      options->fail_on, "access", access, NULL);
        break;
    case VV_LOADER_PNG:
        status = vips_pngload_buffer(copy, length, out, "fail_on", options->fail_on, "access", access, NULL);
        break;
    case VV_LOADER_WEBP:
        status = vips_webpload_buffer(copy, length, out, "scale", options->scale, "fail_on",
                                      options->fail_on, "access", access, "n", options->pages ? options->pages : 1,
                                      NULL);
        break;
    case VV_LOADER_GIF:
        status = vips_gifload_buffer(copy, length, out, "fail_on", options->fail_on, "access", access, "n",
                                     options->pages ? options->pages : 1, NULL);
        break;
    case VV_LOADER_TIFF:
        status = vips_tiffload_buffer(copy, length, out, "fail_on", options->fail_on, "access", access, "page", 0,
                                      "n", 1, NULL);
        break;
    case VV_LOADER_SVG:
        /* "unlimited" stays off: librsvg keeps its limits on elements, references and nesting. */
        status = vips_svgload_buffer(copy, length, out, "scale", options->scale, "fail_on", options->fail_on,
                                     "access", access, NULL);
        break;
    case VV_LOADER_PDF:
        status = vips_pdfload_buffer(copy, length, out, "scale", options->scale, "fail_on", options->fail_on,
                                     "access", access, "page", 0, "n", 1, NULL);
        break;
    case VV_LOADER_JXL:
        status = vips_jxlload_buffer(copy, length, out, "fail_on", options->fail_on, "access", access, NULL);
        break;
    default:
        g_free(copy);
        g_strlcpy(error->message, "unknown loader", sizeof(error->message));
        return -1;
    }
    if (status) {
        g_free(copy);
        return vv_fail(error);
    }
    g_signal_connect(*out, "postclose", G_CALLBACK(free_copy), copy);
    return 0;
}

void
vv_image_get_info(VipsImage *image, vv_image_info *info)
{
    int interlaced = 0;
    memset(info, 0, sizeof(*info));
    info->width = image->Xsize;
    info->height = image->Ysize;
    info->bands = image->Bands;
    info->bits = (int) vips_format_sizeof(image->BandFmt) * 8;
    info->orientation = vips_image_get_orientation(image);
    info->has_alpha = vips_image_hasalpha(image);
    info->pages = vips_image_get_n_pages(image);
    if (vips_image_get_typeof(image, "interlaced") && !vips_image_get_int(image, "interlaced", &interlaced))
        info->interlaced = interlaced != 0;
    info->has_icc = vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
    info->is_cmyk = image->Type == VIPS_INTERPRETATION_CMYK;
}

static void
release_pixels(VipsImage *image, gpointer data)
{
    (void) image;
    void **pair = data;
    ((void (*)(void *)) pair[0])(pair[1]);
    g_free(pair);
}

int
vv_image_new_from_pixels(void *pixels, int width, int height, int bands, void (*release)(void *owner),
                         void *owner, VipsImage **out, vv_error *error)
{
    size_t length = (size_t) width * (size_t) height * (size_t) bands;
    if (!(*out = vips_image_new_from_memory(pixels, length, width, height, bands, VIPS_FORMAT_UCHAR)))
        return vv_fail(error);
    (*out)->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    void **pair = g_new(void *, 2);
    pair[0] = (void *) release;
    pair[1] = owner;
    g_signal_connect(*out, "postclose", G_CALLBACK(release_pixels), pair);
    return 0;
}

void
vv_image_set_icc(VipsImage *image, const void *profile, size_t length)
{
    vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, profile, length);
}

void
vv_image_set_orientation(VipsImage *image, int orientation)
{
    vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
}

void
vv_image_take_description(VipsImage *image, VipsImage *source)
{
    const void *profile = NULL;
    size_t length = 0;
    image->Xres = source->Xres;
    image->Yres = source->Yres;
    if (vips_image_get_typeof(source, VIPS_META_ICC_NAME)
        && !vips_image_get_blob(source, VIPS_META_ICC_NAME, &profile, &length))
        vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, profile, length);
    vips_image_set_int(image, VIPS_META_ORIENTATION, vips_image_get_orientation(source));
}

size_t
vv_image_get_icc(VipsImage *image, const void **profile)
{
    size_t length = 0;
    *profile = NULL;
    if (!vips_image_get_typeof(image, VIPS_META_ICC_NAME)
        || vips_image_get_blob(image, VIPS_META_ICC_NAME, profile, &length))
        return 0;
    return length;
}

size_t
vv_image_get_metadata(VipsImage *image, vv_metadata_block block, const void **data)
{
    const char *name = block == VV_METADATA_XMP ? VIPS_META_XMP_NAME : VIPS_META_EXIF_NAME;
    size_t length = 0;
    *data = NULL;
    if (!vips_image_get_typeof(image, name) || vips_image_get_blob(image, name, data, &length))
        return 0;
    return length;
}

int
vv_image_icc_fits(VipsImage *image)
{
    const void *profile = NULL;
    size_t length = vv_image_get_icc(image, &profile);
    return length > 0 && vips_icc_is_compatible_profile(image, profile, length);
}

void
vv_image_remove_icc(VipsImage *image)
{
    vips_image_remove(image, VIPS_META_ICC_NAME);
}

int
vv_image_get_animation(VipsImage *image, int *page_height, int *loop, int *delays, int capacity)
{
    int *values = NULL;
    int count = 0;
    *page_height = vips_image_get_page_height(image);
    *loop = 0;
    if (vips_image_get_typeof(image, "loop"))
        vips_image_get_int(image, "loop", loop);
    if (!vips_image_get_typeof(image, "delay") || vips_image_get_array_int(image, "delay", &values, &count))
        return 0;
    count = count < capacity ? count : capacity;
    memcpy(delays, values, (size_t) count * sizeof(int));
    return count;
}
