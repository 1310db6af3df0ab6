/* listen.c - address parsing, listening sockets and client connects (see
 * listen.h). getaddrinfo does the name work, so IPv4 and IPv6 are alike. */
#include "listen.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Characters of a host name or an IPv4 address; anything else (blanks,
 * slashes, quotes) is a typo we report rather than hand to the resolver. */
static bool host_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '.' || c == '_';
}

/* Inside brackets: an IPv6 address, possibly with a %zone. */
static bool host6_char(char c)
{
    return host_char(c) || c == ':' || c == '%';
}

/* A character refused in a host: shown as itself when printable, else by
 * its value, so the message stays one line. */
static bool bad_char(Err *err, const char *q, char c, const char *where)
{
    if (c >= 0x20 && c < 0x7f)
        return err_set(err, "address '%s': character '%c' cannot be in %s", q, c, where);
    return err_set(err, "address '%s': the byte 0x%02x cannot be in %s", q, (unsigned char)c,
                   where);
}

/* spec: the whole address as messages quote it. */
static bool parse_port(const char *spec, const char *p, ListenAddr *out, Err *err)
{
    char qp[ERR_QUOTE_SIZE(16)];
    size_t n = strlen(p);
    if (n == 0)
        return err_set(err, "address '%s': no port after the ':'", spec);
    if (n > 5 || strspn(p, "0123456789") != n)
        return err_set(err, "address '%s': port '%s' is not a number from 0 to 65535", spec,
                       err_quote(p, 16, qp));
    long v = strtol(p, NULL, 10);
    if (v > 65535)
        return err_set(err, "address '%s': port %ld is above 65535", spec, v);
    snprintf(out->port, sizeof out->port, "%ld", v);
    return true;
}

bool listen_parse_tcp(const char *spec, ListenAddr *out, Err *err)
{
    char q[ERR_QUOTE_SIZE(64)];
    err_quote(spec, 64, q);
    memset(out, 0, sizeof *out);
    out->kind = LISTEN_TCP;
    const char *port;
    if (spec[0] == '[') {
        const char *close = strchr(spec, ']');
        if (!close)
            return err_set(err, "address '%s': '[' without a closing ']'", q);
        size_t n = (size_t)(close - spec - 1);
        if (n == 0)
            return err_set(err, "address '%s': empty IPv6 address between the brackets", q);
        if (n >= sizeof out->host)
            return err_set(err, "address '%s': host is too long", q);
        /* Brackets are for IPv6 only: without a ':' the address would be
         * written back without them, as a host name it cannot be. */
        if (!memchr(spec + 1, ':', n))
            return err_set(err, "address '%s': brackets hold an IPv6 address, as in [::1]:10000",
                           q);
        for (size_t i = 0; i < n; i++)
            if (!host6_char(spec[1 + i]))
                return bad_char(err, q, spec[1 + i], "an IPv6 address");
        memcpy(out->host, spec + 1, n);
        if (close[1] != ':')
            return err_set(err, "address '%s': expected ':PORT' after ']'", q);
        port = close + 2;
    } else {
        const char *colon = strrchr(spec, ':');
        if (!colon)
            return err_set(err, "address '%s': expected HOST:PORT", q);
        size_t n = (size_t)(colon - spec);
        if (memchr(spec, ':', n))
            return err_set(err, "address '%s': an IPv6 address needs brackets, as in [::1]:10000",
                           q);
        if (n >= sizeof out->host)
            return err_set(err, "address '%s': host is too long", q);
        for (size_t i = 0; i < n; i++)
            if (!host_char(spec[i]))
                return bad_char(err, q, spec[i], "a host name");
        memcpy(out->host, spec, n);
        port = colon + 1;
    }
    return parse_port(q, port, out, err);
}

bool listen_parse_unix(const char *spec, ListenAddr *out, Err *err)
{
    char q[ERR_QUOTE_SIZE(64)];
    err_quote(spec, 64, q);
    memset(out, 0, sizeof *out);
    out->kind = LISTEN_UNIX;
    size_t n = strlen(spec);
    if (n == 0)
        return err_set(err, "Unix socket path is empty");
    if (n >= sizeof out->path)
        return err_set(err, "Unix socket path '%.40s...' is %zu bytes long; the limit is %zu",
                       q, n, sizeof out->path - 1);
    memcpy(out->path, spec, n + 1);
    out->mode = LISTEN_UNIX_MODE;
    return true;
}

bool listen_parse(const char *spec, ListenAddr *out, Err *err)
{
    if (strchr(spec, ':') && !strchr(spec, '/'))
        return listen_parse_tcp(spec, out, err);
    return listen_parse_unix(spec, out, err);
}

void listen_format(const ListenAddr *a, char *buf, size_t size)
{
    if (a->kind == LISTEN_UNIX)
        snprintf(buf, size, "%s", a->path);
    else if (strchr(a->host, ':'))
        snprintf(buf, size, "[%s]:%s", a->host, a->port);
    else
        snprintf(buf, size, "%s:%s", a->host, a->port);
}

void listen_sockaddr_name(const struct sockaddr *sa, socklen_t len, char *buf, size_t size)
{
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    if (getnameinfo(sa, len, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        snprintf(buf, size, "?");
        return;
    }
    if (sa->sa_family == AF_INET6)
        snprintf(buf, size, "[%s]:%s", host, serv);
    else
        snprintf(buf, size, "%s:%s", host, serv);
}

static void set_port(struct sockaddr *sa, unsigned short port)
{
    if (sa->sa_family == AF_INET)
        ((struct sockaddr_in *)(void *)sa)->sin_port = htons(port);
    else if (sa->sa_family == AF_INET6)
        ((struct sockaddr_in6 *)(void *)sa)->sin6_port = htons(port);
}

static unsigned short get_port(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return ntohs(((const struct sockaddr_in *)(const void *)sa)->sin_port);
    if (sa->sa_family == AF_INET6)
        return ntohs(((const struct sockaddr_in6 *)(const void *)sa)->sin6_port);
    return 0;
}

/* getaddrinfo may list one address twice (e.g. /etc/hosts and DNS). */
static bool seen_before(const struct addrinfo *list, const struct addrinfo *ai)
{
    for (const struct addrinfo *p = list; p != ai; p = p->ai_next)
        if (p->ai_addrlen == ai->ai_addrlen && !memcmp(p->ai_addr, ai->ai_addr, ai->ai_addrlen))
            return true;
    return false;
}

static bool open_tcp(const ListenAddr *a, Listener *out, size_t max, size_t *n, Err *err)
{
    char written[LISTEN_NAME_MAX], spec[ERR_QUOTE_SIZE(80)];
    listen_format(a, written, sizeof written);
    err_quote(written, 80, spec); /* for messages: a path may hold any byte */
    struct addrinfo hints, *list;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int rc = getaddrinfo(a->host[0] ? a->host : NULL, a->port, &hints, &list);
    if (rc != 0)
        return err_set(err, "address '%s': cannot resolve host: %s", spec, gai_strerror(rc));

    size_t first = *n;
    unsigned short port = (unsigned short)atoi(a->port);
    bool ok = true;
    int skipped_errno = 0;
    for (struct addrinfo *ai = list; ai && ok; ai = ai->ai_next) {
        if (seen_before(list, ai))
            continue;
        if (*n >= max) {
            ok = err_set(err, "address '%s': more than %zu listening sockets", spec, max);
            break;
        }
        struct sockaddr_storage ss;
        memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
        set_port((struct sockaddr *)&ss, port);
        int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            skipped_errno = errno; /* e.g. IPv6 switched off on this machine */
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        /* Without V6ONLY, [::]:P would also take 0.0.0.0:P and the second
         * socket of ":P" would fail with "in use". */
        if (ai->ai_family == AF_INET6)
            setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        char where[LISTEN_NAME_MAX];
        listen_sockaddr_name((struct sockaddr *)&ss, ai->ai_addrlen, where, sizeof where);
        if (bind(fd, (struct sockaddr *)&ss, ai->ai_addrlen) != 0) {
            int e = errno;
            close(fd);
            if (e == EADDRNOTAVAIL || e == EAFNOSUPPORT) {
                skipped_errno = e;
                continue;
            }
            if (e == EADDRINUSE)
                ok = err_set(err, "address '%s': %s is already in use", spec, where);
            else
                ok = err_set(err, "address '%s': cannot bind %s: %s", spec, where, strerror(e));
            break;
        }
        if (listen(fd, SOMAXCONN) != 0) {
            int e = errno;
            close(fd);
            ok = err_set(err, "address '%s': cannot listen on %s: %s", spec, where, strerror(e));
            break;
        }
        Listener *l = &out[*n];
        memset(l, 0, sizeof *l);
        l->fd = fd;
        l->kind = LISTEN_TCP;
        struct sockaddr_storage bound;
        socklen_t blen = sizeof bound;
        getsockname(fd, (struct sockaddr *)&bound, &blen);
        listen_sockaddr_name((struct sockaddr *)&bound, blen, l->name, sizeof l->name);
        /* Port 0: the kernel chose one; the other addresses of this host
         * take the same, so one number reaches the server either way. */
        if (port == 0)
            port = get_port((struct sockaddr *)&bound);
        (*n)++;
    }
    freeaddrinfo(list);
    if (ok && *n == first)
        ok = err_set(err, "address '%s': no usable address: %s", spec,
                     skipped_errno ? strerror(skipped_errno) : "the host has none");
    if (!ok) {
        while (*n > first)
            close(out[--*n].fd);
    }
    return ok;
}

static void fill_sun(struct sockaddr_un *sun, const char *path)
{
    memset(sun, 0, sizeof *sun);
    sun->sun_family = AF_UNIX;
    memcpy(sun->sun_path, path, strlen(path) + 1); /* length checked by the parser */
}

/* A socket file may be left behind by a server that died. Remove it only if
 * nobody answers on it: a live server's socket must never be stolen. */
static bool clear_stale(const char *path, Err *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? true
                               : err_set(err, "Unix socket '%s': %s", path, strerror(errno));
    if (!S_ISSOCK(st.st_mode))
        return err_set(err, "Unix socket '%s': the file exists and is not a socket (not removed)",
                       path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return err_set(err, "Unix socket '%s': %s", path, strerror(errno));
    struct sockaddr_un sun;
    fill_sun(&sun, path);
    int rc = connect(fd, (struct sockaddr *)&sun, sizeof sun);
    int e = errno;
    close(fd);
    if (rc == 0)
        return err_set(err, "Unix socket '%s' is already in use by a running server", path);
    if (e != ECONNREFUSED)
        return err_set(err, "Unix socket '%s': cannot tell whether it is in use: %s", path,
                       strerror(e));
    if (unlink(path) != 0 && errno != ENOENT)
        return err_set(err, "Unix socket '%s': cannot remove the stale file: %s", path,
                       strerror(errno));
    return true;
}

static bool open_unix(const ListenAddr *a, Listener *out, size_t max, size_t *n, Err *err)
{
    if (*n >= max)
        return err_set(err, "Unix socket '%s': more than %zu listening sockets", a->path, max);
    if (!clear_stale(a->path, err))
        return false;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return err_set(err, "Unix socket '%s': %s", a->path, strerror(errno));
    struct sockaddr_un sun;
    fill_sun(&sun, a->path);
    /* bind makes the file with the umask's mode: narrowed first, so that
     * nobody outside a->mode can connect before the chmod below. */
    mode_t mode = (mode_t)(a->mode & 0777), old = umask((mode_t)(0777 & ~mode));
    int bound = bind(fd, (struct sockaddr *)&sun, sizeof sun);
    umask(old);
    if (bound == 0 && chmod(a->path, mode) != 0) {
        int e = errno;
        close(fd);
        unlink(a->path);
        return err_set(err, "Unix socket '%s': cannot set its mode %03o: %s", a->path,
                       (unsigned)mode, strerror(e));
    }
    if (bound != 0) {
        int e = errno;
        close(fd);
        if (e == EADDRINUSE)
            return err_set(err, "Unix socket '%s' is already in use", a->path);
        return err_set(err, "Unix socket '%s': cannot bind: %s", a->path, strerror(e));
    }
    struct stat st;
    if (listen(fd, SOMAXCONN) != 0 || stat(a->path, &st) != 0) {
        int e = errno;
        close(fd);
        unlink(a->path);
        return err_set(err, "Unix socket '%s': cannot listen: %s", a->path, strerror(e));
    }
    Listener *l = &out[*n];
    memset(l, 0, sizeof *l);
    l->fd = fd;
    l->kind = LISTEN_UNIX;
    snprintf(l->name, sizeof l->name, "%s", a->path);
    snprintf(l->path, sizeof l->path, "%s", a->path);
    l->dev = st.st_dev;
    l->ino = st.st_ino;
    (*n)++;
    return true;
}

bool listen_open(const ListenAddr *a, Listener *out, size_t max, size_t *n, Err *err)
{
    return a->kind == LISTEN_UNIX ? open_unix(a, out, max, n, err)
                                  : open_tcp(a, out, max, n, err);
}

void listen_close(Listener *l)
{
    if (l->fd >= 0)
        close(l->fd);
    l->fd = -1;
    struct stat st;
    if (l->path[0] && stat(l->path, &st) == 0 && st.st_dev == l->dev && st.st_ino == l->ino)
        unlink(l->path);
    l->path[0] = '\0';
}

/* connect() with a time limit: non-blocking connect, poll, then back to
 * blocking mode for the caller. Returns 0 or an errno value. */
static int connect_timed(int fd, const struct sockaddr *sa, socklen_t len, double timeout_s)
{
    int flags = fcntl(fd, F_GETFL);
    if (timeout_s > 0)
        fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int rc = connect(fd, sa, len);
    int e = rc == 0 ? 0 : errno;
    if (e == EINPROGRESS) {
        struct pollfd pfd = {.fd = fd, .events = POLLOUT};
        int ms = (int)(timeout_s * 1000);
        do
            rc = poll(&pfd, 1, ms);
        while (rc < 0 && errno == EINTR);
        if (rc == 0) {
            e = ETIMEDOUT;
        } else {
            socklen_t elen = sizeof e;
            if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) != 0)
                e = errno;
        }
    }
    fcntl(fd, F_SETFL, flags);
    return e;
}

int listen_connect(const ListenAddr *a, double timeout_s, Err *err)
{
    char written[LISTEN_NAME_MAX], spec[ERR_QUOTE_SIZE(80)];
    listen_format(a, written, sizeof written);
    err_quote(written, 80, spec); /* for messages: a path may hold any byte */
    if (a->kind == LISTEN_UNIX) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return err_set(err, "%s: %s", spec, strerror(errno)), -1;
        struct sockaddr_un sun;
        fill_sun(&sun, a->path);
        int e = connect_timed(fd, (struct sockaddr *)&sun, sizeof sun, timeout_s);
        if (e) {
            close(fd);
            return err_set(err, "%s: %s", spec, strerror(e)), -1;
        }
        return fd;
    }
    if (!strcmp(a->port, "0"))
        return err_set(err, "%s: cannot connect to port 0", spec), -1;
    struct addrinfo hints, *list;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    int rc = getaddrinfo(a->host[0] ? a->host : NULL, a->port, &hints, &list);
    if (rc != 0)
        return err_set(err, "%s: cannot resolve host: %s", spec, gai_strerror(rc)), -1;
    int fd = -1, e = ENOENT;
    for (struct addrinfo *ai = list; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            e = errno;
            continue;
        }
        e = connect_timed(fd, ai->ai_addr, ai->ai_addrlen, timeout_s);
        if (e) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(list);
    if (fd < 0)
        return err_set(err, "%s: %s", spec, strerror(e)), -1;
    /* Requests and replies are single short lines: send them at once. */
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

bool listen_send_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

bool listen_peer_key(const struct sockaddr *sa, socklen_t salen, char *key, size_t size)
{
    char host[INET6_ADDRSTRLEN];
    if (sa->sa_family == AF_INET6 && salen >= (socklen_t)sizeof(struct sockaddr_in6)) {
        struct in6_addr a = ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(&a)) {
            if (inet_ntop(AF_INET, &a.s6_addr[12], host, sizeof host)) {
                snprintf(key, size, "tcp %s", host);
                return true;
            }
        } else {
            memset(&a.s6_addr[8], 0, 8);
            if (inet_ntop(AF_INET6, &a, host, sizeof host)) {
                snprintf(key, size, "tcp %s/64", host);
                return true;
            }
        }
    } else if (sa->sa_family == AF_INET && salen >= (socklen_t)sizeof(struct sockaddr_in) &&
               inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr,
                         host, sizeof host)) {
        snprintf(key, size, "tcp %s", host);
        return true;
    }
    return false;
}
