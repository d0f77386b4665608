/* The shim's internal state, shared by its files; not part of the surface Swift sees. */
#ifndef CHEIF_SHIMS_CONTEXT_H
#define CHEIF_SHIMS_CONTEXT_H

#include <libheif/heif.h>

#include "error.h"

struct vh_context {
    struct heif_context *context;
    struct heif_image_handle *primary;
    heif_item_id item;      /* the displayed item: `pitm`, or the first top-level image */
    void *bytes;            /* our copy of the file, read without a further copy by every context */
    size_t length;
    vh_limits limits;
    const char *decoder_id; /* the decoder plugin Swift chose (a static string), or NULL: libheif's choice */
};

/* What vh_pixels.owner points to: a decoded libheif image or a buffer of our own, and the profile. */
struct vh_owner {
    struct heif_image *image;
    void *buffer;
    void *icc;
};

void vh_apply_limits(struct heif_context *context, const vh_limits *limits);

/* Fills *out with decoded pixels that `owner` keeps alive, and the primary image's profile. */
void vh_hand_over(const vh_context *context, struct vh_owner *owner, void *pixels, int width, int height,
                  int bands, vh_pixels *out);

/* The raw ICC profile of a handle (malloc'd) or NULL. */
void *vh_copy_profile(const struct heif_image_handle *handle, size_t *length);

#endif
