/* fuzz_listen.c - libFuzzer harness for the socket address reader, as users
 * write addresses on the command line ("localhost:10000", "[::1]:10000",
 * ":10000", "run/bg.sock").
 *
 * The input is the address text (cut at its first NUL, as a C string would
 * be). A refusal must say why on one line. An accepted address must write
 * back (listen_format) to text that reads as the same address, and that
 * text must write back unchanged. No socket is opened. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "listen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n'))
        abort();
}

static bool same(const ListenAddr *a, const ListenAddr *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == LISTEN_UNIX)
        return !strcmp(a->path, b->path);
    return !strcmp(a->host, b->host) && !strcmp(a->port, b->port);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char s[1024];
    if (size >= sizeof s)
        size = sizeof s - 1;
    memcpy(s, data, size);
    s[size] = '\0';

    ListenAddr a, b;
    Err err;
    memset(&err, 'x', sizeof err); /* a refusal must leave a message */
    if (!listen_parse(s, &a, &err)) {
        check_err(&err);
        return 0;
    }
    char text[LISTEN_NAME_MAX], again[LISTEN_NAME_MAX];
    listen_format(&a, text, sizeof text);
    if (!listen_parse(text, &b, &err) || !same(&a, &b))
        abort();
    listen_format(&b, again, sizeof again);
    if (strcmp(text, again))
        abort();
    return 0;
}
