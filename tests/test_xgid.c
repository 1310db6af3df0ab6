/* test_xgid.c - the XGID codec: every row of positions/xgid.tsv (XGIDs and
 * the GNUBG-IDs gnubg 1.07 made of them), round trips over the positions of
 * posid.tsv.gz with varied match fields, and every refusal; then gnubgid.h:
 * telling the kinds of ID apart and the POSID:MATCHID pair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gnubgid.h"
#include "matchid.h"
#include "posid.h"
#include "tsv.h"
#include "xgid.h"

#define XGID_VECTORS "positions/xgid.tsv"
#define POSID_VECTORS "positions/gnubg-1.07/posid.tsv.gz"

static TsvReader *open_vectors(const char *path)
{
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    if (!tsv_open(r, path))
        fail_msg("cannot read %s (tests run from the top of the tree)", path);
    return r;
}

static void close_vectors(TsvReader *r)
{
    tsv_close(r);
    free(r);
}

/* "POSID:MATCHID" of an Xgid, as our codecs write it. */
static void gnubg_id_of(const Position *p, const MatchId *m, char out[28])
{
    char mid[MATCHID_LEN + 1];
    posid_encode(p, out);
    assert_true(matchid_encode(m, mid, NULL));
    out[POSID_LEN] = ':';
    strcpy(out + POSID_LEN + 1, mid);
}

/* The XGID as we write it back: dice larger first, as gnubg keeps them. */
static void canonical_xgid(const char *in, char out[XGID_MAX])
{
    snprintf(out, XGID_MAX, "%s", in);
    char *dice = out;
    for (int i = 0; i < 4; i++)
        dice = strchr(dice, ':') + 1;
    if (dice[0] >= '1' && dice[0] <= '6' && dice[1] > dice[0]) {
        char t = dice[0];
        dice[0] = dice[1];
        dice[1] = t;
    }
}

/* Columns: xgid, gnubgid as gnubg shows it, gnubg_swapped (1: gnubg swapped
 * the seats because the top player is on roll), gnubgid with the seats
 * swapped back (bottom = player 1, our mapping). gnubg steps back a pending
 * double (D), so its IDs have the doubler to act and no double. */
static void test_gnubg_vectors(void **state)
{
    (void)state;
    TsvReader *r = open_vectors(XGID_VECTORS);
    int rows = 0, swapped = 0, doubles = 0;
    while (tsv_next(r)) {
        assert_int_equal(r->nfields, 4);
        Xgid x;
        Err err = {{0}};
        if (!xgid_decode(r->field[0], &x, &err))
            fail_msg("line %d: %s refused: %s", r->lineno, r->field[0], err.text);

        char again[XGID_MAX], want[XGID_MAX];
        assert_true(xgid_encode(&x, again, &err));
        canonical_xgid(r->field[0], want);
        assert_string_equal(again, want);

        MatchId as_gnubg = x.match;
        if (as_gnubg.doubled) {
            as_gnubg.doubled = false;
            as_gnubg.turn = as_gnubg.dice_owner;
            doubles++;
        }
        char id[28];
        gnubg_id_of(&x.pos, &as_gnubg, id);
        if (strcmp(id, r->field[3]))
            fail_msg("line %d: %s gives %s, gnubg %s", r->lineno, r->field[0], id,
                     r->field[3]);
        if (!strcmp(r->field[2], "1")) {
            assert_int_equal(x.match.dice_owner, 0); /* the top player is on roll */
            matchid_swap_players(&as_gnubg);
            swapped++;
        } else {
            assert_string_equal(r->field[2], "0");
            assert_int_equal(x.match.dice_owner, 1);
        }
        gnubg_id_of(&x.pos, &as_gnubg, id);
        assert_string_equal(id, r->field[1]);
        rows++;
    }
    close_vectors(r);
    assert_true(rows >= 50);
    assert_true(swapped > 10 && doubles > 3);
    print_message("xgid.tsv: %d rows (%d top on roll, %d doubles) match gnubg\n", rows,
                  swapped, doubles);
}

static void test_documented_example(void **state)
{
    (void)state;
    /* formats.md 1.5: 2-cube owned by top, score bottom 2 / top 1, 7 points */
    Xgid x;
    Err err = {{0}};
    assert_true(xgid_decode("XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:2:1:0:7:10", &x, &err));
    Position start;
    pos_start(&start);
    assert_true(pos_equal(&x.pos, &start));
    assert_int_equal(x.match.cube, 2);
    assert_int_equal(x.match.cube_owner, 0);
    assert_int_equal(x.match.dice_owner, 1);
    assert_int_equal(x.match.turn, 1);
    assert_int_equal(x.match.score[1], 2);
    assert_int_equal(x.match.score[0], 1);
    assert_int_equal(x.match.match_length, 7);
    assert_int_equal(x.match.game_state, MATCHID_GAME_PLAYING);
    assert_false(x.match.jacoby);
    assert_int_equal(x.max_cube, 10);

    /* without the prefix, top on roll having doubled, money, Jacoby+beavers */
    assert_true(xgid_decode("-b----E-C---eE---c-e----B-:2:0:-1:D:0:0:3:0:10", &x, &err));
    assert_int_equal(x.match.dice_owner, 0);
    assert_int_equal(x.match.turn, 1);
    assert_true(x.match.doubled);
    assert_int_equal(x.match.cube, 4);
    assert_true(x.match.jacoby);
    assert_true(x.beavers);
    char out[XGID_MAX];
    assert_true(xgid_encode(&x, out, &err));
    assert_string_equal(out, "XGID=-b----E-C---eE---c-e----B-:2:0:-1:D:0:0:3:0:10");

    /* a checker on each bar: side[SIDE_ROLLER] is the top player's */
    assert_true(xgid_decode("XGID=aa----E-C---eE---c-e----AA:0:0:-1:31:0:0:0:0:10", &x, &err));
    assert_int_equal(x.pos.side[SIDE_ROLLER][POS_BAR], 1);
    assert_int_equal(x.pos.side[SIDE_ROLLER][23], 1);
    assert_int_equal(x.pos.side[SIDE_OPPONENT][POS_BAR], 1);
    assert_int_equal(x.pos.side[SIDE_OPPONENT][23], 1);
    assert_int_equal(x.match.dice[0], 3);
}

/* Every position of posid.tsv.gz, with match fields that vary row by row:
 * writing an XGID and reading it back gives the same position and fields. */
static void test_round_trip(void **state)
{
    (void)state;
    TsvReader *r = open_vectors(POSID_VECTORS);
    int rows = 0;
    while (tsv_next(r)) {
        Xgid x, y;
        memset(&x, 0, sizeof x);
        assert_true(tsv_parse_side(r->field[1], x.pos.side[0]));
        assert_true(tsv_parse_side(r->field[2], x.pos.side[1]));
        MatchId *m = &x.match;
        matchid_init(m);
        int k = rows;
        m->dice_owner = k & 1;
        m->cube = 1 << (k / 2 % 7);
        m->cube_owner = m->cube == 1 ? -1 : k / 3 % 3 - 1;
        m->match_length = (int[]){0, 1, 3, 5, 7, 11, 25, 64}[k / 5 % 8];
        if (m->match_length) {
            m->score[0] = k % m->match_length;
            m->score[1] = k / 7 % m->match_length;
            m->crawford = (m->score[0] == m->match_length - 1) !=
                              (m->score[1] == m->match_length - 1) && k % 4;
        } else {
            m->jacoby = k / 11 % 2;
            x.beavers = k / 13 % 2;
        }
        if (k % 6 == 0 && !m->crawford)
            m->doubled = true;
        else if (k % 6 > 1)
            m->dice[0] = k % 6 + 1, m->dice[1] = k / 6 % 6 + 1;
        if (m->dice[1] > m->dice[0])
            m->dice[1] = m->dice[0];
        m->turn = m->doubled ? !m->dice_owner : m->dice_owner;
        x.max_cube = 10;

        char s[XGID_MAX];
        Err err = {{0}};
        if (!xgid_encode(&x, s, &err))
            fail_msg("line %d: refused: %s", r->lineno, err.text);
        if (!xgid_decode(s, &y, &err))
            fail_msg("line %d: %s refused: %s", r->lineno, s, err.text);
        if (!pos_equal(&x.pos, &y.pos) || !matchid_equal(&x.match, &y.match) ||
            x.beavers != y.beavers || y.max_cube != 10)
            fail_msg("line %d: %s reads back differently", r->lineno, s);
        rows++;
    }
    close_vectors(r);
    assert_true(rows > 1900);
    print_message("posid.tsv.gz: %d positions written as XGIDs and read back\n", rows);
}

static void expect_decode_error(const char *s, const char *needle)
{
    Xgid x;
    memset(&x, 0x5a, sizeof x);
    Xgid before = x;
    Err err = {{0}};
    if (xgid_decode(s, &x, &err))
        fail_msg("'%s' was accepted", s);
    if (!strstr(err.text, needle))
        fail_msg("'%s': message '%s' does not mention '%s'", s, err.text, needle);
    assert_memory_equal(&x, &before, sizeof x);
}

static void test_decode_errors(void **state)
{
    (void)state;
    const char *start = "-b----E-C---eE---c-e----B-";
    char s[256];
#define WITH(fields) (snprintf(s, sizeof s, "XGID=%s:%s", start, fields), s)
    expect_decode_error(WITH("1:0:1:00:0:0:0:0"), "10 fields separated by ':', this one has 9");
    expect_decode_error(WITH("1:0:1:00:0:0:0:0:10:1"), "this one has 11");
    expect_decode_error("", "this one has 1");
    expect_decode_error("XGID=", "this one has 1");
    expect_decode_error("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
                        "25 characters instead of 26");
    expect_decode_error("XGID=-b----E-C---eE---c-e----B--:0:0:1:00:0:0:0:0:10",
                        "27 characters");
    expect_decode_error("XGID=-b----E-C---eE---c-e--x-B-:0:0:1:00:0:0:0:0:10",
                        "character 23 ('x')");
    expect_decode_error("XGID=-b----E-C---eE---c-e--Q-B-:0:0:1:00:0:0:0:0:10",
                        "character 23 ('Q') is not '-', A-P");
    expect_decode_error("XGID=-b----E-C---eE---c-e--0-B-:0:0:1:00:0:0:0:0:10",
                        "character 23 ('0')");
    expect_decode_error("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
                        "top player's bar but holds bottom player checkers");
    expect_decode_error("XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10",
                        "bottom player's bar but holds top player checkers");
    expect_decode_error("XGID=-b----E-C---eE---c-e----C-:0:0:1:00:0:0:0:0:10",
                        "bottom player 16 checkers");
    expect_decode_error("XGID=-b----E-C---eE---c-e-P--B-:0:0:1:00:0:0:0:0:10",
                        "bottom player 31 checkers");
    expect_decode_error("XGID=-c----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
                        "top player 16 checkers");
    expect_decode_error("XGID=bBBBBBB------------bbbbbbA:0:0:1:00:0:0:0:0:10", "closed");
    expect_decode_error(WITH("16:0:1:00:0:0:0:0:10"), "field 2 (cube) is 16, not 0 to 15");
    expect_decode_error(WITH("x:0:1:00:0:0:0:0:10"), "field 2 (cube) is 'x'");
    expect_decode_error(WITH(":0:1:00:0:0:0:0:10"), "field 2 (cube) is ''");
    expect_decode_error(WITH("1.5:0:1:00:0:0:0:0:10"), "not a whole number");
    expect_decode_error(WITH("+1:0:1:00:0:0:0:0:10"), "not a whole number");
    expect_decode_error(WITH("12:0:1:00:0:0:0:0:10"), "above the max cube 2^10");
    expect_decode_error(WITH("1:2:1:00:0:0:0:0:10"), "field 3 (cube position) is 2");
    expect_decode_error(WITH("1:0:0:00:0:0:0:0:10"), "field 4 (turn) is 0");
    expect_decode_error(WITH("1:0:2:00:0:0:0:0:10"), "field 4 (turn) is 2");
    expect_decode_error(WITH("1:0:1:70:0:0:0:0:10"), "field 5 (dice) is '70'");
    expect_decode_error(WITH("1:0:1:07:0:0:0:0:10"), "field 5 (dice) is '07'");
    expect_decode_error(WITH("1:0:1:0:0:0:0:0:10"), "field 5 (dice) is '0'");
    expect_decode_error(WITH("1:0:1:521:0:0:0:0:10"), "field 5 (dice) is '521'");
    expect_decode_error(WITH("1:0:1:d:0:0:0:0:10"), "field 5 (dice) is 'd'");
    expect_decode_error(WITH("1:0:1:B:0:0:0:0:10"), "beaver or raccoon");
    expect_decode_error(WITH("2:0:1:R:0:0:0:0:10"), "beaver or raccoon");
    expect_decode_error(WITH("0:0:1:00:-1:0:0:7:10"), "bottom score) is -1");
    expect_decode_error(WITH("0:0:1:00:7:0:0:7:10"), "bottom score 7 is not below");
    expect_decode_error(WITH("0:0:1:00:0:9:0:7:10"), "top score 9 is not below");
    expect_decode_error(WITH("0:0:1:00:0:0:0:65:10"), "field 9 (match length) is 65");
    expect_decode_error(WITH("0:0:1:00:0:0:2:7:10"), "in a match it is 0 or 1");
    expect_decode_error(WITH("0:0:1:00:0:0:4:0:10"), "field 8 (rules) is 4");
    expect_decode_error(WITH("0:0:1:00:3:4:1:7:10"), "Crawford game at 3-4");
    expect_decode_error(WITH("0:0:1:00:6:6:1:7:10"), "exactly one player");
    expect_decode_error(WITH("0:0:1:00:0:0:1:1:10"), "exactly one player");
    expect_decode_error(WITH("0:0:1:D:6:3:1:7:10"), "double offered (D) in the Crawford");
    expect_decode_error(WITH("0:0:1:00:0:0:0:0:16"), "field 10 (max cube) is 16");
    expect_decode_error(WITH("0:0:1:00:0:0:0:0:1234567"), "not a whole number");
#undef WITH
    char longer[300];
    memset(longer, '-', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    expect_decode_error(longer, "far more than any XGID");
    expect_decode_error(NULL, "no XGID");

    Xgid x;
    assert_true(xgid_decode("xgid=-b----E-C---eE---c-e----B-:0:0:1:00:6:6:0:7:0", &x, NULL));
    assert_int_equal(x.max_cube, 0);
}

static void expect_encode_error(const Xgid *x, const char *needle)
{
    char out[XGID_MAX] = "untouched";
    Err err = {{0}};
    assert_false(xgid_encode(x, out, &err));
    if (!strstr(err.text, needle))
        fail_msg("message '%s' does not mention '%s'", err.text, needle);
}

static void test_encode_errors(void **state)
{
    (void)state;
    Xgid base, x;
    memset(&base, 0, sizeof base);
    pos_start(&base.pos);
    matchid_init(&base.match);
    base.max_cube = 10;
    char out[XGID_MAX];
    assert_true(xgid_encode(&base, out, NULL));
    assert_string_equal(out, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10");

    x = base, x.match.game_state = MATCHID_GAME_OVER;
    expect_encode_error(&x, "game state is 2 (over)");
    x = base, x.match.resigned = 2;
    expect_encode_error(&x, "resignation offer (gammon)");
    x = base, x.match.doubled = true;
    expect_encode_error(&x, "doubler's opponent");
    x = base, x.match.doubled = true, x.match.turn = 0, x.match.dice[0] = 3, x.match.dice[1] = 1;
    expect_encode_error(&x, "dice must be unrolled");
    x = base, x.match.turn = 0;
    expect_encode_error(&x, "player 0 must act but player 1 is on roll");
    x = base, x.max_cube = 16;
    expect_encode_error(&x, "max cube 16");
    x = base, x.match.cube = 4096;
    expect_encode_error(&x, "above the max cube");
    x = base, x.match.cube = 3;
    expect_encode_error(&x, "cube value 3");
    x = base, x.pos.side[0][0] = 1;
    expect_encode_error(&x, "more than 15");
    x = base, x.pos.side[1][23] = 0, x.pos.side[1][18] = 2;
    expect_encode_error(&x, "same point");
}

/* gnubgid.h: the kind of an ID by its shape, and the POSID:MATCHID pair. */
static void test_kinds_and_pairs(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        IdKind kind;
    } k[] = {
        {"4HPwATDgc/ABMA", ID_POSITION},
        {"QYkqASAAIAAA", ID_MATCH},
        {"4HPwATDgc/ABMA:QYkqASAAIAAA", ID_GNUBG},
        {"XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:2:1:0:7:10", ID_XGID},
        {"xgid=whatever", ID_XGID},
        {"-b----E-C---eE---c-e----B-:1:-1:1:00:2:1:0:7:10", ID_XGID},
        {"a:b", ID_GNUBG},
        {"a:b:c", ID_XGID},
        {"4HPwATDgc/ABM", ID_UNKNOWN},
        {"", ID_UNKNOWN},
        {NULL, ID_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (gnubgid_kind(k[i].s) != k[i].kind)
            fail_msg("'%s' taken for a %s", k[i].s ? k[i].s : "(null)",
                     gnubgid_kind_name(gnubgid_kind(k[i].s)));
    assert_string_equal(gnubgid_kind_name(ID_GNUBG), "GNUBG-ID");
    assert_string_equal(gnubgid_kind_name(ID_UNKNOWN), "unknown");

    /* every row's GNUBG-IDs read back as pairs and through read_any */
    TsvReader *r = open_vectors(XGID_VECTORS);
    int rows = 0;
    while (tsv_next(r)) {
        for (int col = 1; col <= 3; col += 2) {
            Position p;
            MatchId m;
            Err err = {{0}};
            if (!gnubgid_decode(r->field[col], &p, &m, &err))
                fail_msg("line %d: %s refused: %s", r->lineno, r->field[col], err.text);
            char again[GNUBGID_LEN + 1];
            assert_true(gnubgid_encode(&p, &m, again, &err));
            assert_string_equal(again, r->field[col]);
            AnyId a;
            assert_true(gnubgid_read_any(r->field[col], &a, &err));
            assert_int_equal(a.kind, ID_GNUBG);
            assert_true(a.has_position && a.has_match);
            assert_true(pos_equal(&a.pos, &p) && matchid_equal(&a.match, &m));
            assert_int_equal(a.max_cube, XGID_DEFAULT_MAX_CUBE);
        }
        AnyId a;
        assert_true(gnubgid_read_any(r->field[0], &a, NULL));
        assert_int_equal(a.kind, ID_XGID);
        rows++;
    }
    close_vectors(r);
    assert_true(rows >= 50);

    AnyId a, before;
    Err err = {{0}};
    assert_true(gnubgid_read_any("4HPwATDgc/ABMA", &a, &err));
    assert_true(a.has_position && !a.has_match);
    assert_true(gnubgid_read_any("T0EAAAAAAAAE", &a, &err)); /* a 32768-cube */
    assert_true(!a.has_position && a.has_match);
    assert_int_equal(a.max_cube, 15); /* raised so that an XGID can hold it */
    before = a;
    static const struct {
        const char *s, *needle;
    } bad[] = {
        {"4HPwATDgc/ABMA:", "a Match ID has 12 characters, this one has 0"},
        {":QYkqASAAIAAA", "starts with 0 characters before ':'"},
        {"4HPwATDgc/ABM:QYkqASAAIAAA", "starts with 13 characters"},
        {"4HPwATDgc/ABM!:QYkqASAAIAAA", "character 14 of the Position ID"},
        {"4HPwATDgc/ABMA:QYkqASAAIAA!", "character 12 of the Match ID"},
        {"QYkqASAAIAAA:4HPwATDgc/ABMA", "starts with 12 characters"},
        {"4HPwATDgc/ABMA:QYkqASAAIAAA:", "this one has 3"},
        {"hello", "not an ID"},
        {"", "(0 characters given)"},
        {"XGID=-b:1", "10 fields"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (gnubgid_read_any(bad[i].s, &a, &err))
            fail_msg("'%s' accepted", bad[i].s);
        if (!strstr(err.text, bad[i].needle))
            fail_msg("'%s': '%s' does not mention '%s'", bad[i].s, err.text, bad[i].needle);
        assert_memory_equal(&a, &before, sizeof a);
    }
    Position p;
    MatchId m;
    assert_false(gnubgid_decode("4HPwATDgc/ABMA", &p, &m, &err));
    assert_non_null(strstr(err.text, "joined by one ':'"));
    assert_false(gnubgid_decode(NULL, &p, &m, &err));
    m.cube = 3;
    char out[GNUBGID_LEN + 1];
    pos_start(&p);
    assert_false(gnubgid_encode(&p, &m, out, &err));
    assert_non_null(strstr(err.text, "cube value 3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gnubg_vectors),
        cmocka_unit_test(test_documented_example),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_decode_errors),
        cmocka_unit_test(test_encode_errors),
        cmocka_unit_test(test_kinds_and_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
