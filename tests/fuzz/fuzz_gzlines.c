/* fuzz_gzlines.c - libFuzzer harness for the lines of a text file, gzip or
 * plain (gzlines.h), as shesh label --from, shesh weights --labels, shesh
 * train --labels and shesh bench --positions read them. Byte 0 picks how
 * the rest becomes the file (0: as it stands; 1: one gzip member, then
 * possibly cut short by the last byte's half when it is odd) and, in its
 * high bits, the longest line taken (1 to 32, or past every input) and the
 * line (counted from 1) whose callback refuses it.
 *
 * Every line given holds no newline or NUL, has the length said, and no
 * '\r' at its end that a newline followed; read whole, the lines are the
 * plain input's own, in order. A refusal says why and names the line. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "gzlines.h"
#include "gzmember.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *path;
static GzMember *zip;

static void init(void)
{
    path = fuzz_file("lines");
    zip = gzmember_new(NULL);
    if (!zip)
        abort();
}

typedef struct Seen {
    const uint8_t *text; /* the plain input, to compare lines with */
    size_t size, at;     /* where the next line starts in it */
    long lines, refuse;  /* lines given; the one to refuse (0: none) */
    bool plain;          /* the file is the input as it stands */
} Seen;

static bool take(void *ctx, char *line, size_t len, Err *err)
{
    Seen *s = ctx;
    if (strlen(line) != len || memchr(line, '\n', len))
        abort();
    s->lines++;
    if (s->plain) {
        /* The line is the input's up to its newline, less one '\r'. */
        const uint8_t *nl = memchr(s->text + s->at, '\n', s->size - s->at);
        size_t whole = nl ? (size_t)(nl - s->text) - s->at : s->size - s->at;
        size_t want = whole && s->text[s->at + whole - 1] == '\r' ? whole - 1 : whole;
        if (len != want || memcmp(line, s->text + s->at, len) != 0)
            abort();
        s->at += whole + 1;
    }
    if (s->lines == s->refuse)
        return err_set(err, "refused");
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!zip)
        init();
    if (size < 1)
        return 0;
    const uint8_t mode = data[0];
    const uint8_t *text = data + 1;
    size_t n = size - 1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        abort();
    bool plain = !(mode & 1);
    if (plain) {
        if (n && write(fd, text, n) != (ssize_t)n)
            abort();
    } else {
        if (!gzmember_write(zip, fd, text, n, "fuzz", NULL))
            abort();
        if (n > 1 && (text[n - 1] & 1)) {
            off_t len = lseek(fd, 0, SEEK_END), cut = text[n - 1] / 2;
            if (ftruncate(fd, len > cut ? len - cut : 0) != 0)
                abort();
        }
    }
    close(fd);
    /* A gzip header (1f 8b) at the start of the plain input makes zlib
     * read it as gzip: its lines are not the input's. */
    if (plain && n >= 2 && text[0] == 0x1f && text[1] == 0x8b)
        plain = false;
    size_t max = (mode >> 1) & 7 ? (size_t)(((mode >> 1) & 7) * 4) : (size_t)1 << 20;
    Seen s = {text, n, 0, 0, mode >> 4, plain};
    Err err = {{0}};
    bool ok = gzlines_each(path, max, take, &s, &err);
    if (!ok) {
        if (!memchr(err.text, '\0', sizeof err.text) || !err.text[0])
            abort(); /* a refusal always says why */
        if (strncmp(err.text, path, strlen(path)) != 0 && strncmp(err.text, "cannot read ", 12))
            abort(); /* names the file */
    } else if (s.refuse && s.lines >= s.refuse) {
        abort(); /* a refused line stops the reading with an error */
    } else if (s.plain && s.at < n) {
        abort(); /* read whole, every byte of the input was in a line */
    }
    return 0;
}
