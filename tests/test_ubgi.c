/* test_ubgi.c - the UBGI layer, always through ubgi_handle(): the
 * conformance transcripts of proto/ubgi/ (*.txt), lines at and over the
 * length limit, a session's engine.ply reaching its decisions, and every
 * bestmove legal on random positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "movegen.h"
#include "movetext.h"
#include "position.h"
#include "posid.h"
#include "randgame.h"
#include "transcript.h"
#include "ubgi.h"

static Engine *engine;

static int setup(void **state)
{
    (void)state;
    Err err;
    engine = engine_new("default", &err);
    if (!engine)
        fprintf(stderr, "engine: %s\n", err.text);
    return engine ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    engine_free(engine);
    return 0;
}

static UbgiSession *session(int ply)
{
    Err err;
    UbgiSession *s = ubgi_session_new(engine, ply, &err);
    if (!s)
        fail_msg("ubgi_session_new: %s", err.text);
    return s;
}

/* The answer to one line, in a Buf the caller frees. */
static Buf ask(UbgiSession *s, const char *line)
{
    Buf b;
    buf_init(&b);
    assert_int_equal(ubgi_handle(s, line, strlen(line), &b), UBGI_CONTINUE);
    return b;
}

static void *open_session(void *arg)
{
    (void)arg;
    return session(1);
}

static bool ask_session(void *ctx, const char *line, size_t len, Buf *reply)
{
    return ubgi_handle(ctx, line, len, reply) == UBGI_CONTINUE;
}

static void close_session(void *ctx)
{
    ubgi_session_free(ctx);
}

static void test_transcripts(void **state)
{
    (void)state;
    const TranscriptProtocol p = {open_session, ask_session, close_session, NULL};
    Err err;
    int files;
    int total = transcript_replay_dir("proto/ubgi", &p, &files, &err);
    if (total < 0)
        fail_msg("%s", err.text);
    assert_true(files >= 4);
    assert_true(total >= 100);
}

static void test_line_limit(void **state)
{
    (void)state;
    UbgiSession *s = session(1);
    static char line[UBGI_LINE_MAX + 2];
    /* isready padded with blanks to exactly the limit is still read. */
    memset(line, ' ', UBGI_LINE_MAX);
    memcpy(line, "isready", 7);
    Buf b;
    buf_init(&b);
    assert_int_equal(ubgi_handle(s, line, UBGI_LINE_MAX, &b), UBGI_CONTINUE);
    assert_string_equal(b.data, "readyok\n");
    buf_clear(&b);
    assert_int_equal(ubgi_handle(s, line, UBGI_LINE_MAX + 1, &b), UBGI_CONTINUE);
    assert_string_equal(b.data, "error bad_command the line is 4097 bytes long; the limit is 4096\n");
    buf_free(&b);
    /* quit with anything after it still quits; nothing is answered. */
    buf_init(&b);
    assert_int_equal(ubgi_handle(s, "quit", 4, &b), UBGI_QUIT);
    assert_int_equal(b.len, 0);
    buf_free(&b);
    ubgi_session_free(s);
    Err err;
    assert_null(ubgi_session_new(engine, 0, &err));
    assert_null(ubgi_session_new(engine, 6, &err));
}

/* The move a bestmove line names, found among the legal ones by gnubg's
 * parser, which reads UBGI's bar and off. */
static int legal_index(const Position *p, int d1, int d2, const char *answer, MoveList *legal)
{
    movegen_generate(p, d1, d2, legal);
    const char *text = answer + strlen("bestmove ");
    char move[128];
    snprintf(move, sizeof move, "%.*s", (int)strcspn(text, "\n"), text);
    if (!strcmp(move, "pass"))
        return legal->count == 0 ? MOVETEXT_PASS : -1;
    Err err;
    return movetext_match(p, legal, move, &err);
}

/* A position of a random game: up to 60 random legal moves from the start,
 * stopping before anyone has borne off all. The next roll comes back in
 * d1, d2. */
static void random_position(unsigned *seed, Position *p, int *d1, int *d2, MoveList *l)
{
    pos_start(p);
    int turns = (int)(randgame_next(seed) % 60);
    for (int t = 0;; t++) {
        *d1 = (int)(randgame_next(seed) % 6) + 1;
        *d2 = (int)(randgame_next(seed) % 6) + 1;
        if (t == turns)
            return;
        int n = movegen_generate(p, *d1, *d2, l);
        Position next = *p;
        if (n > 0)
            next = l->moves[randgame_next(seed) % (unsigned)n].result;
        if (pos_checkers(&next, SIDE_ROLLER) == 0)
            return;
        *p = next;
        pos_swap(p);
    }
}

/* On positions of random games, at two depths: every bestmove one of the
 * legal moves, bestmoveid its result, a pass only without one. */
static void test_moves_legal(void **state)
{
    (void)state;
    static MoveList legal;
    unsigned seed = 12345;
    int checked = 0, passes = 0;
    for (int ply = 1; ply <= 2; ply++) {
        UbgiSession *s = session(ply);
        for (int i = 0; i < (ply == 1 ? 300 : 40); i++) {
            Position p;
            int d1, d2;
            random_position(&seed, &p, &d1, &d2, &legal);
            char id[POSID_LEN + 1], line[64];
            posid_encode(&p, id);
            snprintf(line, sizeof line, "position gnubgid %s", id);
            Buf b = ask(s, line);
            assert_int_equal(b.len, 0);
            buf_free(&b);
            snprintf(line, sizeof line, "dice %d %d", d1, d2);
            b = ask(s, line);
            buf_free(&b);
            b = ask(s, "go");
            assert_true(!strncmp(b.data, "bestmove ", 9));
            int k = legal_index(&p, d1, d2, b.data, &legal);
            if (k == -1)
                fail_msg("%s %d%d: '%s' is not a legal move", id, d1, d2, b.data);
            buf_free(&b);
            b = ask(s, "go role chequer");
            char rid[POSID_LEN + 1];
            posid_encode(k == MOVETEXT_PASS ? &p : &legal.moves[k].result, rid);
            char want[64];
            snprintf(want, sizeof want, "bestmoveid %s\n", rid);
            assert_string_equal(b.data, want);
            buf_free(&b);
            checked++;
            passes += k == MOVETEXT_PASS;
        }
        ubgi_session_free(s);
    }
    printf("%d moves legal, %d of them passes\n", checked, passes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transcripts),
        cmocka_unit_test(test_line_limit),
        cmocka_unit_test(test_moves_legal),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
