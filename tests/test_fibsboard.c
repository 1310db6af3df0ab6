/* test_fibsboard.c - FIBS board lines: every row of fibs.tsv.gz read as
 * gnubg's server reads it (Position ID, Match ID, names, score, dice, cube),
 * every row of client_capture.tsv.gz written back byte for byte, and one
 * concrete line for each error the reader and the writer can report. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fibsboard.h"
#include "tsv.h"

#define FIBS_TSV "positions/gnubg-1.07/fibs.tsv.gz"
#define CAPTURE_TSV "positions/gnubg-1.07/client_capture.tsv.gz"

/* The example of protocol section 3.1: opening position, X to play 3-1. */
static const char opening[] =
    "board:You:Opp:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:"
    "1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0";

static FibsParser *parser;

static int setup(void **state)
{
    (void)state;
    Err err = {{0}};
    parser = fibs_parser_new(0, &err);
    if (!parser)
        fprintf(stderr, "fibs_parser_new: %s\n", err.text);
    return parser ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    fibs_parser_free(parser);
    return 0;
}

static bool read_line(const char *line, FibsBoard *b, Err *err)
{
    return fibs_read(parser, line, strlen(line), NULL, b, err);
}

static void must_read(const char *line, FibsBoard *b)
{
    Err err = {{0}};
    if (!read_line(line, b, &err))
        fail_msg("rejected '%s': %s", line, err.text);
}

static void expect_error(const char *line, const char *needle)
{
    FibsBoard b;
    Err err = {{0}};
    if (read_line(line, &b, &err))
        fail_msg("accepted '%s' (expected an error mentioning '%s')", line, needle);
    if (!strstr(err.text, needle))
        fail_msg("'%s': message '%s' does not mention '%s'", line, err.text, needle);
    assert_true(strlen(err.text) > 0 && !strchr(err.text, '\n'));
}

/* The opening line with field f (1-based after `board:`, >= 3) set to v. */
static void with_field(char *out, size_t size, const char *line, int f, const char *v)
{
    const char *p = line + strlen("board:");
    for (int i = 1; i < f; i++)
        p = strchr(p, ':') + 1;
    const char *e = strchr(p, ':');
    if (!e)
        e = p + strlen(p);
    snprintf(out, size, "%.*s%s%s", (int)(p - line), line, v, e);
}

static void expect_field_error(int f, const char *v, const char *needle)
{
    char line[512];
    with_field(line, sizeof line, opening, f, v);
    expect_error(line, needle);
}

/* ---- the gnubg vectors ---------------------------------------------------- */

static const char *decision_of_reply(const char *reply)
{
    if (!strcmp(reply, "take") || !strcmp(reply, "drop") || !strcmp(reply, "beaver"))
        return "take";
    if (!strcmp(reply, "accept") || !strcmp(reply, "reject"))
        return "resignation";
    if (!strcmp(reply, "roll") || !strcmp(reply, "double"))
        return "cube";
    return "move";
}

static const char *decision_name(FibsDecision d)
{
    switch (d) {
    case FIBS_DECIDE_TAKE: return "take";
    case FIBS_DECIDE_RESIGNATION: return "resignation";
    case FIBS_DECIDE_MOVE: return "move";
    case FIBS_DECIDE_CUBE: return "cube";
    }
    return "?";
}

/* One row of fibs.tsv.gz checked against our reading; returns a message
 * (static) or NULL when everything agrees. */
static const char *check_row(const FibsParser *fp, char **f, int nfields, bool *was_error)
{
    static _Thread_local char why[600];
    FibsBoard b;
    Err err = {{0}};
    const char *line = f[1];
    bool ok = fibs_read(fp, line, strlen(line), NULL, &b, &err);
    *was_error = !strcmp(f[0], "error-case");
    if (*was_error) {
        if (ok)
            return "a malformed line was accepted";
        return NULL;
    }
    if (!ok) {
        snprintf(why, sizeof why, "rejected: %s", err.text);
        return why;
    }
    if (nfields < 14)
        return "short row";
    char posid[POSID_LEN + 1], matchid[MATCHID_LEN + 1];
    if (!fibs_to_ids(&b, posid, matchid, &err)) {
        snprintf(why, sizeof why, "no IDs: %s", err.text);
        return why;
    }
    char score[64], roll[8], rules[80];
    snprintf(score, sizeof score, "%d-%d", b.score[FIBS_X], b.score[FIBS_O]);
    if (b.match_length)
        snprintf(score + strlen(score), sizeof score - strlen(score), "/%d%s", b.match_length,
                 b.crawford ? "*" : "");
    snprintf(roll, sizeof roll, "%d%d", b.dice[0], b.dice[1]);
    if (b.match_length)
        snprintf(rules, sizeof rules, "Match Play with%s Crawford Rule",
                 b.options.crawford_rule ? "" : "out");
    else
        snprintf(rules, sizeof rules, "Money Session with%s Jacoby Rule, with%s Beavers",
                 b.options.jacoby ? "" : "out", b.options.beavers ? "" : "out");
    char owner[8], cube[16], doubled[4];
    snprintf(owner, sizeof owner, "%d", b.cube_owner);
    snprintf(cube, sizeof cube, "%d", b.cube);
    snprintf(doubled, sizeof doubled, "%d", b.doubled ? 1 : 0);
    const struct {
        const char *what, *want, *got;
    } cols[] = {
        {"posid", f[3], posid},          {"matchid", f[4], matchid},
        {"x_name", f[5], b.name[FIBS_X]}, {"o_name", f[6], b.name[FIBS_O]},
        {"rules", f[7], rules},          {"score", f[8], score},
        {"roll", f[9], roll},            {"cubeowner", f[10], owner},
        {"cube", f[11], cube},           {"doubled", f[12], doubled},
        {"decision", decision_of_reply(f[2]), decision_name(b.decision)},
    };
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
        if (strcmp(cols[i].want, cols[i].got)) {
            snprintf(why, sizeof why, "%s: gnubg '%s', ours '%s'", cols[i].what, cols[i].want,
                     cols[i].got);
            return why;
        }
    if (strcmp(f[13], "-") && strcmp(f[13], posid)) {
        snprintf(why, sizeof why, "expected_posid %s, ours %s", f[13], posid);
        return why;
    }
    /* Whatever we accept must be a position gnubg accepts, with IDs that
     * decode back to it. */
    Position back;
    MatchId m, mback;
    fibs_matchid(&b, &m);
    if (!pos_valid(&b.pos, &err) || !posid_decode(posid, &back, &err) ||
        !pos_equal(&back, &b.pos) || !matchid_decode(matchid, &mback, &err) ||
        !matchid_equal(&m, &mback))
        return "IDs do not round-trip";
    return NULL;
}

static void test_fibs_vectors(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, FIBS_TSV));
    int rows = 0, boards = 0, errors = 0, failed = 0;
    while (tsv_next(r)) {
        bool was_error;
        const char *why = check_row(parser, r->field, r->nfields, &was_error);
        rows++;
        if (why) {
            if (failed++ < 10)
                print_error("%s line %d (%s): %s\n  %s\n", FIBS_TSV, r->lineno, r->field[0],
                            why, r->field[1]);
        } else if (was_error) {
            errors++;
        } else {
            boards++;
        }
    }
    tsv_close(r);
    free(r);
    print_message("fibs.tsv.gz: %d rows: %d boards with posid, matchid, names, rules, score, "
                  "roll, cube owner, cube, doubled and decision as gnubg; %d malformed lines "
                  "rejected; %d disagreements\n",
                  rows, boards, errors, failed);
    assert_int_equal(failed, 0);
    assert_int_equal(rows, 1034);
    assert_int_equal(errors, 18);
}

/* One parser shared by four threads, each reading every vector: the
 * compiled patterns are read-only, the match data per call. */
static void *vector_thread(void *arg)
{
    (void)arg;
    TsvReader *r = malloc(sizeof *r);
    long bad = 0;
    if (!r || !tsv_open(r, FIBS_TSV)) {
        free(r);
        return (void *)1L;
    }
    while (tsv_next(r)) {
        bool was_error;
        bad += check_row(parser, r->field, r->nfields, &was_error) != NULL;
    }
    tsv_close(r);
    free(r);
    return (void *)bad;
}

static void test_threads_share_parser(void **state)
{
    (void)state;
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, vector_thread, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *bad;
        assert_int_equal(pthread_join(t[i], &bad), 0);
        assert_int_equal((long)bad, 0);
    }
}

/* Every board gnubg sent as a client, read as gnubg's server reads it, turned
 * back into the game by player (the external player is seat 1 in every run)
 * and written again: the same bytes. */
static void test_client_capture_round_trip(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, CAPTURE_TSV));
    int rows = 0, failed = 0, kinds[3] = {0, 0, 0};
    while (tsv_next(r)) {
        rows++;
        const char *line = r->field[3], *kind = r->field[2];
        FibsBoard b;
        FibsGame g;
        Err err = {{0}};
        char out[FIBS_LINE_MAX];
        bool ok = read_line(line, &b, &err) && fibs_game_from_board(&b, 1, &g, &err) &&
                  fibs_write(&g, out, &err);
        if (ok && strcmp(out, line))
            snprintf(err.text, sizeof err.text, "wrote %.240s", out), ok = false;
        /* gnubg's kinds: move (dice), cube (no dice), take (field 40 = 1). */
        FibsDecision want = !strcmp(kind, "move")   ? FIBS_DECIDE_MOVE
                            : !strcmp(kind, "cube") ? FIBS_DECIDE_CUBE
                                                    : FIBS_DECIDE_TAKE;
        if (ok && b.decision != want)
            snprintf(err.text, sizeof err.text, "decision %s, kind %s",
                     decision_name(b.decision), kind),
                ok = false;
        if (ok && strcmp(r->field[4], "\\n\\0"))
            snprintf(err.text, sizeof err.text, "bytes after the line: %s", r->field[4]),
                ok = false;
        if (!ok) {
            if (failed++ < 10)
                print_error("%s line %d (%s %s): %s\n  %s\n", CAPTURE_TSV, r->lineno,
                            r->field[0], r->field[1], err.text, line);
            continue;
        }
        kinds[want == FIBS_DECIDE_MOVE ? 0 : want == FIBS_DECIDE_CUBE ? 1 : 2]++;
    }
    tsv_close(r);
    free(r);
    print_message("client_capture.tsv.gz: %d boards read and written back byte for byte "
                  "(%d move, %d cube, %d take requests); %d differ\n",
                  rows, kinds[0], kinds[1], kinds[2], failed);
    assert_int_equal(failed, 0);
    assert_int_equal(rows, 411);
}

/* ---- reading: what gnubg accepts ------------------------------------------ */

static void test_opening_example(void **state)
{
    (void)state;
    FibsBoard b;
    must_read(opening, &b);
    char posid[POSID_LEN + 1], matchid[MATCHID_LEN + 1];
    assert_true(fibs_to_ids(&b, posid, matchid, NULL));
    assert_string_equal(posid, "4HPwATDgc/ABMA");
    assert_string_equal(matchid, "cIkFAAAAAAAA");
    assert_string_equal(b.name[FIBS_X], "You");
    assert_string_equal(b.name[FIBS_O], "Opp");
    assert_int_equal(b.decision, FIBS_DECIDE_MOVE);
    assert_int_equal(b.dice[0], 3);
    assert_int_equal(b.dice[1], 1);
    assert_int_equal(b.cube_owner, -1);
    assert_int_equal(b.x_colour, 1);
    assert_int_equal(b.x_direction, -1);
    assert_false(b.swapped);
    /* Jacoby off shows in bit 66 only. */
    FibsOptions o;
    fibs_options_default(&o);
    o.jacoby = false;
    assert_true(fibs_read(parser, opening, strlen(opening), &o, &b, NULL));
    assert_true(fibs_to_ids(&b, posid, matchid, NULL));
    assert_string_equal(matchid, "cIkFAAAAAAAE");
}

static void test_lexing_accepts(void **state)
{
    (void)state;
    FibsBoard b;
    char line[600];
    const char *tail = strchr(opening + 6, ':') + 1; /* "Opp:0:..." */
    tail = strchr(tail, ':');                        /* ":0:0:..." */
    /* Names: quoted with escapes, leading digits, underscores, keywords. */
    static const struct {
        const char *written, *read;
    } names[] = {
        {"'Jo Ann'", "Jo Ann"},   {"\"Mr X\"", "Mr X"},     {"1abc", "1abc"},
        {"_", "_"},               {"on", "on"},             {"'a:b'", "a:b"},
        {"'\\x41\\x62c'", "Abc"}, {"'\\077x'", "?x"},       {"'\\65x'", "Ax"},
        {"'back\\\\'", "back\\"}, {"'123'", "123"},
        {"\"it's\"", "it's"},     {"'\\q'", "q"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(line, sizeof line, "board:%s:Opp%s", names[i].written, tail);
        must_read(line, &b);
        assert_string_equal(b.name[FIBS_X], names[i].read);
    }
    /* `board:` in any case, blanks before it, a '\r' or options after. */
    snprintf(line, sizeof line, "  \tBOARD:You:Opp%s\r", tail);
    must_read(line, &b);
    snprintf(line, sizeof line, "Board:You:Opp%s\t jacobyrule off \r", tail);
    must_read(line, &b);
    assert_false(b.options.jacoby);
    /* Signed integers: +3 and -0 are fine. */
    with_field(line, sizeof line, opening, 33, "+3");
    must_read(line, &b);
    assert_int_equal(b.dice[0], 3);
    with_field(line, sizeof line, opening, 40, "-0");
    must_read(line, &b);
    assert_false(b.doubled);
    /* A name of exactly FIBS_NAME_MAX bytes. */
    snprintf(line, sizeof line, "board:%s:Opp%s", "abcdefghijklmnopqrstuvwxyz_0123", tail);
    must_read(line, &b);
    assert_int_equal(strlen(b.name[FIBS_X]), FIBS_NAME_MAX);
    /* fibs_lex stops at the first blank after the board. */
    FibsRaw raw;
    size_t end = 0;
    snprintf(line, sizeof line, "%s plies 2", opening);
    assert_true(fibs_lex(parser, line, strlen(line), &raw, &end, NULL));
    assert_int_equal(end, strlen(opening));
    assert_int_equal(raw.field[FIBS_F_CUBE], 1);
    assert_string_equal(raw.name[1], "Opp");
}

static void test_lexing_errors(void **state)
{
    (void)state;
    char line[600];
    const char *tail = strchr(strchr(opening + 6, ':') + 1, ':');
    expect_error("", "must start with 'board:'");
    expect_error("hello", "must start with 'board:'");
    expect_error("fibsboard You:Opp:0:0:0", "must start with 'board:'");
    expect_error("evaluation board:You:Opp:0:0:0", "must start with 'board:'");
    expect_error("board: You:Opp:0:0:0", "field 1 (first name) is missing");
    expect_error("board:You:Opp", "field 2 (second name): the board ends after the name");
    expect_error("board:123:Opp:0:0:0", "'123' is all digits");
    expect_error("board:Jo-Ann:Opp:0:0:0", "'-' after 'Jo' is not allowed");
    expect_error("board:You:-x:0", "field 2 (second name): '-x' is not a name");
    expect_error("board:'Jo Ann:Opp:0", "the quote ' is not closed");
    expect_error("board:You:Opp:0:x:0", "field 4 (first score): 'x' is not an integer");
    expect_error("board:You:Opp:0:1.5:0", "field 4 (first score): '1.5' is not an integer");
    expect_error("board:You:Opp:0::0", "field 4 (first score) is empty");
    expect_error("board:You:Opp:0 :0", "the board has 1 integers after the names; exactly 50");
    expect_error("board:You:Opp:0:0:0", "the board has 3 integers after the names; exactly 50");
    expect_error("board:You:Opp:0:99999999999:0", "field 4 (first score): 99999999999 is out");
    snprintf(line, sizeof line, "%s:0", opening);
    expect_error(line, "the board has 51 integers after the names; at most 50");
    snprintf(line, sizeof line, "%s:", opening);
    expect_error(line, "the board goes on after its 50 integers");
    snprintf(line, sizeof line, "%sx", opening);
    expect_error(line, "field 52 (not Crawford (redoubles)): '0x' is not an integer");
    /* Names: too long, control bytes, bad escapes, empty. */
    static const struct {
        const char *first, *second, *needle;
    } bad_names[] = {
        {"abcdefghijklmnopqrstuvwxyz_01234", "Opp",
         "field 1 (first name): the name is longer than 31 bytes"},
        {"'abcdefghijklmnopqrstuvwxyz 01234'", "Opp", "the name is longer than 31 bytes"},
        {"'a\\tb'", "Opp", "the name holds the byte 0x09"},
        /* Octal escapes take three digits with their 0: \0101 is 010, then 1. */
        {"'\\0101'", "Opp", "the name holds the byte 0x08"},
        {"'a\\x'", "Opp", "the name holds the byte 0x00"},
        {"You", "'\\300'", "field 2 (second name): the escape \\300 is above 255"},
        {"'ab\\'", "Opp", "the name ends with a lone backslash"},
        /* A quote cannot be escaped: the name is 'it\' and s' follows. */
        {"'it\\'s'", "Opp", "the name ends with a lone backslash"},
        {"''", "Opp", "field 1 (first name): the name is empty"},
        {"'\xc3\xa9'", "Opp", "the name holds the byte 0xc3"},
    };
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        snprintf(line, sizeof line, "board:%s:%s%s", bad_names[i].first, bad_names[i].second,
                 tail);
        expect_error(line, bad_names[i].needle);
    }
    /* A NUL byte inside the line is not a blank. */
    FibsBoard b;
    char nul[sizeof opening + 8];
    memcpy(nul, opening, sizeof opening);
    nul[8] = '\0';
    Err err = {{0}};
    assert_false(fibs_read(parser, nul, sizeof opening - 1, NULL, &b, &err));
    assert_non_null(strstr(err.text, "field 1 (first name)"));
}

/* ---- reading: the checks gnubg does not make ------------------------------- */

/* One field of the opening line changed, and the message it must give. */
static const struct {
    int field;
    const char *value, *needle;
} field_cases[] = {
    /* What gnubg calls "badly formed board", and more. */
    {32, "0", "field 32 (turn) is 0; it must be 1 or -1"},
    {41, "0", "field 41 (colour) is 0; it must be 1 or -1"},
    {42, "0", "field 42 (direction) is 0; it must be 1 or -1"},
    {32, "2", "field 32 (turn) is 2; it must be 1 or -1"},
    {41, "-7", "field 41 (colour) is -7"},
    /* Match length and scores (money: 0 to 32767). */
    {3, "-1", "field 3 (match length) is -1, not 0 to 9999"},
    {3, "10000", "field 3 (match length) is 10000, not 0 to 9999"},
    {4, "-2", "field 4 (first score) is -2, not 0 to 32767"},
    {5, "32768", "field 5 (second score) is 32768, not 0 to 32767"},
    /* Points, bars, checker counts. */
    {12, "16", "field 12 (board[6]) is 16, not -15 to 15"},
    {7, "-16", "field 7 (board[1]) is -16, not -15 to 15"},
    {31, "-1", "field 31 (board[25]) is -1: with colour 1 and direction -1 it is the bar of "
               "you, whose checkers are positive"},
    {6, "1", "field 6 (board[0]) is 1: with colour 1 and direction -1 it is the bar of the "
             "opponent, whose checkers are negative"},
    {9, "1", "your colour (1) has 16 checkers on the board and bar"},
    {9, "-1", "the opponent's colour (-1) has 16 checkers"},
    {45, "2", "field 45 (your borne-off checkers) is 2, but your colour has 15 checkers on "
              "the board, so 0 are borne off"},
    {46, "-1", "field 46 (opponent's borne-off checkers) is -1"},
    {47, "3", "field 47 (your checkers on the bar) is 3, but the board shows 0 there"},
    {48, "1", "field 48 (opponent's checkers on the bar) is 1"},
    /* Dice, cube and flags. */
    {33, "7", "fields 33 and 34 (dice) are 7 and 1: both must be 1 to 6"},
    {34, "0", "fields 33 and 34 (dice) are 3 and 0"},
    {35, "2", "fields 35 and 36 (dice) are 2 and 0"},
    {37, "3", "field 37 (cube) is 3, not a power of two from 1 to 32768"},
    {37, "0", "field 37 (cube) is 0"},
    {37, "65536", "field 37 (cube) is 65536"},
    {38, "2", "field 38 (you may double) is 2, not 0 to 1"},
    {39, "-1", "field 39 (opponent may double) is -1, not 0 to 1"},
    {40, "2", "field 40 (was doubled) is 2, not -1 to 1"},
    {40, "1", "a double is pending (field 40, or fields 38 and 39 both 0) but dice are given"},
    {43, "25", "fields 43 and 44 (home, bar) are 25 and 25; with direction -1 they must be 0 "
               "and 25"},
    {49, "5", "field 49 (can move) is 5, not 0 to 4"},
    {50, "2", "field 50 (forced move) is 2, not 0 to 1"},
    {51, "2", "field 51 (post-Crawford) is 2, not 0 to 1"},
    {52, "-3", "field 52 (not Crawford (redoubles)) is -3"},
};

static void test_field_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof field_cases / sizeof field_cases[0]; i++)
        expect_field_error(field_cases[i].field, field_cases[i].value, field_cases[i].needle);
    char line[600], l2[600];
    /* Scores in a match. */
    with_field(line, sizeof line, opening, 3, "5");
    with_field(l2, sizeof l2, line, 4, "5");
    expect_error(l2, "field 4 (first score) is 5; in a 5-point match it must be 0 to 4");
    with_field(l2, sizeof l2, line, 5, "7");
    expect_error(l2, "field 5 (second score) is 7; in a 5-point match it must be 0 to 4");
    with_field(l2, sizeof l2, line, 5, "-1");
    expect_error(l2, "field 5 (second score) is -1");
    /* Both pairs of dice given, and different. */
    with_field(line, sizeof line, opening, 35, "5");
    with_field(l2, sizeof l2, line, 36, "2");
    expect_error(l2, "both pairs of dice are given and differ (fields 33-34: 3 1, fields "
                     "35-36: 5 2)");
    with_field(l2, sizeof l2, line, 36, "1");
    expect_error(l2, "both pairs of dice are given and differ");
    with_field(line, sizeof line, opening, 35, "3");
    with_field(l2, sizeof l2, line, 36, "1");
    FibsBoard b;
    must_read(l2, &b); /* the same dice twice, as gnubg writes them */
    /* Both sides on the bar against two closed boards: pos_valid refuses. */
    expect_error("board:You:Opp:0:0:0:-1:2:2:2:2:2:2:2:0:0:0:0:0:-2:0:0:0:0:0:-2:-2:-2:-2:-2:"
                 "-2:1:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0",
                 "the board is not a legal position: both sides have checkers on the bar");
}

static void test_option_errors(void **state)
{
    (void)state;
    /* Options. */
    char line[600];
    snprintf(line, sizeof line, "%s plies 2", opening);
    expect_error(line, "'plies' is not a board option");
    snprintf(line, sizeof line, "%s jacobyrule", opening);
    expect_error(line, "option jacobyrule needs on or off");
    snprintf(line, sizeof line, "%s crawfordrule 1", opening);
    expect_error(line, "option crawfordrule needs on or off (or yes/no, true/false), not '1'");
    snprintf(line, sizeof line, "%s resignation 4", opening);
    expect_error(line, "option resignation needs 0 (none), 1 (single), 2 (gammon) or 3");
    snprintf(line, sizeof line, "%s resignation -1", opening);
    expect_error(line, "not '-1'");
    /* A smaller cube limit. */
    Err err = {{0}};
    FibsParser *small = fibs_parser_new(64, &err);
    assert_non_null(small);
    FibsBoard b;
    with_field(line, sizeof line, opening, 37, "128");
    assert_false(fibs_read(small, line, strlen(line), NULL, &b, &err));
    assert_non_null(strstr(err.text, "field 37 (cube) is 128, not a power of two from 1 to 64"));
    with_field(line, sizeof line, opening, 37, "64");
    assert_true(fibs_read(small, line, strlen(line), NULL, &b, &err));
    fibs_parser_free(small);
    assert_null(fibs_parser_new(48, &err));
    assert_non_null(strstr(err.text, "cube limit 48"));
    assert_null(fibs_parser_new(65536, &err));
}

/* ---- interpretation details (section 4.4) --------------------------------- */

static void test_interpretation(void **state)
{
    (void)state;
    FibsBoard b;
    char line[600], l2[600];
    /* 9999 = money; scores are not limited by it. */
    with_field(line, sizeof line, opening, 3, "9999");
    with_field(l2, sizeof l2, line, 4, "12000");
    must_read(l2, &b);
    assert_int_equal(b.match_length, 0);
    assert_int_equal(b.score[FIBS_X], 12000);
    /* A 99-point match keeps the points still needed, up to 64. */
    with_field(line, sizeof line, opening, 3, "99");
    with_field(l2, sizeof l2, line, 4, "98");
    with_field(line, sizeof line, l2, 5, "20");
    must_read(line, &b);
    assert_int_equal(b.match_length, 64);
    assert_int_equal(b.score[FIBS_X], 63);
    assert_int_equal(b.score[FIBS_O], 0);
    /* 1-away with fields 51 and 52 both 0: the Crawford game, unless the
     * Crawford rule is off; field 52 nonzero: post-Crawford. */
    assert_true(b.crawford);
    assert_false(b.post_crawford);
    snprintf(l2, sizeof l2, "%.500s crawfordrule off", line);
    must_read(l2, &b);
    assert_false(b.crawford);
    assert_true(b.post_crawford);
    assert_false(b.options.crawford_rule);
    with_field(l2, sizeof l2, line, 52, "1");
    must_read(l2, &b);
    assert_false(b.crawford);
    assert_true(b.post_crawford);
    /* Money never has a Crawford game. */
    with_field(line, sizeof line, opening, 4, "0");
    must_read(line, &b);
    assert_false(b.crawford || b.post_crawford);

    /* Turn -1 with colour 1: O is on roll, so names and scores swap and the
     * checkers with sign -1 become X's (moving the other way). */
    with_field(line, sizeof line, opening, 32, "-1");
    with_field(l2, sizeof l2, line, 4, "3");
    must_read(l2, &b);
    assert_true(b.swapped);
    assert_string_equal(b.name[FIBS_X], "Opp");
    assert_int_equal(b.score[FIBS_O], 3);
    assert_int_equal(b.x_colour, -1);
    assert_int_equal(b.x_direction, 1);
    Position start;
    pos_start(&start);
    assert_true(pos_equal(&b.pos, &start));

    /* A pending double (field 40) or both may-double flags 0: X answers. */
    with_field(line, sizeof line, opening, 33, "0");
    with_field(l2, sizeof l2, line, 34, "0");
    with_field(line, sizeof line, l2, 40, "1");
    must_read(line, &b);
    assert_int_equal(b.decision, FIBS_DECIDE_TAKE);
    assert_true(b.doubled);
    assert_string_equal(b.name[FIBS_X], "Opp");
    assert_int_equal(b.x_colour, -1);
    with_field(line, sizeof line, l2, 38, "0");
    with_field(l2, sizeof l2, line, 39, "0");
    must_read(l2, &b);
    assert_true(b.doubled);
    assert_int_equal(b.cube_owner, -1);
    /* Cube owner: the side whose may-double flag is the only one set. */
    with_field(line, sizeof line, opening, 39, "0");
    must_read(line, &b);
    assert_int_equal(b.cube_owner, FIBS_X);
    with_field(line, sizeof line, opening, 38, "0");
    must_read(line, &b);
    assert_int_equal(b.cube_owner, FIBS_O);
    /* Opponent's dice are used when the own pair is 0 0; no dice: cube. */
    with_field(line, sizeof line, opening, 33, "0");
    with_field(l2, sizeof l2, line, 34, "0");
    with_field(line, sizeof line, l2, 35, "6");
    with_field(l2, sizeof l2, line, 36, "5");
    must_read(l2, &b);
    assert_int_equal(b.dice[0], 6);
    assert_int_equal(b.dice[1], 5);
    with_field(l2, sizeof l2, line, 35, "0");
    must_read(l2, &b);
    assert_int_equal(b.decision, FIBS_DECIDE_CUBE);
    /* A resignation is asked about when no double is pending. */
    snprintf(line, sizeof line, "%s resignation 2", opening);
    must_read(line, &b);
    assert_int_equal(b.decision, FIBS_DECIDE_RESIGNATION);
    assert_int_equal(b.options.resignation, 2);
}

/* ---- options ------------------------------------------------------------- */

static void test_options(void **state)
{
    (void)state;
    FibsOptions o;
    fibs_options_default(&o);
    assert_true(o.jacoby && o.crawford_rule && o.beavers);
    assert_int_equal(o.resignation, 0);
    static const char *const words[] = {"on", "YES", "True", "off", "no", "FALSE"};
    for (int i = 0; i < 6; i++) {
        bool v = i >= 3;
        assert_true(fibs_bool_word(words[i], strlen(words[i]), &v));
        assert_true(v == (i < 3));
    }
    bool v;
    assert_false(fibs_bool_word("1", 1, &v));
    assert_false(fibs_bool_word("onn", 3, &v));
    assert_false(fibs_bool_word("o", 1, &v));
    const char *text = " JacobyRule off\tcrawfordrule no beavers false resignation 3 "
                       "jacobyrule yes resignation +1\r";
    assert_true(fibs_parse_options(parser, text, strlen(text), &o, NULL));
    assert_true(o.jacoby); /* the last one wins */
    assert_false(o.crawford_rule);
    assert_false(o.beavers);
    assert_int_equal(o.resignation, 1);
    assert_true(fibs_parse_options(parser, "", 0, &o, NULL));
    assert_true(fibs_parse_options(parser, " \t", 2, &o, NULL));
    Err err = {{0}};
    assert_int_equal(fibs_option_set(&o, "plies", 5, "2", 1, &err), FIBS_OPTION_UNKNOWN);
    assert_int_equal(fibs_option_set(&o, "beavers", 7, "on", 2, &err), FIBS_OPTION_SET);
    assert_true(o.beavers);
    assert_int_equal(fibs_option_set(&o, "resignation", 11, "0", 1, &err), FIBS_OPTION_SET);
    assert_int_equal(o.resignation, 0);
    assert_int_equal(fibs_option_set(&o, "resignation", 11, "12", 2, &err), FIBS_OPTION_BAD);
    assert_int_equal(fibs_option_set(&o, "resignation", 11, NULL, 0, &err), FIBS_OPTION_BAD);
    assert_int_equal(fibs_option_set(&o, "beavers", 7, "maybe", 5, &err), FIBS_OPTION_BAD);
    assert_non_null(strstr(err.text, "not 'maybe'"));
    text = "beavers on bogus";
    assert_false(fibs_parse_options(parser, text, strlen(text), &o, &err));
    assert_non_null(strstr(err.text, "'bogus' is not a board option"));
}

/* ---- writing ------------------------------------------------------------- */

static void opening_game(FibsGame *g)
{
    memset(g, 0, sizeof *g);
    g->name[0] = "alice";
    g->name[1] = "extbot";
    pos_start(&g->pos);
    g->on_roll = 1;
    g->acting = 1;
    g->dice[0] = 3;
    g->dice[1] = 1;
    g->cube = 1;
    g->cube_owner = -1;
}

static void expect_write(const FibsGame *g, const char *want)
{
    char out[FIBS_LINE_MAX];
    Err err = {{0}};
    if (!fibs_write(g, out, &err))
        fail_msg("not written: %s", err.text);
    assert_string_equal(out, want);
}

static void expect_write_error(const FibsGame *g, const char *needle)
{
    char out[FIBS_LINE_MAX];
    Err err = {{0}};
    assert_false(fibs_write(g, out, &err));
    if (!strstr(err.text, needle))
        fail_msg("message '%s' does not mention '%s'", err.text, needle);
}

static void test_write(void **state)
{
    (void)state;
    FibsGame g;
    opening_game(&g);
    expect_write(&g, "board:alice:extbot:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:"
                     "0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1");
    /* Player 0 on roll: the same board from player 1's side, turn -1. */
    g.on_roll = g.acting = 0;
    g.score[0] = 2;
    g.match_length = 5;
    g.cube = 2;
    g.cube_owner = 1;
    g.crawford = false;
    expect_write(&g, "board:alice:extbot:5:2:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:"
                     "0:0:0:2:0:-1:3:1:3:1:2:1:0:0:1:-1:0:25:0:0:0:0:0:0:0:1");
    /* An ordinary take request: player 0 doubled, player 1 answers, so
     * player 1's name and score come first; Crawford and post-Crawford. */
    g.dice[0] = g.dice[1] = 0;
    g.acting = 1;
    g.doubled = true;
    g.cube_owner = -1;
    g.score[0] = 4;
    g.post_crawford = true;
    expect_write(&g, "board:extbot:alice:5:0:4:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:"
                     "0:0:0:2:0:-1:0:0:0:0:2:1:1:1:1:-1:0:25:0:0:0:0:0:0:1:1");
    /* Borne-off counts and bars. */
    opening_game(&g);
    g.pos.side[1][5] = 2;  /* player 1: 3 off */
    g.pos.side[1][POS_BAR] = 1;
    g.pos.side[0][23] = 0; /* player 0: 2 off */
    g.crawford = true;
    g.match_length = 3;
    g.score[0] = 2;
    expect_write(&g, "board:alice:extbot:3:2:0:0:0:0:0:0:0:2:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:"
                     "0:0:0:2:1:1:3:1:3:1:1:1:1:0:1:-1:0:25:2:2:0:0:0:0:0:0");
}

static void test_write_names(void **state)
{
    (void)state;
    FibsGame g;
    opening_game(&g);
    char out[FIBS_LINE_MAX];
    static const struct {
        const char *name, *written, *read_back;
    } names[] = {
        {"a:b", "a_b", "a_b"},        {"Jo Ann", "'Jo Ann'", "Jo Ann"},
        {"123", "'123'", "123"},      {"it's", "\"it's\"", "it's"},
        {"a\\b", "'a\\\\b'", "a\\b"}, {"x-y:z", "'x-y_z'", "x-y_z"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        g.name[0] = names[i].name;
        Err err = {{0}};
        if (!fibs_write(&g, out, &err))
            fail_msg("%s: %s", names[i].name, err.text);
        size_t n = strlen(names[i].written);
        assert_memory_equal(out + 6, names[i].written, n);
        assert_int_equal(out[6 + n], ':');
        FibsBoard b;
        must_read(out, &b);
        assert_string_equal(b.name[FIBS_X], names[i].read_back);
    }
    g.name[0] = "both ' and \"";
    expect_write_error(&g, "player 0's name holds both quote marks");
    g.name[0] = "tab\there";
    expect_write_error(&g, "player 0's name holds the byte 0x09");
    g.name[0] = "";
    expect_write_error(&g, "player 0 has no name");
    g.name[0] = NULL;
    expect_write_error(&g, "player 0 has no name");
    g.name[0] = "alice";
    g.name[1] = "abcdefghijklmnopqrstuvwxyz_01234";
    expect_write_error(&g, "player 1's name is longer than 31 bytes");
}

static void test_write_errors(void **state)
{
    (void)state;
    FibsGame g;
    opening_game(&g);
    g.on_roll = 2;
    expect_write_error(&g, "on_roll (2) and acting (1) must be players 0 or 1");
    opening_game(&g);
    g.match_length = 65;
    expect_write_error(&g, "match length 65 is not 0 (money) to 64");
    opening_game(&g);
    g.match_length = 5;
    g.score[1] = 5;
    expect_write_error(&g, "player 1's score 5 is not 0 to 4");
    opening_game(&g);
    g.pos.side[0][5] = 6;
    expect_write_error(&g, "the position is not legal");
    opening_game(&g);
    g.dice[1] = 7;
    expect_write_error(&g, "dice 3 and 7");
    opening_game(&g);
    g.doubled = true;
    expect_write_error(&g, "dice are rolled, so the player on roll must be the one acting");
    opening_game(&g);
    g.dice[0] = g.dice[1] = 0;
    g.acting = 0;
    expect_write_error(&g, "player 0 acts while player 1 is on roll, but no double");
    opening_game(&g);
    g.cube = 6;
    expect_write_error(&g, "cube 6 is not a power of two");
    opening_game(&g);
    g.cube_owner = 2;
    expect_write_error(&g, "cube owner 2 is not -1 (centred), 0 or 1");
    opening_game(&g);
    g.crawford = true;
    expect_write_error(&g, "a Crawford game needs a match in which somebody is 1-away");
    g.match_length = 3;
    g.score[1] = 2;
    g.post_crawford = true;
    expect_write_error(&g, "both the Crawford game and post-Crawford");
    g.crawford = false;
    g.score[1] = 0;
    expect_write_error(&g, "a post-Crawford game needs a match in which somebody is 1-away");
    /* fibs_game_from_board needs a board in gnubg's client convention. */
    FibsBoard b;
    char line[600];
    with_field(line, sizeof line, opening, 41, "-1");
    must_read(line, &b);
    Err err = {{0}};
    assert_false(fibs_game_from_board(&b, 1, &g, &err));
    assert_non_null(strstr(err.text, "fields 41, 42"));
    must_read(opening, &b);
    assert_false(fibs_game_from_board(&b, 2, &g, &err));
    with_field(line, sizeof line, opening, 51, "1"); /* money: no post-Crawford game */
    must_read(line, &b);
    assert_false(fibs_game_from_board(&b, 1, &g, &err));
    assert_non_null(strstr(err.text, "field 51"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fibs_vectors),
        cmocka_unit_test(test_threads_share_parser),
        cmocka_unit_test(test_client_capture_round_trip),
        cmocka_unit_test(test_opening_example),
        cmocka_unit_test(test_lexing_accepts),
        cmocka_unit_test(test_lexing_errors),
        cmocka_unit_test(test_field_errors),
        cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_interpretation),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_write_names),
        cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
