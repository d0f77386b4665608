/* Shared by the shim's files; not part of the surface Swift sees. */
#ifndef CVIPS_SHIMS_ERROR_H
#define CVIPS_SHIMS_ERROR_H

#include "CVipsShims.h"

/* Moves libvips' error buffer (under its lock) into *error and returns -1. */
int vv_fail(vv_error *error);

#endif
