#define _GNU_SOURCE
#include "CSpawn.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

int csp_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}

int csp_pipe(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC); }

int csp_termination_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

int csp_exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
