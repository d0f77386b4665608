#define _GNU_SOURCE
#include "CThreadProbe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

enum { tracing_failed = -1000 };

#if defined(__x86_64__)

// Waits until the thread stops again; `pass` gets the signal to pass on when it is resumed: none after an event
// stop (an interrupt), SIGTRAP | 0x80 after a system-call stop. 0, or the errno of the step that failed.
static int wait_stop(int thread, int *pass) {
    int status;
    int waited;
    do {
        waited = waitpid(thread, &status, __WALL);
    } while (waited < 0 && errno == EINTR);
    if (waited != thread) return errno;
    if (!WIFSTOPPED(status)) return ESRCH;
    *pass = (status >> 16) != 0 ? 0 : WSTOPSIG(status);
    return 0;
}

// Resumes the thread until its next system-call stop, passing on any signal it receives on the way.
static int next_system_call_stop(int thread, int pass) {
    for (;;) {
        if (ptrace(PTRACE_SYSCALL, thread, 0, pass) != 0) return errno;
        int error = wait_stop(thread, &pass);
        if (error != 0) return error;
        if (pass == (SIGTRAP | 0x80)) return 0;
    }
}

// Runs one system call in place of the one the thread stopped at the entry of, and leaves the thread at the
// exit stop; the call's return value goes to `result`.
static int substitute(int thread, struct user_regs_struct registers, long number, long first, long second,
                      long third, long *result) {
    registers.orig_rax = number;
    registers.rdi = first;
    registers.rsi = second;
    registers.rdx = third;
    if (ptrace(PTRACE_SETREGS, thread, 0, &registers) != 0) return errno;
    int error = next_system_call_stop(thread, 0);
    if (error != 0) return error;
    if (ptrace(PTRACE_GETREGS, thread, 0, &registers) != 0) return errno;
    *result = (long)registers.rax;
    return 0;
}

// From an exit stop: the registers that put the thread back onto its `syscall` instruction, to make call
// `number` with its own arguments once it is resumed.
static struct user_regs_struct call_again(struct user_regs_struct registers, long number) {
    registers.rip -= 2;
    registers.rax = number;
    registers.orig_rax = -1;
    return registers;
}

static int probe(int thread, long *opened) {
    // Stopped wherever it is (sleeping in a system call, most likely), then at the entry of its next call.
    int pass;
    if (ptrace(PTRACE_INTERRUPT, thread, 0, 0) != 0) return errno;
    int error = wait_stop(thread, &pass);
    if (error == 0) error = next_system_call_stop(thread, pass == (SIGTRAP | 0x80) ? 0 : pass);
    if (error != 0) return error;
    struct user_regs_struct entry;
    if (ptrace(PTRACE_GETREGS, thread, 0, &entry) != 0) return errno;
    // The path goes on the thread's stack below the red zone, and the word it covers is put back.
    unsigned long address = (entry.rsp - 256) & ~15UL;
    errno = 0;
    long covered = ptrace(PTRACE_PEEKDATA, thread, address, 0);
    if (errno != 0) return errno;
    if (ptrace(PTRACE_POKEDATA, thread, address, (long)'/') != 0) return errno;
    error = substitute(thread, entry, SYS_openat, AT_FDCWD, (long)address, O_RDONLY | O_DIRECTORY, opened);
    if (error == 0 && *opened >= 0) {
        struct user_regs_struct close_call = call_again(entry, SYS_close);
        long closed;
        error = ptrace(PTRACE_SETREGS, thread, 0, &close_call) == 0 ? next_system_call_stop(thread, 0) : errno;
        if (error == 0) error = substitute(thread, entry, SYS_close, *opened, 0, 0, &closed);
    }
    if (ptrace(PTRACE_POKEDATA, thread, address, covered) != 0 && error == 0) error = errno;
    struct user_regs_struct own_call = call_again(entry, (long)entry.orig_rax);
    if (ptrace(PTRACE_SETREGS, thread, 0, &own_call) != 0 && error == 0) error = errno;
    return error;
}

static long trace(int thread) {
    if (ptrace(PTRACE_SEIZE, thread, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_SUSPEND_SECCOMP) != 0) {
        return tracing_failed - errno;
    }
    long opened = 0;
    int error = probe(thread, &opened);
    ptrace(PTRACE_DETACH, thread, 0, 0);
    return error == 0 ? opened : tracing_failed - error;
}

// The tracing is done by a forked process of its own. A tracer's stops are reported to every thread of its
// process, and the child's parent (this process) has a thread waiting for the child's exit that would take the
// main thread's stop for an end and leave the tracer waiting for good. The fork calls nothing but system calls.
long tp_open_root_in_thread(int thread, int milliseconds) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return tracing_failed - errno;
    pid_t tracer = fork();
    if (tracer == 0) {
        long result = trace(thread);
        _exit(write(ends[1], &result, sizeof result) == sizeof result ? 0 : 1);
    }
    int error = tracer < 0 ? errno : 0;
    close(ends[1]);
    long result = 0;
    if (tracer > 0) {
        struct pollfd answer = {.fd = ends[0], .events = POLLIN};
        int ready;
        do {
            ready = poll(&answer, 1, milliseconds);
        } while (ready < 0 && errno == EINTR);
        if (ready != 1 || read(ends[0], &result, sizeof result) != sizeof result) {
            error = ready == 0 ? ETIMEDOUT : EPIPE;
            kill(tracer, SIGKILL);
        }
        int status;
        while (waitpid(tracer, &status, 0) < 0 && errno == EINTR) {
        }
    }
    close(ends[0]);
    return error == 0 ? result : tracing_failed - error;
}

#else

long tp_open_root_in_thread(int thread, int milliseconds) {
    (void)thread;
    (void)milliseconds;
    return tracing_failed - ENOSYS;
}

#endif
