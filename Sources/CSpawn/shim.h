// What starting a child process needs beyond Swift's Glibc module: glibc's closefrom spawn action (2.34+)
// and pipe2, which the headers declare only for _GNU_SOURCE (declared here again, as glibc has them), and
// the wait-status macros, which Swift cannot import.
#ifndef CSPAWN_SHIM_H
#define CSPAWN_SHIM_H

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int pipe2(int descriptors[2], int flags);

/// A pipe whose two ends are close-on-exec from the start, so no program another thread starts holds one.
static inline int csp_pipe(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC); }

/// Closes every descriptor from `lowest` up in the child, at exec time: nothing the parent has open, however
/// recently and by whichever thread, reaches the child.
static inline int csp_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

/// The signal that ended a child, or 0 when it exited.
static inline int csp_termination_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

/// The exit status of a child that exited, or -1 when a signal ended it.
static inline int csp_exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

#endif
