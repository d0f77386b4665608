#include "CMicroHTTPDShims.h"

#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Requests are answered asynchronously: the handler hands Swift the complete request, and when no answer
 * came back before it returns, the connection is suspended until mh_respond resumes it from any thread.
 * The exchange's lock orders "suspend" before "resume" whichever side gets there first. */

struct mh_server {
    struct MHD_Daemon *daemon;
    mh_handler handler;
    void *context;
    size_t max_body_bytes;
};

struct mh_exchange {
    mh_server *server;
    struct MHD_Connection *connection;
    char *target; /* the request target exactly as sent, before unescaping: what a signed URL signs */
    pthread_mutex_t lock;
    uint8_t *body;
    size_t length;
    size_t capacity;
    int too_large;
    int started;
    int dispatched;
    int suspended;
    int answered;
    unsigned status;
    struct MHD_Response *response; /* NULL after an answer that could not be made: the connection closes */
};

static mh_exchange *exchange_new(mh_server *server, struct MHD_Connection *connection) {
    mh_exchange *exchange = calloc(1, sizeof *exchange);
    if (exchange == NULL) return NULL;
    exchange->server = server;
    exchange->connection = connection;
    pthread_mutex_init(&exchange->lock, NULL);
    return exchange;
}

static void append(mh_exchange *exchange, const char *data, size_t size) {
    if (exchange->too_large) return;
    if (size > exchange->server->max_body_bytes - exchange->length) {
        exchange->too_large = 1;
        free(exchange->body);
        exchange->body = NULL;
        exchange->length = 0;
        return;
    }
    if (exchange->length + size > exchange->capacity) {
        size_t capacity = exchange->capacity ? exchange->capacity : 16384;
        while (capacity < exchange->length + size) capacity *= 2;
        if (capacity > exchange->server->max_body_bytes) capacity = exchange->server->max_body_bytes;
        uint8_t *grown = realloc(exchange->body, capacity);
        if (grown == NULL) {
            exchange->too_large = 1;
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
    mh_request request = {
        method, url, exchange->target, exchange->body, exchange->length, exchange->too_large};
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
        const char *declared =
            MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (declared != NULL && strtoull(declared, NULL, 10) > server->max_body_bytes) {
            /* Answered before the body is read: the client never has to send it. */
            exchange->too_large = 1;
            dispatch(exchange, url, method);
            return queue_answer(exchange);
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
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
    if (exchange->response != NULL) MHD_destroy_response(exchange->response);
    pthread_mutex_destroy(&exchange->lock);
    free(exchange->target);
    free(exchange->body);
    free(exchange);
    *request_context = NULL;
}

mh_server *mh_start(const mh_server_options *options, mh_handler handler, void *context) {
    mh_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->handler = handler;
    server->context = context;
    server->max_body_bytes = options->max_body_bytes;
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
        MHD_OPTION_END);
    if (server->daemon == NULL) {
        free(server);
        return NULL;
    }
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
    MHD_stop_daemon(server->daemon);
    free(server);
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
            ? MHD_create_response_from_fd64(answer->file_size, answer->file_descriptor)
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
