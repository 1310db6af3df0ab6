/* client.c - connect, send a line, read a line, each within a time limit
 * (see client.h). */
#include "client.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "listen.h"

/* Longer than any line a caller reads; what arrives after a line waits
 * here for the next read. */
#define CLIENT_BUF 4096

struct NetClient {
    int fd;
    size_t len;
    char buf[CLIENT_BUF];
};

NetClient *net_client_adopt(int fd, Err *err)
{
    NetClient *c = malloc(sizeof *c);
    if (!c) {
        close(fd);
        err_set(err, "out of memory for a connection");
        return NULL;
    }
    c->len = 0;
    c->fd = fd;
    return c;
}

NetClient *net_client_connect(const char *addr, double timeout_s, Err *err)
{
    ListenAddr a;
    if (!listen_parse(addr, &a, err))
        return NULL;
    int fd = listen_connect(&a, timeout_s, err);
    return fd < 0 ? NULL : net_client_adopt(fd, err);
}

void net_client_close(NetClient *c)
{
    if (!c)
        return;
    if (c->fd >= 0)
        close(c->fd);
    free(c);
}

bool net_client_send(NetClient *c, const char *data, size_t len, Err *err)
{
    errno = 0;
    if (!listen_send_all(c->fd, data, len))
        return err_set(err, "cannot send: %s", errno ? strerror(errno) : "connection closed");
    return true;
}

/* Takes one line out of the buffer if a whole one is there. */
static NetClientStatus take_line(NetClient *c, char *out, size_t size, bool *got, Err *err)
{
    *got = false;
    char *nl = memchr(c->buf, '\n', c->len);
    if (!nl) {
        if (c->len >= size || c->len == sizeof c->buf) {
            err_set(err, "a reply longer than %zu bytes", size - 1);
            return NET_CLIENT_TOO_LONG;
        }
        return NET_CLIENT_OK;
    }
    size_t n = (size_t)(nl - c->buf), used = n + 1;
    if (n > 0 && c->buf[n - 1] == '\r')
        n--;
    if (n >= size) {
        err_set(err, "a reply longer than %zu bytes", size - 1);
        return NET_CLIENT_TOO_LONG;
    }
    memcpy(out, c->buf, n);
    out[n] = '\0';
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
    *got = true;
    return NET_CLIENT_OK;
}

NetClientStatus net_client_read_line(NetClient *c, double timeout_s, int cancel_fd, char *out,
                                     size_t size, Err *err)
{
    double until = timeout_s >= 0 ? clock_now() + timeout_s : 0;
    for (;;) {
        bool got;
        NetClientStatus st = take_line(c, out, size, &got, err);
        if (st != NET_CLIENT_OK || got)
            return st;
        int wait_ms = -1;
        if (timeout_s >= 0) {
            double left = until - clock_now();
            if (left <= 0) {
                err_set(err, "no reply within %g s", timeout_s);
                return NET_CLIENT_TIMEOUT;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        struct pollfd pfd[2] = {{c->fd, POLLIN, 0}, {cancel_fd, POLLIN, 0}};
        int rc = poll(pfd, cancel_fd >= 0 ? 2 : 1, wait_ms);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0) {
            err_set(err, "waiting for a reply: %s", strerror(errno));
            return NET_CLIENT_CLOSED;
        }
        if (cancel_fd >= 0 && (pfd[1].revents & POLLIN)) {
            err_set(err, "cancelled while waiting for a reply");
            return NET_CLIENT_CANCELLED;
        }
        if (rc == 0)
            continue; /* the deadline is checked above */
        ssize_t got_n = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
        if (got_n < 0 && errno == EINTR)
            continue;
        if (got_n <= 0) {
            err_set(err, "the connection was closed%s%s", got_n < 0 ? ": " : "",
                    got_n < 0 ? strerror(errno) : "");
            return NET_CLIENT_CLOSED;
        }
        c->len += (size_t)got_n;
    }
}
