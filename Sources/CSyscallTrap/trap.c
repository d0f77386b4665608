#define _GNU_SOURCE
#include "CSyscallTrap.h"

#include <signal.h>
#include <stddef.h>
#include <unistd.h>

// Only calls the filter itself allows, and only async-signal-safe ones: write, rt_sigaction, and raise's
// rt_sigprocmask, getpid, gettid and tgkill to itself.
static void cst_refused_call(int signal, siginfo_t *info, void *context) {
    (void)context;
    struct cst_refusal refusal = {info->si_syscall, info->si_arch};
    (void)!write(CST_REFUSAL_DESCRIPTOR, &refusal, sizeof refusal);
    struct sigaction fallback = {0};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, NULL);
    raise(signal);
}

int cst_report_refused_calls(void) {
    struct sigaction action = {0};
    action.sa_sigaction = cst_refused_call;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGSYS, &action, NULL);
}
