/* listen.h - socket addresses as users write them ("localhost:10000",
 * "[::1]:10000", ":10000", "run/bg.sock"), the listening sockets the server
 * opens for them, and the client side's connect to the same addresses. */
#ifndef SHESH_LISTEN_H
#define SHESH_LISTEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "err.h"

#define LISTEN_HOST_MAX 256
#define LISTEN_PATH_MAX 108 /* sizeof(sun_path) on Linux, NUL included */
#define LISTEN_NAME_MAX 300

typedef enum ListenKind { LISTEN_TCP, LISTEN_UNIX } ListenKind;

typedef struct ListenAddr {
    ListenKind kind;
    char host[LISTEN_HOST_MAX]; /* TCP: name or address, no brackets; "" = any */
    char port[24];              /* TCP: decimal 0..65535 */
    char path[LISTEN_PATH_MAX]; /* Unix: the socket file */
    unsigned mode;              /* Unix: its permission bits (listen_open) */
} ListenAddr;

/* The Unix socket's mode unless the caller sets another: its owner and his
 * group may connect, nobody else (connecting needs write permission). */
#define LISTEN_UNIX_MODE 0660

/* "HOST:PORT", "[IPV6]:PORT" or ":PORT" (all interfaces). A bare IPv6
 * address must be bracketed, since its colons hide the port. */
bool listen_parse_tcp(const char *spec, ListenAddr *out, Err *err);

/* A Unix socket path (not empty, at most LISTEN_PATH_MAX - 1 bytes), with
 * mode LISTEN_UNIX_MODE. */
bool listen_parse_unix(const char *spec, ListenAddr *out, Err *err);

/* gnubg's rule for `external ADDR`: TCP if spec has a ':' and no '/',
 * otherwise a Unix socket path. */
bool listen_parse(const char *spec, ListenAddr *out, Err *err);

/* Writes the address back in the syntax listen_parse reads. */
void listen_format(const ListenAddr *a, char *buf, size_t size);

/* "1.2.3.4:80" or "[::1]:80": a socket address for messages and logs. */
void listen_sockaddr_name(const struct sockaddr *sa, socklen_t len, char *buf, size_t size);

/* The peer a TCP client counts as for the server's turns and caps (fair.h):
 * its address without the port (every connection from one host is one
 * peer), an IPv6 address by its /64 (what one site or host is given: it
 * could otherwise be as many peers as it likes), an IPv4 address mapped
 * into IPv6 as the IPv4 address it is. False for another family. */
bool listen_peer_key(const struct sockaddr *sa, socklen_t len, char *key, size_t size);

/* One listening socket (non-blocking, close-on-exec). */
typedef struct Listener {
    int fd;
    ListenKind kind;
    char name[LISTEN_NAME_MAX]; /* bound address: "127.0.0.1:10000", "[::1]:10000", "unix:PATH" */
    char path[LISTEN_PATH_MAX]; /* Unix: the file removed by listen_close; "" for TCP */
    dev_t dev;                  /* Unix: identity of the socket file we made, so */
    ino_t ino;                  /* listen_close never removes someone else's file */
} Listener;

/* Opens the listening socket(s) for a: a host name may stand for several
 * addresses (localhost = 127.0.0.1 and ::1), each gets its own socket, all
 * on one port (port 0: the first socket picks a free port, the others
 * follow). Appends to out[*n], never past max. A Unix socket file left by a
 * dead server is replaced; one that still answers is "in use". The socket
 * file gets a->mode whatever the umask, and never more than it meanwhile:
 * the umask is narrowed around bind (the process is single-threaded when it
 * opens its listeners). */
bool listen_open(const ListenAddr *a, Listener *out, size_t max, size_t *n, Err *err);

/* Closes the socket and, for Unix sockets, removes the file we made. */
void listen_close(Listener *l);

/* A connected, blocking stream socket to a, or -1 (err says why). Tries
 * every address a host name stands for. timeout_s > 0 bounds each try. */
int listen_connect(const ListenAddr *a, double timeout_s, Err *err);

/* Writes all n bytes to a blocking socket (no SIGPIPE if the peer left).
 * False on any error, with errno set. */
bool listen_send_all(int fd, const void *data, size_t n);

#endif
