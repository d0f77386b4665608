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
static open_call *resolved(open_call *volatile *slot, int system) {
    if (*slot == NULL) {
        void *library = system ? dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD) : RTLD_NEXT;
        *slot = (open_call *)dlsym(library, "open");
    }
    return *slot;
}

int open(const char *path, int flags, ...) {
    static open_call *volatile calls[2];
    mode_t mode = 0;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list arguments;
        va_start(arguments, flags);
        mode = va_arg(arguments, mode_t);
        va_end(arguments);
    }
    int system = strncmp(path, "/proc/", 6) == 0;
    return resolved(&calls[system], system)(path, flags, mode);
}

// On 64-bit Linux the two are one call, and libfiu fails both under the same name.
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
