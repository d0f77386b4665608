#define _GNU_SOURCE /* mkostemp */

#include "CMicroHTTPDShims.h"

#include <sys/types.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <microhttpd.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Requests are answered asynchronously: the handler hands Swift the complete request, and when no answer
 * came back before it returns, the connection is suspended until mh_respond resumes it from any thread.
 * The exchange's lock orders "suspend" before "resume" whichever side gets there first.
 *
 * A body is kept in memory up to the spool threshold; a longer one goes to a spool file, unlinked as soon
 * as it is made, so memory stays bounded and nothing is left on disk whatever becomes of the request. Past
 * the head handler's limit the body is dropped at once (memory freed, spool file closed) and the rest of it
 * read and thrown away: libmicrohttpd can queue an answer only before the body or after all of it.
 *
 * libmicrohttpd's own timeout is for idleness, which a client sending a byte a second never reaches. Each
 * connection is tracked from its start to its close with the phase of its request; a sweeper thread shuts
 * down (SHUT_RDWR) a connection whose head has taken longer than its deadline or whose body arrives slower
 * than its rate, and libmicrohttpd then closes it on its own thread as a client gone. The head of a later
 * request on a kept-alive TCP connection begins when its first byte comes in (TCP_INFO's byte count grows),
 * so an idle connection is left to the idle timeout. */

/* Where a connection is in its request. */
typedef enum stage { PHASE_IDLE, PHASE_HEAD, PHASE_BODY, PHASE_BUSY, PHASE_CUT } stage;

/* One open connection, from libmicrohttpd's start notice to its close notice; guarded by the server's
 * watch_lock. */
typedef struct watched {
    struct watched *previous, *next;
    int fd;
    int tcp;
    stage phase;
    uint64_t since;      /* monotonic nanoseconds when the phase began */
    uint64_t body_bytes; /* body bytes received in PHASE_BODY */
    uint64_t mark;       /* TCP bytes received when the sweeper first saw the connection idle */
    int marked;
} watched;

struct mh_server {
    struct MHD_Daemon *daemon;
    mh_head_handler head;
    mh_handler handler;
    void *context;
    size_t spool_threshold;
    char *spool_directory;
    mh_slow_handler slow;
    uint64_t header_timeout; /* nanoseconds; 0: none */
    uint64_t min_body_rate;
    pthread_mutex_t watch_lock;
    pthread_cond_t wake;
    watched *watched;
    int stopping;
    int sweeping;
    pthread_t sweeper;
};

struct mh_exchange {
    mh_server *server;
    struct MHD_Connection *connection;
    watched *watch; /* NULL when the connection could not be tracked */
    char *target; /* the request target exactly as sent, before unescaping: what a signed URL signs */
    pthread_mutex_t lock;
    uint64_t limit;
    size_t head_size;
    uint8_t *body;
    uint64_t length; /* body bytes kept, in memory or in the spool file */
    size_t capacity;
    int spool;       /* the spool file, or -1 while the body is in memory */
    int too_large;
    int unstored;    /* the errno that kept the body from being stored, or 0 */
    int head_unseen; /* the request declared no body, and its head was not shown to Swift apart */
    int started;
    int dispatched;
    int suspended;
    int answered;
    unsigned status;
    struct MHD_Response *response; /* NULL after an answer that could not be made: the connection closes */
};

static uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* Moves a tracked connection to `to`, from any phase but PHASE_CUT, or only from `from` when it is given. */
static void move(mh_server *server, watched *connection, const stage *from, stage to) {
    if (connection == NULL) return;
    pthread_mutex_lock(&server->watch_lock);
    if (connection->phase != PHASE_CUT && (from == NULL || connection->phase == *from)) {
        connection->phase = to;
        connection->since = now_ns();
        connection->body_bytes = 0;
        connection->marked = 0;
    }
    pthread_mutex_unlock(&server->watch_lock);
}

static void notify_connection(void *context, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
    mh_server *server = context;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        watched *closed = *socket_context;
        if (closed == NULL) return;
        pthread_mutex_lock(&server->watch_lock);
        if (closed->previous != NULL) closed->previous->next = closed->next;
        else server->watched = closed->next;
        if (closed->next != NULL) closed->next->previous = closed->previous;
        pthread_mutex_unlock(&server->watch_lock);
        free(closed);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    watched *opened = calloc(1, sizeof *opened);
    if (opened == NULL || info == NULL) {
        free(opened);
        return;
    }
    opened->fd = info->connect_fd;
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    opened->tcp = getsockname(opened->fd, (struct sockaddr *)&address, &length) == 0 &&
                  (address.ss_family == AF_INET || address.ss_family == AF_INET6);
    opened->phase = PHASE_HEAD;
    opened->since = now_ns();
    pthread_mutex_lock(&server->watch_lock);
    opened->next = server->watched;
    if (server->watched != NULL) server->watched->previous = opened;
    server->watched = opened;
    pthread_mutex_unlock(&server->watch_lock);
    *socket_context = opened;
}

/* An idle kept-alive TCP connection whose byte count grew since it was first seen idle has begun a head. */
static void notice_head(watched *idle, uint64_t now) {
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (!idle->tcp || getsockopt(idle->fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return;
    if (!idle->marked) {
        idle->mark = info.tcpi_bytes_received;
        idle->marked = 1;
    } else if (info.tcpi_bytes_received > idle->mark) {
        idle->phase = PHASE_HEAD;
        idle->since = now;
    }
}

/* Past the grace of one head deadline, a body must have averaged min_body_rate bytes a second. */
static int body_too_slow(const mh_server *server, const watched *body, uint64_t now) {
    uint64_t grace = server->header_timeout;
    uint64_t elapsed = now - body->since;
    if (server->min_body_rate == 0 || elapsed <= grace) return 0;
    long double owed = (long double)server->min_body_rate * (long double)(elapsed - grace) / 1e9L;
    return (long double)body->body_bytes < owed;
}

static void *sweep(void *context) {
    mh_server *server = context;
    uint64_t interval = server->header_timeout / 4;
    if (interval < 50000000u) interval = 50000000u;
    if (interval > 1000000000u || interval == 0) interval = 1000000000u;
    pthread_mutex_lock(&server->watch_lock);
    while (!server->stopping) {
        uint64_t wake = now_ns() + interval;
        struct timespec until = {(time_t)(wake / 1000000000u), (long)(wake % 1000000000u)};
        pthread_cond_timedwait(&server->wake, &server->watch_lock, &until);
        if (server->stopping) break;
        uint64_t now = now_ns();
        unsigned cut[2] = {0, 0};
        for (watched *next = server->watched; next != NULL; next = next->next) {
            int slow = -1;
            if (next->phase == PHASE_IDLE) notice_head(next, now);
            else if (next->phase == PHASE_HEAD && server->header_timeout > 0 &&
                     now - next->since > server->header_timeout)
                slow = MH_SLOW_HEAD;
            else if (next->phase == PHASE_BODY && body_too_slow(server, next, now))
                slow = MH_SLOW_BODY;
            if (slow < 0) continue;
            shutdown(next->fd, SHUT_RDWR);
            next->phase = PHASE_CUT;
            cut[slow]++;
        }
        pthread_mutex_unlock(&server->watch_lock);
        for (int which = 0; which < 2; which++)
            for (unsigned count = 0; count < cut[which]; count++)
                server->slow(server->context, (mh_slow_phase)which);
        pthread_mutex_lock(&server->watch_lock);
    }
    pthread_mutex_unlock(&server->watch_lock);
    return NULL;
}

static mh_exchange *exchange_new(mh_server *server, struct MHD_Connection *connection) {
    mh_exchange *exchange = calloc(1, sizeof *exchange);
    if (exchange == NULL) return NULL;
    exchange->server = server;
    exchange->connection = connection;
    exchange->spool = -1;
    pthread_mutex_init(&exchange->lock, NULL);
    return exchange;
}

/* Forgets the body kept so far: its memory is freed and its spool file, already unlinked, closed. */
static void drop_body(mh_exchange *exchange) {
    free(exchange->body);
    exchange->body = NULL;
    exchange->capacity = 0;
    exchange->length = 0;
    if (exchange->spool >= 0) close(exchange->spool);
    exchange->spool = -1;
}

static int write_all(int fd, const void *data, size_t size) {
    const uint8_t *next = data;
    while (size > 0) {
        ssize_t written = write(fd, next, size);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return 0;
        next += written;
        size -= (size_t)written;
    }
    return 1;
}

/* Moves the body kept in memory to a new spool file; 0 when it cannot be made or written. */
static int spool(mh_exchange *exchange) {
    const char *directory = exchange->server->spool_directory;
    size_t size = strlen(directory) + sizeof "/variantd-body-XXXXXX";
    char *path = malloc(size);
    if (path == NULL) return 0;
    snprintf(path, size, "%s/variantd-body-XXXXXX", directory);
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0) unlink(path);
    free(path);
    if (fd < 0) return 0;
    exchange->spool = fd;
    if (!write_all(fd, exchange->body, (size_t)exchange->length)) return 0;
    free(exchange->body);
    exchange->body = NULL;
    exchange->capacity = 0;
    return 1;
}

static void append(mh_exchange *exchange, const char *data, size_t size) {
    if (exchange->too_large || exchange->unstored) return;
    if (size > exchange->limit - exchange->length) {
        exchange->too_large = 1;
        drop_body(exchange);
        return;
    }
    size_t threshold = exchange->server->spool_threshold;
    errno = 0;
    if (exchange->spool < 0 && exchange->length + size > threshold && !spool(exchange)) {
        exchange->unstored = errno ? errno : EIO;
        drop_body(exchange);
        return;
    }
    if (exchange->spool >= 0) {
        if (!write_all(exchange->spool, data, size)) {
            exchange->unstored = errno ? errno : EIO;
            drop_body(exchange);
            return;
        }
        exchange->length += size;
        return;
    }
    if (exchange->length + size > exchange->capacity) {
        size_t capacity = exchange->capacity ? exchange->capacity : 16384;
        while (capacity < exchange->length + size) capacity *= 2;
        if (capacity > threshold) capacity = threshold;
        uint8_t *grown = realloc(exchange->body, capacity);
        if (grown == NULL) {
            exchange->unstored = ENOMEM;
            drop_body(exchange);
            return;
        }
        exchange->body = grown;
        exchange->capacity = capacity;
    }
    memcpy(exchange->body + exchange->length, data, size);
    exchange->length += size;
}

static void dispatch(mh_exchange *exchange, const char *url, const char *method) {
    exchange->dispatched = 1;
    move(exchange->server, exchange->watch, NULL, PHASE_BUSY);
    mh_request request = {.method = method,
                          .path = url,
                          .target = exchange->target,
                          .body = exchange->body,
                          .body_length = (size_t)exchange->length,
                          .body_file = exchange->spool,
                          .body_too_large = exchange->too_large,
                          .body_unstored = exchange->unstored,
                          .head_size = exchange->head_size,
                          .head_unseen = exchange->head_unseen};
    exchange->server->handler(exchange->server->context, exchange, &request);
    pthread_mutex_lock(&exchange->lock);
    if (!exchange->answered) {
        exchange->suspended = 1;
        MHD_suspend_connection(exchange->connection);
    }
    pthread_mutex_unlock(&exchange->lock);
}

static enum MHD_Result queue_answer(mh_exchange *exchange) {
    pthread_mutex_lock(&exchange->lock);
    enum MHD_Result result = MHD_YES;
    if (exchange->answered) {
        result = exchange->response == NULL
            ? MHD_NO
            : MHD_queue_response(exchange->connection, exchange->status, exchange->response);
        if (exchange->response != NULL) MHD_destroy_response(exchange->response);
        exchange->response = NULL;
    }
    pthread_mutex_unlock(&exchange->lock);
    return result;
}

/* Called once per request with the target as sent; the exchange made here is the request's context. */
static void *log_target(void *context, const char *uri, struct MHD_Connection *connection) {
    mh_exchange *exchange = exchange_new(context, connection);
    if (exchange == NULL) return NULL;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    exchange->watch = info == NULL ? NULL : info->socket_context;
    move(exchange->server, exchange->watch, &(stage){PHASE_IDLE}, PHASE_HEAD);
    exchange->target = strdup(uri == NULL ? "" : uri);
    if (exchange->target == NULL) {
        pthread_mutex_destroy(&exchange->lock);
        free(exchange);
        return NULL;
    }
    return exchange;
}

static enum MHD_Result access_handler(void *context, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **request_context) {
    (void)version;
    mh_server *server = context;
    mh_exchange *exchange = *request_context;
    if (exchange == NULL) return MHD_NO; /* log_target could not allocate it */
    if (!exchange->started) {
        exchange->started = 1;
        move(server, exchange->watch, NULL, PHASE_BODY);
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
        exchange->head_size = info == NULL ? 0 : info->header_size;
        const char *declared =
            MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        const char *coding =
            MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
        if (declared == NULL && coding == NULL) {
            /* No body can follow (RFC 9112 §6.3): Swift is given the head with the request. Answering here
             * would make libmicrohttpd close the connection, unsure that the body was read. */
            exchange->head_unseen = 1;
            return MHD_YES;
        }
        mh_request head = {.method = method, .path = url, .target = exchange->target,
                           .body_file = -1, .head_size = exchange->head_size};
        exchange->limit = server->head(server->context, exchange, &head);
        if (exchange->answered) {
            /* Answered from the headers alone: the body is never read. */
            exchange->dispatched = 1;
            move(server, exchange->watch, NULL, PHASE_BUSY);
            return queue_answer(exchange);
        }
        if (declared != NULL && strtoull(declared, NULL, 10) > exchange->limit) {
            /* Answered before the body is read: the client never has to send it. */
            exchange->too_large = 1;
            dispatch(exchange, url, method);
            return queue_answer(exchange);
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        if (exchange->watch != NULL) {
            pthread_mutex_lock(&server->watch_lock);
            exchange->watch->body_bytes += *upload_data_size;
            pthread_mutex_unlock(&server->watch_lock);
        }
        append(exchange, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (!exchange->dispatched) dispatch(exchange, url, method);
    return queue_answer(exchange);
}

static void completed(void *context, struct MHD_Connection *connection, void **request_context,
                      enum MHD_RequestTerminationCode code) {
    (void)context, (void)connection, (void)code;
    mh_exchange *exchange = *request_context;
    if (exchange == NULL) return;
    move(exchange->server, exchange->watch, NULL, PHASE_IDLE);
    if (exchange->response != NULL) MHD_destroy_response(exchange->response);
    pthread_mutex_destroy(&exchange->lock);
    free(exchange->target);
    drop_body(exchange);
    free(exchange);
    *request_context = NULL;
}

unsigned mh_usable_cores(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int count = CPU_COUNT(&set);
    return count > 0 ? (unsigned)count : 1;
}

/* Frees what mh_start made before the daemon. */
static void release(mh_server *server) {
    pthread_cond_destroy(&server->wake);
    pthread_mutex_destroy(&server->watch_lock);
    free(server->spool_directory);
    free(server);
}

mh_server *mh_start(const mh_server_options *options, mh_head_handler head, mh_handler handler,
                    mh_slow_handler slow, void *context) {
    mh_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->head = head;
    server->handler = handler;
    server->slow = slow;
    server->context = context;
    server->header_timeout = (uint64_t)options->header_timeout_ms * 1000000u;
    server->min_body_rate = options->min_body_rate;
    pthread_mutex_init(&server->watch_lock, NULL);
    pthread_condattr_t clock;
    pthread_condattr_init(&clock);
    pthread_condattr_setclock(&clock, CLOCK_MONOTONIC);
    pthread_cond_init(&server->wake, &clock);
    pthread_condattr_destroy(&clock);
    server->spool_threshold = options->spool_threshold;
    server->spool_directory = strdup(options->spool_directory);
    if (server->spool_directory == NULL) {
        release(server);
        return NULL;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC;
    server->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, access_handler, server,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)options->listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)options->threads,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)options->connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)options->connection_memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)options->connection_timeout,
        MHD_OPTION_NOTIFY_COMPLETED, completed, (void *)server,
        MHD_OPTION_URI_LOG_CALLBACK, log_target, (void *)server,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, (void *)server,
        MHD_OPTION_END);
    if (server->daemon == NULL) {
        release(server);
        return NULL;
    }
    if (server->header_timeout > 0 || server->min_body_rate > 0)
        server->sweeping = pthread_create(&server->sweeper, NULL, sweep, server) == 0;
    return server;
}

void mh_quiesce(mh_server *server) {
    MHD_quiesce_daemon(server->daemon);
}

unsigned mh_connection_count(mh_server *server) {
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

void mh_stop(mh_server *server) {
    pthread_mutex_lock(&server->watch_lock);
    server->stopping = 1;
    pthread_cond_signal(&server->wake);
    pthread_mutex_unlock(&server->watch_lock);
    if (server->sweeping) pthread_join(server->sweeper, NULL);
    MHD_stop_daemon(server->daemon);
    release(server);
}

typedef struct visitor {
    mh_value_visitor visit;
    void *context;
} visitor;

static enum MHD_Result visit_value(void *context, enum MHD_ValueKind kind, const char *key,
                                   const char *value) {
    (void)kind;
    visitor *target = context;
    target->visit(target->context, key, value == NULL ? "" : value);
    return MHD_YES;
}

void mh_exchange_values(mh_exchange *exchange, mh_value_kind kind, mh_value_visitor visit, void *context) {
    visitor target = {visit, context};
    enum MHD_ValueKind which = kind == MH_QUERY ? MHD_GET_ARGUMENT_KIND : MHD_HEADER_KIND;
    MHD_get_connection_values(exchange->connection, which, visit_value, &target);
}

int mh_respond(mh_exchange *exchange, const mh_response *answer) {
    struct MHD_Response *response =
        answer->file_descriptor >= 0
            ? MHD_create_response_from_fd_at_offset64(answer->file_size, answer->file_descriptor,
                                                      answer->file_offset)
            : MHD_create_response_from_buffer(answer->body_length, (void *)answer->body,
                                              MHD_RESPMEM_MUST_COPY);
    if (response == NULL && answer->file_descriptor >= 0) close(answer->file_descriptor);
    int result = response == NULL ? -1 : 0;
    for (size_t index = 0; response != NULL && index < answer->header_count; index++) {
        const mh_header *header = &answer->headers[index];
        if (MHD_add_response_header(response, header->name, header->value) != MHD_YES) result = -1;
    }
    pthread_mutex_lock(&exchange->lock);
    exchange->answered = 1;
    exchange->status = answer->status;
    exchange->response = response;
    if (exchange->suspended) {
        exchange->suspended = 0;
        MHD_resume_connection(exchange->connection);
    }
    pthread_mutex_unlock(&exchange->lock);
    return result;
}
