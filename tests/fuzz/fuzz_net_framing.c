/* fuzz_net_framing.c - libFuzzer harness for the server's line framer
 * (net_framer_feed / net_framer_finish), checked against a model written
 * here one byte at a time from net.h's contract:
 *
 *   - a '\n' ends a line (NET_LINE, or NET_BAD_NUL if it held a NUL);
 *   - one NUL right after a '\n' is skipped;
 *   - a line that would pass NET_LINE_MAX bytes is reported at once as
 *     NET_TOO_LONG with its first NET_LINE_MAX bytes, and the rest of it,
 *     up to and including its '\n', is dropped;
 *   - at the end, a last line without '\n' still counts (unless dropped).
 *
 * The framer sees the stream in chunks whose sizes the input chooses, so
 * lines, "\n\0" pairs and over-long lines are cut at every possible place;
 * what it emits must be the model's lines, in order, byte for byte.
 *
 * Input: byte 0 seeds the chunk sizes. If byte 1 is odd, the rest is read
 * as (count, byte) pairs, so that a short input can describe lines past
 * NET_LINE_MAX: a count c below 128 means c copies, above it (c - 127) KiB.
 * Otherwise the rest is the stream as it stands. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STREAM_MAX (3 * NET_LINE_MAX + 4096)

typedef struct Line {
    NetLineKind kind;
    size_t off, len; /* in the Lines' text */
} Line;

/* What came out of a framer (or the model): kinds and texts in order. */
typedef struct Lines {
    Line *v;
    size_t n, cap;
    Buf text;
} Lines;

static void lines_add(Lines *ls, NetLineKind kind, const char *line, size_t len)
{
    if (ls->n == ls->cap) {
        ls->cap = ls->cap ? ls->cap * 2 : 64;
        ls->v = realloc(ls->v, ls->cap * sizeof *ls->v);
        if (!ls->v)
            abort();
    }
    ls->v[ls->n++] = (Line){kind, ls->text.len, len};
    buf_append(&ls->text, line, len);
}

static void collect(void *ctx, NetLineKind kind, const char *line, size_t len)
{
    /* The contract of every emitted line, whatever the model says. */
    if (!line || len > NET_LINE_MAX || memchr(line, '\n', len))
        abort();
    if (kind == NET_LINE && memchr(line, '\0', len))
        abort();
    if (kind != NET_LINE && kind != NET_TOO_LONG && kind != NET_BAD_NUL)
        abort();
    if (kind == NET_TOO_LONG && len != NET_LINE_MAX)
        abort();
    lines_add(ctx, kind, line, len);
}

/* The framer's contract, one byte at a time. */
static void model(const uint8_t *s, size_t n, Lines *out)
{
    static char line[NET_LINE_MAX];
    size_t len = 0;
    bool discarding = false, after_nl = false, has_nul = false;
    for (size_t i = 0; i < n; i++) {
        uint8_t b = s[i];
        if (after_nl) {
            after_nl = false;
            if (b == '\0')
                continue;
        }
        if (discarding) {
            if (b == '\n') {
                discarding = false;
                after_nl = true;
            }
            continue;
        }
        if (b == '\n') {
            lines_add(out, has_nul ? NET_BAD_NUL : NET_LINE, line, len);
            len = 0;
            has_nul = false;
            after_nl = true;
            continue;
        }
        if (len == NET_LINE_MAX) { /* one byte too many, and no '\n' yet */
            lines_add(out, NET_TOO_LONG, line, len);
            len = 0;
            has_nul = false;
            discarding = true;
            continue;
        }
        has_nul |= b == '\0';
        line[len++] = (char)b;
    }
    if (!discarding && (len > 0 || has_nul))
        lines_add(out, has_nul ? NET_BAD_NUL : NET_LINE, line, len);
}

/* The stream the input describes (see the top of the file). */
static size_t build_stream(const uint8_t *data, size_t size, uint8_t *s)
{
    if (size < 2)
        return 0;
    if (!(data[1] & 1)) {
        memcpy(s, data + 2, size - 2);
        return size - 2;
    }
    size_t n = 0;
    for (size_t i = 2; i + 1 < size; i += 2) {
        size_t count = data[i] < 128 ? data[i] : (size_t)(data[i] - 127) * 1024;
        if (count > STREAM_MAX - n)
            count = STREAM_MAX - n;
        memset(s + n, data[i + 1], count);
        n += count;
    }
    return n;
}

static bool same(const Lines *a, const Lines *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        const Line *x = &a->v[i], *y = &b->v[i];
        if (x->kind != y->kind || x->len != y->len ||
            memcmp(a->text.data + x->off, b->text.data + y->off, x->len))
            return false;
    }
    return true;
}

static void lines_free(Lines *ls)
{
    free(ls->v);
    buf_free(&ls->text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t stream[STREAM_MAX];
    size_t n = build_stream(data, size, stream);

    Lines want = {0}, got = {0};
    buf_init(&want.text);
    buf_init(&got.text);
    model(stream, n, &want);

    /* Chunk sizes from a small generator seeded by byte 0: mostly short
     * (every boundary near a '\n' or NUL), sometimes large. */
    uint32_t x = 0x9e3779b9u ^ (size > 0 ? data[0] : 0u);
    NetFramer f;
    net_framer_init(&f);
    for (size_t at = 0; at < n;) {
        x = x * 1664525u + 1013904223u;
        size_t chunk = (x >> 24) < 200 ? 1 + (x >> 8) % 8 : 1 + (x >> 8) % 70000;
        if (chunk > n - at)
            chunk = n - at;
        net_framer_feed(&f, (const char *)stream + at, chunk, collect, &got);
        at += chunk;
    }
    net_framer_finish(&f, collect, &got);
    net_framer_free(&f);

    if (!same(&want, &got))
        abort();
    for (NetLineKind k = NET_LINE; k <= NET_BAD_NUL; k++) {
        const char *e = net_framing_error(k);
        size_t len = strlen(e);
        if (strncmp(e, "Error: ", 7) || len < 9 || e[len - 1] != '\n' ||
            memchr(e, '\n', len - 1))
            abort();
    }
    lines_free(&want);
    lines_free(&got);
    return 0;
}
