#ifndef CLANDLOCK_H
#define CLANDLOCK_H

// Why this shim exists: Landlock's system calls, which glibc does not wrap, and the round that puts every
// thread of the process under one ruleset on kernels whose landlock_restrict_self binds only the calling
// thread — a signal handler, which Swift cannot be. The header includes no system header (their types would
// then belong to this module as well as to Glibc).

/// The Landlock ABI version the kernel offers, or -1 with errno set (ENOSYS or EOPNOTSUPP: it offers none).
int cl_landlock_abi(void);

/// A ruleset that handles the given filesystem rights and grants none of them; a descriptor, or -1 with errno.
int cl_landlock_deny_ruleset(unsigned long long handled_access_fs);

/// Grants reading the files and listing the directories beneath `path` (`READ_FILE`, `READ_DIR`) in the
/// ruleset, and nothing else there; 0 or an errno.
int cl_landlock_allow_reading(int ruleset, const char *path);

/// Enforces the ruleset on every thread of the process at once, in the kernel (`TSYNC`, ABI 8 and later);
/// 0 or an errno.
int cl_landlock_restrict_process(int ruleset);

/// Enforces the ruleset on every thread of the process, one thread at a time, the calling thread last: each
/// other thread takes it in a SIGPROF handler, until a pass over `/proc/self/task` finds none left. 0, or the
/// errno of the thread left unrestricted, whose id goes to `thread` (ETIMEDOUT: it never took the signal).
int cl_landlock_restrict_every_thread(int ruleset, int *thread);

#endif
