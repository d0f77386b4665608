// What a decoder child does to itself at the C level: the kernel doors it closes behind itself (libseccomp,
// Debian libseccomp-dev; the prctl and Landlock system calls, which glibc offers only through variadic
// functions or not at all), and glibc's malloc_trim, which Swift's Glibc module does not export.
#ifndef CSECCOMP_SHIM_H
#define CSECCOMP_SHIM_H

#include <errno.h>
#include <linux/landlock.h>
#include <linux/sched.h>
#include <malloc.h>
#include <seccomp.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// `PR_SET_NO_NEW_PRIVS`: no exec can ever grant this process more than it has.
static inline int cs_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

/// The seccomp action that fails a call with `error` instead of running it (`SCMP_ACT_ERRNO`).
static inline uint32_t cs_act_errno(int error) { return SCMP_ACT_ERRNO((uint32_t)error); }

/// The Landlock ABI version the kernel offers, or -1 (with errno) when it offers none.
static inline int cs_landlock_abi(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
}

/// A Landlock ruleset that handles the given filesystem rights and grants none of them; a descriptor or -1.
static inline int cs_landlock_deny_ruleset(uint64_t handled_access_fs) {
    struct landlock_ruleset_attr attributes = {.handled_access_fs = handled_access_fs};
    return (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
}

/// Enforces a ruleset on the calling thread and on every thread or process it creates afterwards.
static inline int cs_landlock_restrict_self(int ruleset) {
    return (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
}

#endif
