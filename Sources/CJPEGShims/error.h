/* Shared by the shim's files; not part of the surface Swift sees. */
#ifndef CJPEG_SHIMS_ERROR_H
#define CJPEG_SHIMS_ERROR_H

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

/* libjpeg reports a fatal error by calling error_exit, which must not return: it writes libjpeg's words into
 * `message` and jumps back to `recovery`, set by the caller with setjmp. */
typedef struct vj_error {
    struct jpeg_error_mgr manager;
    jmp_buf recovery;
    char *message;
} vj_error;

/* The library's standard error manager (`jpeg_std_error` for libjpeg-turbo's decoder, `jpegli_std_error` for
 * jpegli's encoder) with that error_exit, for `info.err`. */
struct jpeg_error_mgr *vj_error_init(vj_error *error, char *message,
                                     struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *));

#endif
