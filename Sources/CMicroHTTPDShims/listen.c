#include "CMicroHTTPDShims.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* The sockets are made here rather than by libmicrohttpd so that port 0 can be read back, a Unix socket
 * gets its permissions before it accepts, and both reach the daemon through MHD_OPTION_LISTEN_SOCKET. */

enum { backlog = 128 };

static int fail(int fd) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

int mh_listen_tcp(const char *host, uint16_t port, uint16_t *bound_port) {
    struct addrinfo hints = {0}, *found = NULL;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    hints.ai_socktype = SOCK_STREAM;
    char service[8];
    snprintf(service, sizeof service, "%u", (unsigned)port);
    if (getaddrinfo(host, service, &hints, &found) != 0 || found == NULL) {
        errno = EINVAL;
        return -1;
    }
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        freeaddrinfo(found);
        return -1;
    }
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    int bound = bind(fd, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    if (bound != 0 || listen(fd, backlog) != 0) return fail(fd);
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return fail(fd);
    *bound_port = ntohs(address.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&address)->sin6_port
                                                      : ((struct sockaddr_in *)&address)->sin_port);
    return fd;
}

int mh_listen_unix(const char *path, unsigned mode) {
    struct sockaddr_un address = {0};
    address.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) return fail(fd);
    /* No client can connect before listen(), so the mode is in place before anyone can use the socket. */
    if (chmod(path, mode) != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        unlink(path);
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
