#include "error.h"

static void
vj_error_exit(j_common_ptr info)
{
    vj_error *error = (vj_error *) info->err;
    info->err->format_message(info, error->message);
    longjmp(error->recovery, 1);
}

struct jpeg_error_mgr *
vj_error_init(vj_error *error, char *message, struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *))
{
    struct jpeg_error_mgr *manager = std_error(&error->manager);
    manager->error_exit = vj_error_exit;
    error->message = message;
    return manager;
}
