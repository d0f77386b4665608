#ifndef CTHREADPROBE_H
#define CTHREADPROBE_H

// Why this shim exists: the tests look at what the kernel lets each thread of a sealed decoder child do, from
// outside it and with no help from it, through ptrace, which Swift cannot drive (register sets, wait
// statuses). The header includes no system header.

/// Stops thread `thread` of another process at its next system call, has it call
/// `openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY)` instead with its seccomp filter suspended (the tracer
/// needs CAP_SYS_ADMIN and CAP_SYS_PTRACE), closes what that opened, and lets the thread make its own call
/// again. Returns what openat returned in the thread — 0 or more when it opened, `-errno` when it was
/// refused — or, when tracing failed or took over `milliseconds`, `-1000 - errno` (`-1000 - ENOSYS` on an
/// architecture other than x86-64).
long tp_open_root_in_thread(int thread, int milliseconds);

#endif
