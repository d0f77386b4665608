/* Shared by the shim's files; not part of the surface Swift sees. */
#ifndef CHEIF_SHIMS_ERROR_H
#define CHEIF_SHIMS_ERROR_H

#include <libheif/heif.h>

#include "CHeifShims.h"

/* Copies a libheif error into *error (its message may live in a context about to be freed); returns -1. */
int vh_fail(vh_error *error, struct heif_error cause);

/* Fills *error with a message of our own; returns -1. */
int vh_fail_with(vh_error *error, const char *message);

#endif
