/* fuzz_run_read.c - libFuzzer harness for a run read back from its
 * .jsonl.gz record (run_read.h), as `shesh records stats`, `shesh stats
 * merge` and `shesh match --resume` read it. Byte 0 picks how the rest
 * becomes the file:
 *
 *   0: the file itself, as it stands (gzip or not: the gzip layer);
 *   1: its lines, each with its '\n', written as one gzip member each, the
 *      way the referee writes a game (gzmember_write), the file then
 *      possibly cut short (a run killed mid-write): the JSON is reached;
 *   2: the whole text as one member.
 *
 * A refusal must say why. A run read must hold what run_read.h says: its
 * complete pairs at first_pair + i * step, at least two games each, the
 * tally of exactly those pairs and games (every game won by one side, in
 * one seat, the counts not negative), the .mat.gz members they take, and
 * the offset after them inside the file. The reader only opens paths, so
 * each input goes through one file in a private temporary directory. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "run_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *path;
static GzMember *zip;

static void init(void)
{
    path = fuzz_file("r.jsonl.gz");
    zip = gzmember_new(NULL);
    if (!zip)
        abort();
}

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0])
        abort(); /* a failure always says why */
}

static int open_file(void)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        abort();
    return fd;
}

static void write_raw(const uint8_t *p, size_t n)
{
    int fd = open_file();
    if (n && write(fd, p, n) != (ssize_t)n)
        abort();
    close(fd);
}

/* Mode 1: a member per line; the last byte, when odd, cuts as many bytes
 * off the end of the file as its half. Mode 2: one member. */
static void write_members(const uint8_t *p, size_t n, bool per_line)
{
    int fd = open_file();
    size_t at = 0;
    while (at < n) {
        size_t end = n;
        if (per_line) {
            const uint8_t *nl = memchr(p + at, '\n', n - at);
            if (nl)
                end = (size_t)(nl - p) + 1;
        }
        if (!gzmember_write(zip, fd, p + at, end - at, "fuzz", NULL))
            abort();
        at = end;
    }
    if (per_line && n > 1 && (p[n - 1] & 1)) {
        off_t len = lseek(fd, 0, SEEK_END), cut = p[n - 1] / 2;
        if (ftruncate(fd, len > cut ? len - cut : 0) != 0)
            abort();
    }
    close(fd);
}

static void check_side_counts(const TallySide *s)
{
    const int64_t never_negative[] = {
        s->wins,     s->gammons,  s->backgammons,      s->star_mars,     s->forfeits,
        s->doubles,  s->takes,    s->drops,            s->beavers,       s->raccoons,
        s->beavers_as_takes,      s->resigns,          s->resigns_accepted,
        s->seat_games[0],         s->seat_games[1],    s->matches_won,   s->decisions,
        s->decision_us,
    };
    for (size_t i = 0; i < sizeof never_negative / sizeof never_negative[0]; i++)
        if (never_negative[i] < 0)
            abort();
    if (s->gammons + s->backgammons + s->star_mars > s->wins || s->decisions || s->decision_us)
        abort(); /* records carry no decision times */
}

static void check_run(const RunRead *r, long long file_size)
{
    if (!memchr(r->names[0], '\0', sizeof r->names[0]) ||
        !memchr(r->names[1], '\0', sizeof r->names[1]) ||
        !memchr(r->rules, '\0', sizeof r->rules))
        abort();
    if (r->status != GZ_END && r->status != GZ_CUT)
        abort();
    if (r->match_to < 0 || r->match_to > 64)
        abort();
    if (r->pairs < 0 || r->games < 2 * r->pairs || (!r->any && (r->pairs || r->partial)))
        abort();
    if (r->pairs == 0) {
        if (r->last_pair != -1 || r->games || r->jsonl_end || r->tally.games)
            abort();
    } else {
        if (r->first_pair < 0 || r->last_pair < r->first_pair ||
            (r->pairs == 1 && (r->step || r->last_pair != r->first_pair)) ||
            (r->pairs > 1 && r->step < 1) ||
            r->last_pair != r->first_pair + (r->pairs - 1) * r->step)
            abort(); /* the indices run_read.h promises */
        if (r->jsonl_end <= 0 || r->jsonl_end > file_size)
            abort();
    }
    const Tally *t = &r->tally;
    if (t->games != r->games || t->pairs.n != r->pairs || t->pairs.games != r->games ||
        t->side[0].wins + t->side[1].wins != r->games)
        abort();
    for (int s = 0; s < 2; s++) {
        check_side_counts(&t->side[s]);
        if (t->side[s].seat_games[0] + t->side[s].seat_games[1] != r->games)
            abort(); /* each side plays every game, in one seat */
        if (t->side[s].points < t->side[s].wins)
            abort(); /* a game won scores a point at least */
    }
    if (t->side[0].seat_games[0] != t->side[1].seat_games[1])
        abort(); /* A in seat 0 is B in seat 1 */
    if (t->side[0].seat_points[0] + t->side[0].seat_points[1] !=
        t->side[0].points - t->side[1].points)
        abort(); /* A's net points, whatever the seat */
    if (r->match_to == 0) {
        if (t->matches || r->mat_members != r->games + 1 ||
            r->score[0] != t->side[0].points || r->score[1] != t->side[1].points)
            abort(); /* a money session: its score is the points won */
    } else {
        if (t->matches != 2 * r->pairs || r->mat_members != r->games + 2 * r->pairs ||
            t->side[0].matches_won + t->side[1].matches_won != t->matches ||
            r->score[0] || r->score[1])
            abort(); /* a pair of matches: two matches, two headers */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!zip)
        init();
    if (size == 0)
        return 0;
    const uint8_t *rest = data + 1;
    size_t n = size - 1;
    switch (data[0] % 3) {
    case 0: write_raw(rest, n); break;
    case 1: write_members(rest, n, true); break;
    default: write_members(rest, n, false); break;
    }
    struct stat st;
    if (stat(path, &st) != 0)
        abort();

    RunRead *r = malloc(sizeof *r);
    if (!r)
        abort();
    Err err;
    memset(&err, 'x', sizeof err);
    if (run_read(path, r, &err))
        check_run(r, (long long)st.st_size);
    else
        check_err(&err);
    free(r);
    unlink(path);
    return 0;
}
