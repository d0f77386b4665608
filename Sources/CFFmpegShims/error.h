#ifndef CFFMPEG_SHIMS_ERROR_H
#define CFFMPEG_SHIMS_ERROR_H

#include "CFFmpegShims.h"

/* Fills `error` with the step, FFmpeg's code and its words (or `message` when code is 0); returns -1. */
int vf_fail(vf_error *error, vf_step step, int code, const char *message);

#endif
