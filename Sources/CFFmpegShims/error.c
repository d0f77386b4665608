#include <stdio.h>

#include <libavutil/error.h>

#include "error.h"

int
vf_fail(vf_error *error, vf_step step, int code, const char *message)
{
    error->step = step;
    error->code = code;
    if (code != 0) {
        char words[AV_ERROR_MAX_STRING_SIZE];
        av_strerror(code, words, sizeof(words));
        snprintf(error->message, sizeof(error->message), "%s: %s", message, words);
    } else {
        snprintf(error->message, sizeof(error->message), "%s", message);
    }
    return -1;
}
