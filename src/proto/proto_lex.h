/* proto_lex.h - splitting one protocol request line into tokens.
 *
 * A request is blank-separated words, quoted strings and at most one FIBS
 * board (`board:` up to the next blank outside quotes, so that quoted names
 * such as 'Jo Ann' stay inside it). The patterns are compiled once and
 * shared read-only by every thread; each call uses its own match data. */
#ifndef SHESH_PROTO_LEX_H
#define SHESH_PROTO_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* Longest request line accepted, in bytes ('\n' not included). gnubg's own
 * server overflows its buffer at 255; boards need about 130. */
#define PROTO_LEX_LINE_MAX 1024
/* More tokens than this in one line is an error (a board line with every
 * option given twice still has fewer than 40). */
#define PROTO_LEX_TOKENS_MAX 48

typedef enum ProtoTokKind {
    TOK_WORD,   /* a run of non-blank characters without quotes */
    TOK_STRING, /* 'quoted' or "quoted", quotes included in text */
    TOK_BOARD   /* board:... (case-insensitive prefix), up to a blank */
} ProtoTokKind;

typedef struct ProtoTok {
    ProtoTokKind kind;
    const char *text; /* points into the line; not NUL-terminated */
    size_t len;
    size_t col; /* 1-based column of the first byte, for messages */
} ProtoTok;

typedef struct ProtoTokens {
    int count;
    ProtoTok tok[PROTO_LEX_TOKENS_MAX];
} ProtoTokens;

/* Splits line[0..len) (no '\n'; blanks are space, tab and '\r') into tokens.
 * Fails with a message for: a line longer than PROTO_LEX_LINE_MAX, a byte
 * that is not printable ASCII (NUL, other control bytes, bytes >= 0x7f), a
 * quote that is not closed or that sits inside a word, too many tokens. An
 * empty or blank line gives count 0. */
bool proto_lex_split(const char *line, size_t len, ProtoTokens *out, Err *err);

/* True when the token is the word `word`, compared without case. */
bool proto_lex_is(const ProtoTok *t, const char *word);

/* Parses a token as a decimal integer ([+-]?[0-9]+) in lo..hi. On failure
 * err names the token as `what` ("plies", "field 33"). */
bool proto_lex_int(const ProtoTok *t, const char *what, long lo, long hi, long *out,
                   Err *err);

/* Parses a token as a decimal number (12, 0.5, .5, 1e-3) in lo..hi. */
bool proto_lex_double(const ProtoTok *t, const char *what, double lo, double hi,
                      double *out, Err *err);

/* Parses on/off, yes/no, true/false (any case). */
bool proto_lex_bool(const ProtoTok *t, bool *out);

/* Copies a token (or any bytes) into buf for quoting in a message: at most
 * 24 characters, then "..."; the lexer guarantees printable ASCII. */
void proto_lex_quote(const char *text, size_t len, char *buf, size_t size);

#endif
