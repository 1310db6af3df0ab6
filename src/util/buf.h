/* buf.h - a growable byte buffer for replies and text built piece by piece. */
#ifndef SHESH_BUF_H
#define SHESH_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Buf {
    char *data; /* always NUL-terminated when len > 0 or after buf_init */
    size_t len;
    size_t cap;
} Buf;

void buf_init(Buf *b);
void buf_free(Buf *b);
void buf_clear(Buf *b);
/* Appends bytes; aborts the process only if memory is exhausted. */
void buf_append(Buf *b, const void *data, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drops the first n bytes (consumed input). */
void buf_consume(Buf *b, size_t n);

#endif
