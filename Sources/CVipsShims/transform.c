#include <vips/vips.h>

#include "error.h"

int
vv_autorotate(VipsImage *in, VipsImage **out, vv_error *error)
{
    if (vips_image_get_orientation(in) == 1) {
        *out = in;
        g_object_ref(in);
        return 0;
    }
    return vips_autorot(in, out, NULL) ? vv_fail(error) : 0;
}

/* Converts through the embedded profile (or, for CMYK without one, libvips' built-in CMYK profile) with the
 * given rendering intent. A profile lcms cannot use is dropped from a copy, so the fallback below treats
 * the pixels as having no profile. */
static int
apply_profile(VipsImage *in, int intent, VipsImage **out, int *profile)
{
    int embedded = vips_image_get_typeof(in, VIPS_META_ICC_NAME) != 0;
    *profile = VV_PROFILE_NONE;
    if (intent < 0 || (!embedded && in->Type != VIPS_INTERPRETATION_CMYK))
        return -1;
    if (!vips_icc_transform(in, out, "srgb", "embedded", TRUE, "intent", (VipsIntent) intent, "depth", 8, NULL)) {
        *profile = embedded ? VV_PROFILE_CONVERTED : VV_PROFILE_NONE;
        return 0;
    }
    vips_error_clear();
    if (!embedded)
        return -1;
    *profile = VV_PROFILE_IGNORED;
    if (vips_copy(in, out, NULL))
        return -1;
    vips_image_remove(*out, VIPS_META_ICC_NAME);
    if ((*out)->Type != VIPS_INTERPRETATION_CMYK)
        return 0;
    VipsImage *plain = *out;
    int status = vips_icc_transform(plain, out, "srgb", "input_profile", "cmyk", "intent", (VipsIntent) intent,
                                    "depth", 8, NULL);
    g_object_unref(plain);
    return status;
}

int
vv_to_srgb(VipsImage *in, int intent, VipsImage **out, int *profile, vv_error *error)
{
    VipsImage *profiled = NULL;
    VipsImage *converted = NULL;
    VipsImage *source = apply_profile(in, intent, &profiled, profile) == 0 ? profiled : in;
    vips_error_clear();

    if (source->Type == VIPS_INTERPRETATION_sRGB && source->BandFmt == VIPS_FORMAT_UCHAR) {
        *out = source == profiled ? profiled : (g_object_ref(in), in);
        return 0;
    }
    int status = vips_colourspace(source, &converted, VIPS_INTERPRETATION_sRGB, NULL);
    if (profiled)
        g_object_unref(profiled);
    if (status)
        return vv_fail(error);
    if (converted->BandFmt == VIPS_FORMAT_UCHAR) {
        *out = converted;
        return 0;
    }
    status = vips_cast_uchar(converted, out, NULL);
    g_object_unref(converted);
    return status ? vv_fail(error) : 0;
}

/* One filter that mixes neighbouring pixels (a resample, a blur), with its arguments. */
typedef int (*neighbourhood_filter)(VipsImage *in, VipsImage **out, const double *arguments);

/* Runs a filter that mixes neighbouring pixels with alpha premultiplied around it, so the colour of
 * transparent pixels (often black) does not bleed into the edges of what shows as dark fringes. */
static int
premultiplied(VipsImage *in, neighbourhood_filter filter, const double *arguments, VipsImage **out)
{
    if (!vips_image_hasalpha(in))
        return filter(in, out, arguments);

    VipsImage *steps[3] = {NULL, NULL, NULL};
    int status = vips_premultiply(in, &steps[0], NULL) || filter(steps[0], &steps[1], arguments)
                 || vips_unpremultiply(steps[1], &steps[2], NULL) || vips_cast(steps[2], out, in->BandFmt, NULL);
    for (int i = 0; i < 3; i++)
        if (steps[i])
            g_object_unref(steps[i]);
    return status;
}

static int
lanczos_resize(VipsImage *in, VipsImage **out, const double *scales)
{
    return vips_resize(in, out, scales[0], "vscale", scales[1], "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}

int
vv_resize(VipsImage *in, double hscale, double vscale, VipsImage **out, vv_error *error)
{
    const double scales[2] = {hscale, vscale};
    return premultiplied(in, lanczos_resize, scales, out) ? vv_fail(error) : 0;
}

int
vv_rotate(VipsImage *in, int degrees, VipsImage **out, vv_error *error)
{
    VipsAngle angle = degrees == 90 ? VIPS_ANGLE_D90 : degrees == 180 ? VIPS_ANGLE_D180 : VIPS_ANGLE_D270;
    return vips_rot(in, out, angle, NULL) ? vv_fail(error) : 0;
}

int
vv_crop(VipsImage *in, int left, int top, int width, int height, VipsImage **out, vv_error *error)
{
    return vips_extract_area(in, out, left, top, width, height, NULL) ? vv_fail(error) : 0;
}

int
vv_flip(VipsImage *in, int horizontal, VipsImage **out, vv_error *error)
{
    VipsDirection direction = horizontal ? VIPS_DIRECTION_HORIZONTAL : VIPS_DIRECTION_VERTICAL;
    return vips_flip(in, out, direction, NULL) ? vv_fail(error) : 0;
}

int
vv_find_trim(VipsImage *in, double threshold, const double *background, int bands, int *left, int *top,
             int *width, int *height, vv_error *error)
{
    VipsArrayDouble *colour = vips_array_double_new(background, bands);
    int status = vips_find_trim(in, left, top, width, height, "threshold", threshold, "background", colour,
                                NULL);
    vips_area_unref(VIPS_AREA(colour));
    return status ? vv_fail(error) : 0;
}

int
vv_smartcrop(VipsImage *in, int width, int height, int strategy, VipsImage **out, int *left, int *top,
             vv_error *error)
{
    VipsInteresting interesting = strategy == 0 ? VIPS_INTERESTING_ENTROPY : VIPS_INTERESTING_ATTENTION;
    if (vips_smartcrop(in, out, width, height, "interesting", interesting, NULL))
        return vv_fail(error);
    /* The crop is an extract_area, which records where it was taken as a negative offset. */
    *left = -(*out)->Xoffset;
    *top = -(*out)->Yoffset;
    return 0;
}

int
vv_embed(VipsImage *in, int left, int top, int width, int height, const double rgba[4], VipsImage **out,
         vv_error *error)
{
    VipsImage *with_alpha = NULL;
    VipsImage *source = in;
    if (rgba[3] < 255 && !vips_image_hasalpha(in)) {
        if (vips_addalpha(in, &with_alpha, NULL))
            return vv_fail(error);
        source = with_alpha;
    }
    int bands = vips_image_hasalpha(source) ? 4 : 3;
    VipsArrayDouble *background = vips_array_double_new(rgba, bands);
    int status = vips_embed(source, out, left, top, width, height, "extend", VIPS_EXTEND_BACKGROUND,
                            "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    if (with_alpha)
        g_object_unref(with_alpha);
    return status ? vv_fail(error) : 0;
}

int
vv_flatten(VipsImage *in, const double rgb[3], VipsImage **out, vv_error *error)
{
    VipsArrayDouble *background = vips_array_double_new(rgb, 3);
    VipsImage *flat = NULL;
    int status = vips_flatten(in, &flat, "background", background, NULL) || vips_cast_uchar(flat, out, NULL);
    vips_area_unref(VIPS_AREA(background));
    if (flat)
        g_object_unref(flat);
    return status ? vv_fail(error) : 0;
}

int
vv_overlay(VipsImage *base, VipsImage *overlay, int x, int y, double opacity, VipsImage **out, vv_error *error)
{
    VipsImage *t[5] = {NULL};
    VipsImage *over = overlay;
    int status = 0;
    if (!vips_image_hasalpha(over)) {
        status = vips_addalpha(over, &t[0], NULL);
        over = t[0];
    }
    if (!status) {
        /* The alpha band alone is multiplied by the opacity. */
        double a[4] = {1, 1, 1, 1}, b[4] = {0, 0, 0, 0};
        int bands = over->Bands < 4 ? over->Bands : 4;
        a[bands - 1] = opacity;
        status = vips_linear(over, &t[1], a, b, bands, "uchar", TRUE, NULL);
    }
    if (!status)
        status = vips_composite2(base, t[1], &t[2], VIPS_BLEND_MODE_OVER, "x", x, "y", y, NULL);
    VipsImage *composed = t[2];
    if (!status && !vips_image_hasalpha(base)) {
        status = vips_extract_band(composed, &t[3], 0, "n", base->Bands, NULL);
        composed = t[3];
    }
    if (!status)
        status = vips_cast_uchar(composed, out, NULL);
    for (int i = 0; i < 4; i++)
        if (t[i])
            g_object_unref(t[i]);
    return status ? vv_fail(error) : 0;
}

static int
gaussian_blur(VipsImage *in, VipsImage **out, const double *sigma)
{
    return vips_gaussblur(in, out, *sigma, NULL);
}

int
vv_gaussblur(VipsImage *in, double sigma, VipsImage **out, vv_error *error)
{
    return premultiplied(in, gaussian_blur, &sigma, out) ? vv_fail(error) : 0;
}

int
vv_sharpen(VipsImage *in, double sigma, VipsImage **out, vv_error *error)
{
    VipsImage *sharp = NULL;
    int status = vips_sharpen(in, &sharp, "sigma", sigma, NULL) || vips_colourspace(sharp, out,
                                                                                      VIPS_INTERPRETATION_sRGB, NULL);
    if (sharp)
        g_object_unref(sharp);
    return status ? vv_fail(error) : 0;
}

int
vv_materialize(VipsImage *in, VipsImage **out, vv_error *error)
{
    return (*out = vips_image_copy_memory(in)) ? 0 : vv_fail(error);
}

const void *
vv_image_memory(VipsImage *in, size_t *length)
{
    if ((in->dtype != VIPS_IMAGE_SETBUF && in->dtype != VIPS_IMAGE_SETBUF_FOREIGN) || !in->data
        || in->BandFmt != VIPS_FORMAT_UCHAR || in->Coding != VIPS_CODING_NONE)
        return NULL;
    *length = VIPS_IMAGE_SIZEOF_IMAGE(in);
    return in->data;
}

int
vv_write_pixels(VipsImage *in, void **bytes, size_t *length, vv_error *error)
{
    return (*bytes = vips_image_write_to_memory(in, length)) ? 0 : vv_fail(error);
}

int
vv_write_words(VipsImage *in, void **bytes, size_t *length, int *bands, vv_error *error)
{
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 6);
    VipsImage *image = in;
    if (image->Bands < 3) {
        if (vips_extract_band(image, &t[0], 0, NULL)) goto fail;
        VipsImage *parts[4] = { t[0], t[0], t[0], NULL };
        int count = 3;
        if (image->Bands == 2) {
            if (vips_extract_band(image, &t[1], 1, NULL)) goto fail;
            parts[count++] = t[1];
        }
        if (vips_bandjoin(parts, &t[2], count, NULL)) goto fail;
        image = t[2];
    } else if (image->Bands > 4) {
        if (vips_extract_band(image, &t[2], 0, "n", 4, NULL)) goto fail;
        image = t[2];
    }
    if (image->BandFmt != VIPS_FORMAT_USHORT) {
        double scale = vips_band_format_isfloat(image->BandFmt) ? 65535.0
                       : image->BandFmt == VIPS_FORMAT_UCHAR    ? 257.0
                                                                : 1.0;
        if (vips_linear1(image, &t[3], scale, 0.0, NULL) || vips_cast_ushort(t[3], &t[4], NULL)) goto fail;
        image = t[4];
    }
    *bands = image->Bands;
    *bytes = vips_image_write_to_memory(image, length);
    g_object_unref(scope);
    return *bytes ? 0 : vv_fail(error);
fail:
    g_object_unref(scope);
    return vv_fail(error);
}
