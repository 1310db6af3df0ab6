/* proto.h - gnubg's external-player command language as a pure function:
 * one request line in, the reply bytes out. No sockets here (see net.h), so
 * every case is a unit test. proto/README.md is the spec in our words. */
#ifndef SHESH_PROTO_H
#define SHESH_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "proto_config.h"

ProtoSession *proto_session_new(void);
void proto_session_free(ProtoSession *s);

typedef enum ProtoResult {
    PROTO_REPLY, /* out holds the complete reply (possibly several lines) */
    PROTO_CLOSE  /* exit/quit: close the connection without a reply */
} ProtoResult;

/* Handles one request line (without its '\n'; a trailing '\r' is allowed)
 * on the calling thread's worker w (made for cfg) and appends the complete
 * reply, newline(s) included, to out. */
ProtoResult proto_handle_on(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                            const char *line, size_t len, Buf *out);

/* The same with a worker made for this one line: for callers that answer a
 * line now and then (tests, tools); a server keeps one worker a thread. */
ProtoResult proto_handle(const ProtoConfig *cfg, ProtoSession *s,
                         const char *line, size_t len, Buf *out);

/* True when proto_handle would answer the line in microseconds: version,
 * help, set, exit, quit, an empty line, a board line when cfg->plies is 0,
 * an `evaluation fibsboard` that asks for no plies above 0, a line too long
 * for the lexer. Only those: anything else (an unknown command too) is not
 * cheap. A glance at the text, not a parse, and false whenever it cannot
 * tell: the server answers cheap lines on its event loop, where a slow one
 * would stall every connection. */
bool proto_is_cheap(const ProtoConfig *cfg, const char *line, size_t len);

#endif
