#include <string.h>
#include <vips/vips.h>

#include "error.h"

int
vv_fail(vv_error *error)
{
    char *text = vips_error_buffer_copy();
    if (error) {
        g_strlcpy(error->message, text && text[0] ? text : "libvips failed without a message",
                  sizeof(error->message));
        size_t length = strlen(error->message);
        while (length > 0 && error->message[length - 1] == '\n')
            error->message[--length] = '\0';
    }
    g_free(text);
    return -1;
}
