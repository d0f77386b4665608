#define _GNU_SOURCE
#include "CLandlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef LANDLOCK_RESTRICT_SELF_TSYNC
#define LANDLOCK_RESTRICT_SELF_TSYNC (1U << 3)
#endif

int cl_landlock_abi(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
}

int cl_landlock_deny_ruleset(unsigned long long handled_access_fs) {
    struct landlock_ruleset_attr attributes = {.handled_access_fs = handled_access_fs};
    return (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
}

int cl_landlock_allow_reading(int ruleset, const char *path) {
    int parent = open(path, O_PATH | O_CLOEXEC);
    if (parent < 0) return errno;
    struct landlock_path_beneath_attr beneath = {
        .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR,
        .parent_fd = parent,
    };
    long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
    int error = added == 0 ? 0 : errno;
    close(parent);
    return error;
}

int cl_landlock_restrict_process(int ruleset) {
    return syscall(SYS_landlock_restrict_self, ruleset, LANDLOCK_RESTRICT_SELF_TSYNC) == 0 ? 0 : errno;
}

// libdispatch blocks every signal in its threads but the synchronous ones, SIGPIPE and SIGPROF (its worker
// threads, and the libvips threads they start, inherit that mask). A decoder child profiles nothing, so
// SIGPROF is the one signal every thread takes and none expects.
enum { round_signal = SIGPROF };

// The round signals one thread at a time, so one answer is in flight: the handler writes it, then posts.
static int round_ruleset = -1;
static atomic_int answer_thread;
static atomic_int answer_error;
static sem_t answered;

// Runs on the signalled thread: only raw system calls and sem_post, which are async-signal-safe. Landlock
// requires no_new_privs of the thread itself (prctl sets it for the calling thread only).
static void restrict_this_thread(int signal) {
    (void)signal;
    int saved = errno;
    int error = 0;
    if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || syscall(SYS_landlock_restrict_self, round_ruleset, 0) != 0) {
        error = errno;
    }
    atomic_store(&answer_error, error);
    atomic_store(&answer_thread, (int)syscall(SYS_gettid));
    sem_post(&answered);
    errno = saved;
}

// The answer of `thread`: 0, its errno, ESRCH when it ended before it took the signal, or ETIMEDOUT after
// 10 s (a thread that blocks the signal never answers). An answer from a thread given up as ended is skipped.
static int await_answer(int process, int thread) {
    for (int tries = 0; tries < 200; tries++) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += 50 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        if (sem_clockwait(&answered, CLOCK_MONOTONIC, &until) == 0) {
            if (atomic_load(&answer_thread) == thread) return atomic_load(&answer_error);
            continue;
        }
        if (errno != ETIMEDOUT && errno != EINTR) return errno;
        if (syscall(SYS_tgkill, process, thread, 0) != 0 && errno == ESRCH) return ESRCH;
    }
    return ETIMEDOUT;
}

static bool contains(const int *threads, size_t count, int thread) {
    for (size_t index = 0; index < count; index++) {
        if (threads[index] == thread) return true;
    }
    return false;
}

// One pass over the threads: each one not yet in `done` is signalled and waited for. Sets `found` when there
// was one; 0 or the errno of the thread that failed, whose id goes to `failed`.
static int restrict_pass(DIR *threads, int **done, size_t *count, bool *found, int *failed) {
    int process = getpid();
    struct dirent *entry;
    rewinddir(threads);
    while ((entry = readdir(threads)) != NULL) {
        int thread = atoi(entry->d_name);
        if (thread <= 0 || contains(*done, *count, thread)) continue;
        *found = true;
        int error = syscall(SYS_tgkill, process, thread, round_signal) == 0 ? await_answer(process, thread)
                                                                            : errno;
        if (error != 0 && error != ESRCH) {
            *failed = thread;
            return error;
        }
        int *grown = realloc(*done, (*count + 1) * sizeof **done);
        if (grown == NULL) return ENOMEM;
        grown[(*count)++] = thread;
        *done = grown;
    }
    return 0;
}

// A thread created by a restricted thread is born restricted; one created by a thread not yet restricted
// shows in /proc/self/task before its creator can take the signal, so the pass after it finds it. The round
// ends with a pass that finds no thread left, then restricts the calling thread, which starts none meanwhile.
// (A thread id is reused only after the kernel's cyclic allocation has gone round the whole pid space.)
int cl_landlock_restrict_every_thread(int ruleset, int *thread) {
    int self = (int)syscall(SYS_gettid);
    *thread = self;
    DIR *threads = opendir("/proc/self/task");
    if (threads == NULL) return errno;
    int *done = malloc(sizeof *done);
    if (done == NULL || sem_init(&answered, 0, 0) != 0) {
        free(done);
        closedir(threads);
        return errno;
    }
    done[0] = self;
    size_t count = 1;
    round_ruleset = ruleset;
    struct sigaction action = {.sa_handler = restrict_this_thread, .sa_flags = SA_RESTART};
    struct sigaction previous;
    sigemptyset(&action.sa_mask);
    int error = sigaction(round_signal, &action, &previous) == 0 ? 0 : errno;
    if (error == 0) {
        bool found = true;
        while (error == 0 && found) {
            found = false;
            error = restrict_pass(threads, &done, &count, &found, thread);
        }
        sigaction(round_signal, &previous, NULL);
    }
    if (error == 0) {
        *thread = self;
        error = syscall(SYS_landlock_restrict_self, ruleset, 0) == 0 ? 0 : errno;
    }
    free(done);
    sem_destroy(&answered);
    closedir(threads);
    return error;
}
