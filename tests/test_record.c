/* test_record.c - game records: a short money session played through the
 * match state machine with given dice and moves, checked against its .mat
 * text written out by hand; seeded random games under every rules preset
 * (the text's shape, scores and the same bytes on every run); record files
 * cut at every byte of a game give exactly the games before it; and every
 * refusal of the record calls, with its reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "match.h"
#include "movetext.h"
#include "ok.h"
#include "randgame.h"
#include "record.h"
#include "record_mat.h"
#include "rules.h"

static MoveList moves; /* too big for a stack frame */

/* The call (which passes &e_) must fail and say `msg`. */
#define REFUSED(call, msg)                                                                 \
    do {                                                                                   \
        Err e_ = {{0}};                                                                    \
        if (call)                                                                          \
            fail_msg("%s accepted", #call);                                                \
        if (!strstr(e_.text, msg))                                                         \
            fail_msg("%s: expected '%s' in '%s'", #call, msg, e_.text);                     \
    } while (0)

/* --- a referee in miniature: each action on the match, then the record -- */

typedef struct Ref {
    Match m;
    Record r;
} Ref;

static void ref_over(Ref *f)
{
    if (f->m.phase == PHASE_OVER || f->m.phase == PHASE_RESIGNED ||
        f->m.phase == PHASE_DROPPED)
        OK(record_game_end(&f->r, f->m.winner, f->m.points, &e_));
}

static void ref_open(Ref *f, int d0, int d1)
{
    OK(match_opening_roll(&f->m, d0, d1, &e_));
    OK(record_opening_roll(&f->r, d0, d1, &e_));
}

static void ref_roll(Ref *f, int d1, int d2)
{
    int p = f->m.on_roll;
    OK(match_roll(&f->m, d1, d2, &e_));
    OK(record_roll(&f->r, p, d1, d2, &e_));
}

/* Plays the legal move `text` means, and records it as a Move. */
static void ref_move(Ref *f, const char *text)
{
    Position before;
    match_position(&f->m, &before);
    match_legal_moves(&f->m, &moves);
    Err err;
    int i = movetext_match_roll(&before, &moves, f->m.dice[0], f->m.dice[1], text, &err);
    if (i < 0)
        fail_msg("move '%s': %s", text, err.text);
    int p = f->m.on_roll;
    OK(match_move(&f->m, &moves.moves[i].result, &e_));
    OK(record_move(&f->r, p, &before, &moves.moves[i], &e_));
    ref_over(f);
}

static void ref_cube(Ref *f, char what)
{
    int p = f->m.turn;
    switch (what) {
    case 'd':
        OK(match_double(&f->m, &e_));
        OK(record_double(&f->r, p, f->m.cube * 2, &e_));
        break;
    case 'b':
        OK(match_beaver(&f->m, &e_));
        OK(record_beaver(&f->r, p, f->m.cube * 2, &e_));
        break;
    case 't':
        OK(match_take(&f->m, &e_));
        OK(record_take(&f->r, p, &e_));
        break;
    case 'p':
        OK(match_drop(&f->m, &e_));
        OK(record_drop(&f->r, p, &e_));
        break;
    }
    ref_over(f);
}

static void ref_resign(Ref *f, int level, bool accept)
{
    int p = f->m.turn;
    OK(match_resign(&f->m, level, &e_));
    OK(record_resign(&f->r, p, level, &e_));
    if (accept) {
        OK(match_accept(&f->m, &e_));
        OK(record_accept(&f->r, !p, &e_));
    } else {
        OK(match_reject(&f->m, &e_));
        OK(record_reject(&f->r, !p, &e_));
    }
    ref_over(f);
}

static void ref_new_game(Ref *f)
{
    OK(match_new_game(&f->m, &e_));
    OK(record_game_start(&f->r, &e_));
}

/* Two money games under gnubg's rules (Jacoby, beavers and raccoons): an
 * opening tie, a double beavered and taken, a resignation rejected and a
 * bigger one accepted after a roll (which the text leaves out), then a game
 * player 1 opens and loses by dropping the beaver of his double. The taken
 * beaver's take is left to the roll after it; the dropped one is written
 * "Doubles" (record_mat.c says why). */
static void play_session(Ref *f)
{
    Rules r;
    OK(rules_preset("gnubg", &r, &e_));
    OK(match_start(&f->m, &r, 0, &e_));
    OK(record_init(&f->r, "Alice", "Bob Smith", 0, &r, &e_));
    OK(record_game_start(&f->r, &e_));
    ref_open(f, 3, 3); /* a tie: rolled again */
    ref_open(f, 3, 1);
    ref_move(f, "8/5 6/5");
    ref_roll(f, 6, 4);
    ref_move(f, "24/14");
    ref_cube(f, 'd');
    ref_cube(f, 'b');
    ref_cube(f, 't');
    ref_roll(f, 6, 6);
    ref_move(f, "24/18(2) 13/7(2)");
    ref_resign(f, 1, false);
    ref_roll(f, 5, 2);
    ref_move(f, "13/8 13/11");
    ref_roll(f, 2, 1);
    ref_move(f, "18/16 7/6");
    ref_roll(f, 4, 4);
    ref_resign(f, 2, true);

    ref_new_game(f);
    ref_open(f, 2, 5);
    ref_move(f, "13/8 13/11");
    ref_roll(f, 4, 3);
    ref_move(f, "24/20 13/10");
    ref_cube(f, 'd');
    ref_cube(f, 'b');
    ref_cube(f, 'p');
}

static const char session_mat[] =
    "; [Player 1 \"Alice\"]\n"
    "; [Player 2 \"Bob Smith\"]\n"
    "; [Variation \"Backgammon\"]\n"
    "; [Jacoby \"On\"]\n"
    "; [Beaver \"On\"]\n"
    "; [Rules \"money, opening dice played, later games opening roll, backgammons 3, cube up "
    "to 4096, Jacoby, beavers and raccoons (3 in a row)\"]\n"
    "\n"
    " 0 point match\n"
    "\n"
    " Game 1\n"
    " Alice : 0                          Bob Smith : 0\n"
    "  1) 31: 8/5 6/5                    64: 24/14\n"
    "  2)  Doubles => 2                   Beavers => 4\n"
    "  3) 66: 24/18(2) 13/7(2)           52: 13/11 13/8\n"
    "  4) 21: 18/16 7/6\n"
    "     Wins 8 points\n"
    "\n"
    " Game 2\n"
    " Alice : 8                          Bob Smith : 0\n"
    "  1)                                52: 13/11 13/8\n"
    "  2) 43: 24/20 13/10                 Doubles => 2\n"
    "  3)  Doubles => 4                   Drops\n"
    "     Wins 2 points\n"
    "\n";

static void test_hand_checked_session(void **state)
{
    (void)state;
    Ref f;
    play_session(&f);
    assert_int_equal(record_games(&f.r), 2);
    assert_int_equal(f.r.score[0], 10);
    assert_int_equal(f.r.score[1], 0);
    Buf b;
    buf_init(&b);
    record_mat(&f.r, &b);
    assert_string_equal(b.data, session_mat);
    /* A date and the rules gnubg cannot read show in the header. */
    OK(record_set_date(&f.r, 2026, 12, 1, &e_));
    f.r.rules.star_mars = true;
    f.r.rules.backgammons = false;
    buf_clear(&b);
    record_mat_header(&f.r, &b);
    assert_non_null(strstr(b.data, "; [EventDate \"2026.12.01\"]\n"));
    assert_non_null(strstr(b.data, "; [Not in .mat \"backgammons count as gammons (gnubg scores "
                                   "them 3); star mars scores 4 (gnubg scores a backgammon)\"]\n"));
    buf_free(&b);
    record_free(&f.r);
}

/* --- random games ------------------------------------------------------ */

typedef struct Setup {
    const char *preset;
    int length, games;
} Setup;

static const Setup setups[] = {
    {"international", 5, 100}, {"international", 1, 100}, {"money", 0, 12},
    {"gnubg", 0, 12},          {"nocube", 0, 6},          {"cafe", 0, 8},
    {"cafe", 7, 100},
};

static void play_random(const Setup *s, unsigned seed, Match *m, Record *r)
{
    Rules rules;
    OK(rules_preset(s->preset, &rules, &e_));
    OK(randgame_play(m, r, &rules, s->length, s->games, seed, NULL, NULL, &e_));
}

/* Counts lines of text that start with `prefix`. */
static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, prefix, len))
            n++;
    return n;
}

static void test_random_games(void **state)
{
    (void)state;
    int total = 0, cube_words = 0;
    for (size_t s = 0; s < sizeof setups / sizeof setups[0]; s++) {
        for (unsigned seed = 1; seed <= 6; seed++) {
            Match m;
            Record r, again;
            play_random(&setups[s], seed, &m, &r);
            Buf text, text2;
            buf_init(&text);
            buf_init(&text2);
            record_mat(&r, &text);
            /* The same seed: the same bytes. */
            Match m2;
            play_random(&setups[s], seed, &m2, &again);
            record_mat(&again, &text2);
            assert_int_equal(text.len, text2.len);
            assert_memory_equal(text.data, text2.data, text.len);

            int games = record_games(&r);
            assert_int_equal(games, m.games);
            if (setups[s].length == 0)
                assert_int_equal(games, setups[s].games);
            else
                assert_true(match_over(&m));
            assert_int_equal(r.score[0], m.score[0]);
            assert_int_equal(r.score[1], m.score[1]);
            /* One game line and one result per game; nothing else starts a
             * game; no line near gnubg's 1,023-byte limit. */
            assert_int_equal(count_lines(text.data, " Game "), games);
            int wins = 0;
            for (const char *p = text.data; (p = strstr(p, "Wins ")); p++)
                wins++;
            assert_int_equal(wins, games);
            for (const char *p = text.data; *p;) {
                const char *nl = strchr(p, '\n');
                assert_non_null(nl);
                assert_true(nl - p < 200);
                p = nl + 1;
            }
            char match_line[32];
            snprintf(match_line, sizeof match_line, "\n %d point match\n", setups[s].length);
            assert_non_null(strstr(text.data, match_line));
            if (strstr(text.data, "Doubles") || strstr(text.data, "Beavers"))
                cube_words++;
            if (!strcmp(setups[s].preset, "nocube"))
                assert_non_null(strstr(text.data, "; [CubeLimit \"1\"]\n"));
            total += games;
            buf_free(&text);
            buf_free(&text2);
            record_free(&r);
            record_free(&again);
        }
    }
    print_message("random records: %d games\n", total);
    assert_true(total > 150);
    assert_true(cube_words > 10);
}

/* --- record files -------------------------------------------------------- */

static bool sync_game(void *ctx, const Record *r, Err *err)
{
    return record_file_sync(ctx, r, err);
}

static long file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

/* Written game by game, the file is the text of record_mat(); cut at any
 * byte, it reads back as the header and the games before the cut. */
static void test_record_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/shesh-record-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], cut[64];
    snprintf(path, sizeof path, "%s/r.mat.gz", dir);
    snprintf(cut, sizeof cut, "%s/cut.mat.gz", dir);

    Rules rules;
    OK(rules_preset("money", &rules, &e_));
    Record head;
    OK(record_init(&head, "Alice", "Bob", 0, &rules, &e_));
    RecordFile *f;
    OK((f = record_file_create(path, &head, &e_)) != NULL);
    REFUSED(record_file_create(path, &head, &e_), "File exists");
    record_free(&head);
    long header_end = file_size(path);
    Match m;
    Record r;
    OK(randgame_play(&m, &r, &rules, 0, 5, 99, sync_game, f, &e_));
    assert_int_equal(record_file_games(f), 5);
    OK(record_file_close(f, &e_));

    Buf whole, got, want;
    buf_init(&whole);
    buf_init(&got);
    buf_init(&want);
    record_mat(&r, &whole);
    Err err;
    assert_int_equal(record_file_read(path, &got, &err), GZ_END);
    assert_string_equal(got.data, whole.data);

    /* The member boundaries: the header, then one member per game. */
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    long size = file_size(path);
    unsigned char *bytes = malloc((size_t)size);
    assert_int_equal(fread(bytes, 1, (size_t)size, in), (size_t)size);
    fclose(in);
    int checked = 0;
    for (long n = 1; n < size; n += 1 + n / 64) {
        FILE *out = fopen(cut, "wb");
        assert_non_null(out);
        fwrite(bytes, 1, (size_t)n, out);
        fclose(out);
        buf_clear(&got);
        GzStatus st = record_file_read(cut, &got, &err);
        if (n < header_end) {
            assert_int_equal(st, GZ_CUT);
            assert_int_equal(got.len, 0);
            continue;
        }
        /* Which games are whole in n bytes: rewrite them and compare. */
        buf_clear(&want);
        record_mat_header(&r, &want);
        int games = count_lines(got.data, " Game ");
        for (int g = 0; g < games; g++)
            OK(record_mat_game(&r, g, &want, &e_));
        assert_string_equal(got.data, want.data);
        assert_true(st == GZ_CUT || st == GZ_END); /* END: cut between members */
        if (st == GZ_CUT)
            assert_non_null(strstr(err.text, "cut short"));
        checked++;
    }
    assert_true(checked > 50);
    free(bytes);

    /* Not gzip; gzip but not a record. */
    FILE *out = fopen(cut, "wb");
    fputs(" 0 point match\n", out);
    fclose(out);
    buf_clear(&got);
    assert_int_equal(record_file_read(cut, &got, &err), GZ_BAD);
    assert_non_null(strstr(err.text, "not gzip"));
    buf_free(&whole);
    buf_free(&got);
    buf_free(&want);
    record_free(&r);
    unlink(path);
    unlink(cut);
    rmdir(dir);
}

/* --- refusals ------------------------------------------------------------ */

static void test_refusals(void **state)
{
    (void)state;
    Rules rules = rules_default();
    Record r;
    REFUSED(record_init(&r, "", "Bob", 0, &rules, &e_), "cannot be empty");
    REFUSED(record_init(&r, "Al:ice", "Bob", 0, &rules, &e_), "':'");
    REFUSED(record_init(&r, "Alice", "My Game 2", 0, &rules, &e_), "\"Game \"");
    REFUSED(record_init(&r, "Alice, 1800", "Bob", 0, &rules, &e_), "rating");
    REFUSED(record_init(&r, " Alice", "Bob", 0, &rules, &e_), "blank");
    REFUSED(record_init(&r, "Alice\t", "Bob", 0, &rules, &e_), "control");
    REFUSED(record_init(&r, "A name much longer than gnubg keeps", "Bob", 0, &rules, &e_),
            "longer than 31");
    REFUSED(record_init(&r, "Bob", "Bob", 0, &rules, &e_), "both players");
    REFUSED(record_init(&r, "Alice", "Bob", -1, &rules, &e_), "match length -1");
    rules.max_cube = 3;
    REFUSED(record_init(&r, "Alice", "Bob", 5, &rules, &e_), "");
    rules = rules_default();
    record_free(&r);

    OK(record_init(&r, "Alice", "Bob", 3, &rules, &e_));
    REFUSED(record_roll(&r, 0, 3, 1, &e_), "no game is on");
    REFUSED(record_set_date(&r, 2026, 2, 30, &e_), "not a date");
    OK(record_game_start(&r, &e_));
    REFUSED(record_game_start(&r, &e_), "still on");
    REFUSED(record_opening_roll(&r, 0, 3, &e_), "die 0");
    OK(record_opening_roll(&r, 3, 1, &e_));
    REFUSED(record_roll(&r, 1, 3, 1, &e_), "player 0 has a roll to play");
    REFUSED(record_move_text(&r, 1, "8/5 6/5", &e_), "no roll to play");
    REFUSED(record_move_text(&r, 0, "", &e_), "pass");
    REFUSED(record_move_text(&r, 0, "8/x", &e_), "");
    REFUSED(record_double(&r, 0, 2, &e_), "roll to play");
    OK(record_move_text(&r, 0, "  8/5   6/5 ", &e_));
    REFUSED(record_opening_roll(&r, 4, 2, &e_), "after the game has started");
    REFUSED(record_take(&r, 1, &e_), "no double");
    REFUSED(record_double(&r, 2, 2, &e_), "player 2");
    REFUSED(record_double(&r, 1, 3, &e_), "power of two");
    OK(record_double(&r, 1, 2, &e_));
    REFUSED(record_take(&r, 1, &e_), "who doubled");
    REFUSED(record_resign(&r, 0, 1, &e_), "double waits");
    OK(record_take(&r, 0, &e_));
    REFUSED(record_double(&r, 0, 2, &e_), "above 2");
    REFUSED(record_resign(&r, 1, 4, &e_), "level 4");
    OK(record_resign(&r, 1, 1, &e_));
    REFUSED(record_accept(&r, 1, &e_), "who offered");
    REFUSED(record_game_end(&r, 0, 2, &e_), "resignation waits");
    OK(record_accept(&r, 0, &e_));
    REFUSED(record_game_end(&r, 0, 0, &e_), "scores 0 points");
    OK(record_game_end(&r, 0, 2, &e_));
    Buf b;
    buf_init(&b);
    OK(record_mat_game(&r, 0, &b, &e_));
    assert_non_null(strstr(b.data, "  1) 31: 8/5 6/5                     Doubles => 2\n"
                                   "  2)  Takes\n"
                                   "     Wins 2 points\n"));
    REFUSED(record_mat_game(&r, 1, &b, &e_), "no game 2");
    OK(record_game_start(&r, &e_));
    REFUSED(record_mat_game(&r, 1, &b, &e_), "not finished");
    OK(record_roll(&r, 1, 6, 5, &e_));
    OK(record_move_text(&r, 1, "24/13", &e_));
    OK(record_resign(&r, 1, 1, &e_));
    OK(record_accept(&r, 0, &e_));
    OK(record_game_end(&r, 0, 1, &e_));
    REFUSED(record_game_start(&r, &e_), "the match is over (3-0");
    buf_free(&b);
    record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_checked_session),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_record_files),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
