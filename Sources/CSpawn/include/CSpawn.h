#ifndef CSPAWN_H
#define CSPAWN_H

// Why this shim exists: what starting a child process needs beyond Swift's Glibc module — glibc's closefrom
// spawn action (2.34+) and pipe2, declared only for _GNU_SOURCE, and the wait-status macros, which Swift
// cannot import. The header includes no system header (their types would then belong to this module as
// well as to Glibc), so the spawn structures travel as plain pointers.

/// Closes every descriptor from `lowest` up in the child, at exec time: nothing the parent has open, however
/// recently and by whichever thread, reaches the child. `actions` is a `posix_spawn_file_actions_t *`.
int csp_close_from(void *actions, int lowest);

/// A pipe whose two ends are close-on-exec from the start, so no program another thread starts holds one.
int csp_pipe(int descriptors[2]);

/// The signal that ended a child, or 0 when it exited.
int csp_termination_signal(int status);

/// The exit status of a child that exited, or -1 when a signal ended it.
int csp_exit_status(int status);

#endif
