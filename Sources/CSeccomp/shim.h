// What a decoder child does to itself at the C level: the kernel doors it closes behind itself (libseccomp,
// Debian libseccomp-dev; the prctl system call, which glibc offers only through a variadic function), and
// glibc's malloc_trim, which Swift's Glibc module does not export.
#ifndef CSECCOMP_SHIM_H
#define CSECCOMP_SHIM_H

#include <errno.h>
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

#endif
