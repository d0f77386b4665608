#include <stdio.h>

#include "error.h"

int
vh_fail(vh_error *error, struct heif_error cause)
{
    error->code = cause.code;
    error->subcode = cause.subcode;
    snprintf(error->message, sizeof(error->message), "%s", cause.message ? cause.message : "libheif error");
    return -1;
}

int
vh_fail_with(vh_error *error, const char *message)
{
    error->code = heif_error_Usage_error;
    error->subcode = 0;
    snprintf(error->message, sizeof(error->message), "%s", message);
    return -1;
}
