// Preloaded ahead of libfiu's POSIX wrappers (see FileFaults.swift): an open of a path under /proc goes
// straight to the C library, every other open through libfiu, which may fail it. A failing disk never
// fails /proc, and libdispatch ends the process when its thread-pool monitor cannot open
// /proc/<thread>/stat, so a fault there would test the runtime's reaction to an impossible fault.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/types.h>

typedef int open_call(const char *, int, ...);

// Looked up at the first call, not in a constructor: libfiu's control thread, started by its own
// constructor, may open its pipes before this library's constructor would have run. Two threads racing
// here store the same address.
static open_call *resolved(open_call *volatile *slot, int system, const char *name) {
    if (*slot == NULL) {
        void *library = system ? dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD) : RTLD_NEXT;
        *slot = (open_call *)dlsym(library, name);
    }
    return *slot;
}

static int route(const char *name, const char *path, int flags, mode_t mode) {
    static open_call *volatile calls[2][2];
    int open64 = strcmp(name, "open64") == 0, system = strncmp(path, "/proc/", 6) == 0;
    return resolved(&calls[open64][system], system, name)(path, flags, mode);
}

static mode_t mode_of(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(arguments, mode_t) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    return route("open", path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    return route("open64", path, flags, mode);
}
