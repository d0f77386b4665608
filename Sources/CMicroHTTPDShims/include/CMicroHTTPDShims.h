#ifndef CMICROHTTPD_SHIMS_H
#define CMICROHTTPD_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/* What Swift sees of libmicrohttpd: a non-variadic start, a callback when the headers of a request with a
 * body are in (to answer at once or say how many body bytes it may have), one callback per complete
 * request, and one call to answer it, from any thread. The shim makes no decisions: limits and answers come
 * from Swift. */

typedef struct mh_server mh_server;
/* One request on its connection, from the callback until mh_respond; opaque to Swift. */
typedef struct mh_exchange mh_exchange;

/* How the daemon runs; every limit is Swift's choice. */
typedef struct mh_server_options {
    int listen_fd;                  /* a listening socket made by mh_listen_tcp or mh_listen_unix */
    unsigned threads;               /* I/O threads polling connections (no request ever blocks one) */
    unsigned connection_limit;      /* connections open at once; more are closed on accept */
    size_t connection_memory_limit; /* bytes per connection for the request line and headers; a head over
                                       it gets libmicrohttpd's own 414 or 431, in our JSON by our patch */
    unsigned connection_timeout;    /* seconds without I/O before a connection is closed (header and body) */
    unsigned header_timeout_ms;     /* a request head must be whole this long after it began; 0: no limit */
    uint64_t min_body_rate;         /* body bytes per second a request must average once its body has
                                       taken header_timeout_ms; 0: no limit */
    size_t spool_threshold;         /* body bytes kept in memory; a longer body goes to a spool file */
    const char *spool_directory;    /* where spool files are made; each is unlinked as soon as it is made,
                                       so it vanishes with its descriptor whatever happens to the process */
} mh_server_options;

/* One complete request. Pointers and the spool descriptor are valid only during the callback. */
typedef struct mh_request {
    const char *method;
    const char *path;               /* percent-decoded, without the query */
    const char *target;             /* path and query exactly as sent, before any decoding */
    const uint8_t *body;            /* the body when it is in memory (body_file < 0) */
    size_t body_length;             /* the body's length, in memory or in the spool file */
    int body_file;                  /* >= 0: the body is this spool file's first body_length bytes */
    int body_too_large;             /* declared or received body over the head handler's limit; not kept */
    int body_unstored;              /* not kept: the errno with which the spool file could not be made or
                                       written (ENOSPC: the disk is full), or ENOMEM; 0 when kept */
    size_t head_size;               /* bytes of the request line and headers as received */
    int head_unseen;                /* the head callback was not called (the request declared no body):
                                       the handler judges the head too */
} mh_request;

typedef struct mh_header {
    const char *name;
    const char *value;
} mh_header;

/* An answer; libmicrohttpd copies everything before mh_respond returns, except an open file, which it
 * reads as it sends (no copy of the whole file in memory) and closes when done. */
typedef struct mh_response {
    unsigned status;
    const mh_header *headers;
    size_t header_count;
    const uint8_t *body;
    size_t body_length;
    int file_descriptor;            /* >= 0: the body is file_size bytes of this file from file_offset, not body */
    uint64_t file_offset;
    uint64_t file_size;
} mh_response;

/* Called once per request that declares a body (Content-Length or Transfer-Encoding), on an I/O thread when
 * its headers are in, before any body byte is read (the request's body and flags are empty); a request
 * without one goes straight to the request handler, flagged head_unseen. Either answers it with mh_respond
 * before returning — its body is then never read — or returns the most body bytes it may have: past them
 * the body is no longer kept, the rest is read and dropped, and the request arrives flagged body_too_large
 * (at once, unread, when its Content-Length is over). */
typedef uint64_t (*mh_head_handler)(void *context, mh_exchange *exchange, const mh_request *head);

/* Called once per request on an I/O thread; must return quickly and call mh_respond exactly once, now or
 * later from any thread. Answer a body_too_large request at once: when its Content-Length was over the
 * limit, its body is then never read. */
typedef void (*mh_handler)(void *context, mh_exchange *exchange, const mh_request *request);

typedef enum mh_slow_phase { MH_SLOW_HEAD = 0, MH_SLOW_BODY = 1 } mh_slow_phase;

/* Called from the server's own thread each time it closes a connection over a deadline. */
typedef void (*mh_slow_handler)(void *context, mh_slow_phase phase);

/* Called for each header or query argument by mh_exchange_values. */
typedef void (*mh_value_visitor)(void *context, const char *name, const char *value);

typedef enum mh_value_kind { MH_HEADER = 0, MH_QUERY = 1 } mh_value_kind;

/* A listening TCP socket on a numeric address; port 0 picks a free port, written to *bound_port.
 * Returns the descriptor, or -1 with errno set. */
int mh_listen_tcp(const char *host, uint16_t port, uint16_t *bound_port);

/* A listening Unix socket at path with the given permission bits (set before it accepts).
 * Returns the descriptor, or -1 with errno set. */
int mh_listen_unix(const char *path, unsigned mode);

/* The cores this process may run on (sched_getaffinity): fewer than the machine's under taskset or a CPU
 * set. At least 1. */
unsigned mh_usable_cores(void);

/* Starts the daemon's threads; NULL when libmicrohttpd refuses the options. */
mh_server *mh_start(const mh_server_options *options, mh_head_handler head, mh_handler handler,
                    mh_slow_handler slow, void *context);

/* Stops accepting new connections; open connections are still served. */
void mh_quiesce(mh_server *server);

/* Connections open now, idle keep-alive ones included. */
unsigned mh_connection_count(mh_server *server);

/* Stops the daemon. Every exchange must have been answered. */
void mh_stop(mh_server *server);

/* Visits the request's headers or query arguments; only during the callback. */
void mh_exchange_values(mh_exchange *exchange, mh_value_kind kind, mh_value_visitor visit, void *context);

/* Answers the request (copied at once). Returns 0, or -1 when the response could not be made. */
int mh_respond(mh_exchange *exchange, const mh_response *response);

#endif
