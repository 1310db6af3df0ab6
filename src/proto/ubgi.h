/* ubgi.h - UBGI, the engine protocol of backgammon's match runners (bgci)
 * and GUIs, as a pure function: one command line in, the answer lines out.
 * No I/O here (cli_ubgi.c reads stdin and writes stdout), so every case is
 * a unit test. docs/ubgi-engine.md is what Shesh speaks, in our words. */
#ifndef SHESH_UBGI_H
#define SHESH_UBGI_H

#include <stddef.h>

#include "buf.h"
#include "engine.h"
#include "err.h"

/* The longest command line read; a longer one is an error. */
#define UBGI_LINE_MAX 4096

/* engine.ply counts the root (UBGI 1 = evaluate each move, no look-ahead =
 * Shesh's 0 plies), so its range is Shesh's depths plus one. */
#define UBGI_PLY_MIN 1
#define UBGI_PLY_MAX 5

/* One controller's conversation: the keys' values, the position and dice
 * it sent, v0.1's session context (match, score, cube, turn). */
typedef struct UbgiSession UbgiSession;

/* A session deciding with e (which must outlive it), engine.ply defaulting
 * to ply (UBGI_PLY_MIN..UBGI_PLY_MAX); NULL with err filled when memory is
 * short or ply is out of range. */
UbgiSession *ubgi_session_new(const Engine *e, int ply, Err *err);
void ubgi_session_free(UbgiSession *s);

typedef enum UbgiResult {
    UBGI_CONTINUE, /* out holds the answer (possibly nothing) */
    UBGI_QUIT      /* quit: the controller is done; nothing to answer */
} UbgiResult;

/* Handles one command line (without its '\n'; a trailing '\r' is allowed)
 * and appends the complete answer, each line ending in '\n', to out. Bad
 * input is answered with one `error CODE DETAIL` line and the session goes
 * on. */
UbgiResult ubgi_handle(UbgiSession *s, const char *line, size_t len, Buf *out);

#endif
