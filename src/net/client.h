/* client.h - the client side of a line protocol: connect with a time limit,
 * send a line, read a line with a time limit. For players behind a socket
 * (src/play/player_remote.c); the server side is net.h. */
#ifndef SHESH_CLIENT_H
#define SHESH_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

typedef struct NetClient NetClient;

typedef enum NetClientStatus {
    NET_CLIENT_OK,
    NET_CLIENT_TIMEOUT,   /* nothing (or no whole line) within the time */
    NET_CLIENT_CLOSED,    /* the other end closed the connection, or an error
                             on the socket */
    NET_CLIENT_TOO_LONG,  /* a line longer than the caller's buffer */
    NET_CLIENT_CANCELLED  /* the cancel descriptor became readable */
} NetClientStatus;

/* Connects to addr ("host:port", "[::1]:port" or a Unix socket path: see
 * listen.h) within timeout_s seconds; NULL with err filled if that fails. */
NetClient *net_client_connect(const char *addr, double timeout_s, Err *err);
/* A client on a stream socket connected already (one end of a socketpair
 * whose other end is a child process's stdin and stdout): fd is owned from
 * now on, closed even when this fails. NULL with err filled. */
NetClient *net_client_adopt(int fd, Err *err);
void net_client_close(NetClient *c);

/* Sends len bytes (a line with its '\n'); false (err filled) if the
 * connection is gone. */
bool net_client_send(NetClient *c, const char *data, size_t len, Err *err);

/* The next line, without its '\n' (and a '\r' before it), into out (size
 * bytes, NUL included), waiting at most timeout_s seconds in all (< 0:
 * without limit). cancel_fd (or -1): readable means give up at once. */
NetClientStatus net_client_read_line(NetClient *c, double timeout_s, int cancel_fd, char *out,
                                     size_t size, Err *err);

#endif
