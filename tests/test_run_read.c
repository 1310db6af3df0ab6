/* test_run_read.c - a run's sums read back (tally.h, run_read.h) from
 * damaged input: tallies whose sums would overflow refuse to merge and are
 * left as they were, and a record whose points or scores are out of range,
 * or whose money score would overflow, is refused with a reason, not read
 * into wrapped sums. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gzmember.h"
#include "run_read.h"
#include "tally.h"

static void test_merge_overflow(void **state)
{
    (void)state;
    Tally a, b, before;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.games = b.games = 4;
    a.side[1].resigns = INT64_MAX - 1;
    b.side[1].resigns = 2;
    before = a;
    assert_false(tally_merge(&a, &b));
    assert_memory_equal(&a, &before, sizeof a);
    b.side[1].resigns = 1;
    assert_true(tally_merge(&a, &b));
    assert_int_equal(a.games, 8);
    assert_true(a.side[1].resigns == INT64_MAX);
    b.side[1].resigns = 0;
    b.matches = INT64_MAX;
    a.matches = 1;
    before = a;
    assert_false(tally_merge(&a, &b));
    assert_memory_equal(&a, &before, sizeof a);
}

/* The one game of half `half` of pair `pair` as the referee writes it,
 * without its events (which run_read does not read). */
static void game(char *out, size_t n, int pair, int half, int match_to, long long points,
                 const char *score)
{
    static const char counts[] =
        "{\"doubles\": 0, \"takes\": 0, \"drops\": 0, \"beavers\": 0, \"raccoons\": 0, "
        "\"beavers_as_takes\": 0, \"resigns\": 0, \"resigns_accepted\": 0}";
    snprintf(out, n,
             "{\"pair\": %d, \"half\": %d, \"game\": 1, \"players\": [\"A\", \"B\"], "
             "\"a_seat\": %d, \"match_to\": %d, \"rules\": \"money\", \"score\": %s, "
             "\"winner\": 0, \"points\": %lld, \"kind\": \"single game\", "
             "\"scored\": \"single game\", \"end\": \"over\", \"cube\": 1, \"last\": true, "
             "\"seed\": \"1\", \"counts\": [%s, %s]}\n",
             pair, half, half, match_to, score, points, counts, counts);
}

/* Reads a record of `pairs` pairs of games scoring `points` each, their
 * "score" `score`; money without a match length. */
static bool read_games(int pairs, int match_to, long long points, const char *score, RunRead *r,
                       Err *err)
{
    char path[] = "/tmp/test-run-read-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    GzMember *z = gzmember_new(NULL);
    assert_non_null(z);
    char line[1024];
    for (int p = 0; p < pairs; p++)
        for (int h = 0; h < 2; h++) {
            game(line, sizeof line, p, h, match_to, points, score);
            assert_true(gzmember_write(z, fd, line, strlen(line), path, NULL));
        }
    gzmember_free(z);
    close(fd);
    bool ok = run_read(path, r, err);
    unlink(path);
    return ok;
}

static void test_record_ranges(void **state)
{
    (void)state;
    RunRead *r = malloc(sizeof *r);
    assert_non_null(r);
    Err err = {{0}};
    assert_true(read_games(2, 0, 2, "[0, 0]", r, &err));
    assert_int_equal(r->pairs, 2);
    assert_int_equal(r->games, 4);
    assert_int_equal(r->score[0], 8);
    assert_int_equal(r->tally.side[0].points, 8);
    /* More than a star mars on the highest cube scores. */
    assert_false(read_games(1, 0, 1LL << 31, "[0, 0]", r, &err));
    assert_non_null(strstr(err.text, "\"points\""));
    /* Every game in range, but the money score passes INT_MAX. */
    assert_false(read_games(300, 0, 4LL << 20, "[0, 0]", r, &err));
    assert_non_null(strstr(err.text, "score"));
    /* A match game must say a score below the match length. */
    assert_false(read_games(1, 5, 1, "[9223372036854775807, 0]", r, &err));
    assert_non_null(strstr(err.text, "\"score\""));
    assert_false(read_games(1, 5, 1, "[5, 0]", r, &err));
    assert_false(read_games(1, 5, 1, "[\"x\", 0]", r, &err));
    assert_true(read_games(1, 5, 1, "[4, 0]", r, &err));
    assert_int_equal(r->tally.matches, 2);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_overflow),
        cmocka_unit_test(test_record_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
