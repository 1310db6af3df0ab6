/* test_player.c - the player interface (src/play/player.h): the engine,
 * pubeval and random players choose legal moves, and the engine player the
 * engine's own; "no legal move" is an answer, not a failure; the checks
 * every kind shares; and a remote player against a fake server that
 * answers well, answers an illegal move, garbage, nothing, hangs up, or is
 * cancelled while it waits gets each reason as a value. A game of selfplay
 * ends with the reason of the player that failed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cubes.h"
#include "engine.h"
#include "movetext.h"
#include "player_engine.h"
#include "player_pubeval.h"
#include "player_random.h"
#include "player_remote.h"
#include "player_spec.h"
#include "posid.h"
#include "selfplay.h"
#include "tsv.h"

#define VECTORS "positions/gnubg-1.07/moves.tsv.gz"

static Engine *engine;
static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    Err err = {{0}};
    engine = engine_new("default", &err);
    if (!engine) {
        fprintf(stderr, "engine: %s\n", err.text);
        return -1;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/shesh-test-player-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    engine_free(engine);
    rmdir(tmpdir);
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Roller on the bar against a closed board: no roll can be played. */
static Position closed_out(void)
{
    Position p;
    memset(&p, 0, sizeof p);
    p.side[SIDE_ROLLER][POS_BAR] = 1;
    p.side[SIDE_ROLLER][5] = 14;
    for (int i = 0; i < 6; i++)
        p.side[SIDE_OPPONENT][i] = 2;
    p.side[SIDE_OPPONENT][10] = 3;
    return p;
}

static Player *make(int kind)
{
    Err err = {{0}};
    Player *pl = kind == 0   ? player_engine_new(engine, 0, NULL, &err)
                 : kind == 1 ? player_pubeval_new(engine, &err)
                             : player_random_new(engine, &err);
    if (!pl)
        fail_msg("player %d: %s", kind, err.text);
    return pl;
}

/* ---- local players ---- */

/* Rows of gnubg's vectors: each kind moves exactly when a move is legal,
 * and to one of the legal results; the engine player plays engine_move's
 * move at its depth, and chooses it too among a list given
 * (player_move_among). */
static void test_local_players_legal(void **state)
{
    (void)state;
    Player *pl[3] = {make(0), make(1), make(2)};
    Err err = {{0}};
    Player *deep = player_engine_new(engine, 1, NULL, &err);
    assert_non_null(deep);
    assert_string_equal(player_id(pl[1]), "pubeval");
    assert_string_equal(player_id(pl[2]), "random");
    assert_string_equal(player_id(pl[0]), engine_id(engine));
    MoveList *legal = malloc(sizeof *legal);
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(legal);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    CubeState cs = cubes_money();
    int rows = 0, passes = 0;
    while (tsv_next(r)) {
        if (r->lineno % 11)
            continue;
        Position p;
        assert_true(posid_decode(r->field[0], &p, NULL));
        int d1 = r->field[1][0] - '0', d2 = r->field[1][1] - '0';
        int n = movegen_generate(&p, d1, d2, legal);
        for (int k = 0; k < 4; k++) {
            Player *who = k < 3 ? pl[k] : deep;
            Move m;
            bool moved = true;
            assert_int_equal(player_move(who, &p, &cs, d1, d2, &m, &moved, &err), PLAYER_OK);
            assert_int_equal(moved, n > 0);
            if (!moved)
                continue;
            int i = 0;
            while (i < n && !pos_equal(&legal->moves[i].result, &m.result))
                i++;
            if (i == n)
                fail_msg("line %d: %s moved to no legal result", r->lineno, player_name(who));
            /* The choice among the caller's list is the same move (the
             * engine's own op; pubeval's through player_move). */
            if (who != pl[2]) {
                int at = -2;
                assert_int_equal(
                    player_move_among(who, &p, &cs, d1, d2, legal, &at, &err), PLAYER_OK);
                assert_int_equal(at, i);
            }
            if (who == pl[0] || who == deep) {
                Move e;
                assert_int_equal(
                    engine_move(engine, NULL, &p, d1, d2, &cs, who == deep ? 1 : 0, &e, NULL),
                    ENGINE_OK);
                assert_true(pos_equal(&e.result, &m.result));
            }
        }
        passes += n == 0;
        rows++;
    }
    assert_true(rows > 100);
    assert_true(passes > 0);
    tsv_close(r);
    free(r);
    free(legal);
    for (int k = 0; k < 3; k++)
        player_close(pl[k]);
    player_close(deep);
}

/* No legal move: PLAYER_OK and moved false, the move untouched. Dice that
 * cannot be: a bad question. A cancelled player answers nothing more. */
static void test_no_move_is_not_a_failure(void **state)
{
    (void)state;
    Position p = closed_out();
    CubeState cs = cubes_money();
    for (int kind = 0; kind < 3; kind++) {
        Player *pl = make(kind);
        Move m, before;
        memset(&m, 0x5a, sizeof m);
        before = m;
        bool moved = true;
        Err err = {{0}};
        assert_int_equal(player_move(pl, &p, &cs, 3, 5, &m, &moved, &err), PLAYER_OK);
        assert_false(moved);
        assert_memory_equal(&m, &before, sizeof m);
        Position start;
        pos_start(&start);
        assert_int_equal(player_move(pl, &start, &cs, 0, 5, &m, &moved, &err),
                         PLAYER_BAD_QUESTION);
        assert_non_null(strstr(err.text, "dice 0-5"));
        player_cancel(pl);
        assert_int_equal(player_move(pl, &start, &cs, 3, 1, &m, &moved, &err), PLAYER_CANCELLED);
        PlayerCube c;
        assert_int_equal(player_cube(pl, &start, &cs, &c, &err), PLAYER_CANCELLED);
        player_close(pl);
    }
    assert_string_equal(player_status_name(PLAYER_TIMEOUT), "timeout");
}

/* The engine player's cube answers are the engine's; it offers to resign
 * only a game whose end is certain, at what it would lose. */
static void test_engine_player_cube_and_resign(void **state)
{
    (void)state;
    Player *pl = make(0);
    Err err = {{0}};
    CubeState cs = cubes_money();
    Position p;
    pos_start(&p);
    PlayerCube c;
    assert_int_equal(player_cube(pl, &p, &cs, &c, &err), PLAYER_OK);
    assert_int_equal(c, PLAYER_ROLL);
    PlayerTake t;
    assert_int_equal(player_take(pl, &p, &cs, false, &t, &err), PLAYER_OK);
    assert_int_equal(t, PLAYER_TAKE);
    int level = -1;
    assert_int_equal(player_resign(pl, &p, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 0);
    /* All 15 on the six point against the other side's last checker on
     * his ace point: lost for certain (the bear-off database says so), but
     * a gammon only likely: no offer, since a single game would be less
     * than playing on costs. With one checker off, a sure single game. */
    Position lost;
    memset(&lost, 0, sizeof lost);
    lost.side[SIDE_ROLLER][5] = 15;
    lost.side[SIDE_OPPONENT][0] = 1;
    assert_int_equal(player_resign(pl, &lost, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 0);
    lost.side[SIDE_ROLLER][5] = 14;
    assert_int_equal(player_resign(pl, &lost, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 1);
    /* All 15 on his 13 point, or in the other side's home board, against
     * a last checker on the ace point: a sure gammon, a sure backgammon
     * (offered as the gammon it scores with backgammons off). */
    memset(&lost, 0, sizeof lost);
    lost.side[SIDE_ROLLER][12] = 15;
    lost.side[SIDE_OPPONENT][0] = 1;
    assert_int_equal(player_resign(pl, &lost, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 2);
    lost.side[SIDE_ROLLER][12] = 0;
    lost.side[SIDE_ROLLER][19] = 15;
    assert_int_equal(player_resign(pl, &lost, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 3);
    cs.backgammons_off = true;
    assert_int_equal(player_resign(pl, &lost, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 2);
    cs = cubes_money();
    bool yes = false;
    assert_int_equal(player_accept(pl, &p, &cs, 1, &yes, &err), PLAYER_OK);
    assert_true(yes); /* a single game at the start is worth taking */
    player_close(pl);
}

/* A kind made here, whose answers break the rules player.c checks. */
static PlayerTake bad_take;
static PlayerCube bad_cube_answer = PLAYER_ROLL;
static int bad_level;

static PlayerStatus bad_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                             Move *m, bool *moved, Err *err)
{
    (void)pl, (void)p, (void)cs, (void)d1, (void)d2, (void)m, (void)err;
    *moved = false;
    return PLAYER_OK;
}

static PlayerStatus bad_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                             Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *out = bad_cube_answer;
    return PLAYER_OK;
}

static PlayerStatus bad_take_op(Player *pl, const Position *p, const CubeState *cs,
                                bool beavered, PlayerTake *out, Err *err)
{
    (void)pl, (void)p, (void)cs, (void)beavered, (void)err;
    *out = bad_take;
    return PLAYER_OK;
}

static PlayerStatus bad_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                               bool *accept, Err *err)
{
    (void)pl, (void)p, (void)cs, (void)level, (void)err;
    *accept = false;
    return PLAYER_OK;
}

static PlayerStatus bad_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                               Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *level = bad_level;
    return PLAYER_OK;
}

static void bad_close(Player *pl)
{
    (void)pl;
}

static const PlayerOps bad_ops = {.move = bad_move, .cube = bad_cube, .take = bad_take_op,
                                  .accept = bad_accept, .resign = bad_resign,
                                  .close = bad_close};

static void test_shared_checks(void **state)
{
    (void)state;
    Player *pl = player_new(&bad_ops, NULL, "rule-breaker", "test", NULL);
    assert_non_null(pl);
    Position p;
    pos_start(&p);
    CubeState cs = cubes_money();
    cs.beavers = 0;
    Err err = {{0}};
    PlayerTake t = PLAYER_DROP;
    bad_take = PLAYER_BEAVER;
    /* A beaver the rules do not allow stands as a take, marked as such. */
    assert_int_equal(player_take(pl, &p, &cs, false, &t, &err), PLAYER_OK);
    assert_int_equal(t, PLAYER_TAKE_NOT_BEAVER);
    bad_take = PLAYER_TAKE_NOT_BEAVER; /* not a word a kind may answer */
    assert_int_equal(player_take(pl, &p, &cs, false, &t, &err), PLAYER_UNREADABLE);
    assert_non_null(strstr(err.text, "rule-breaker"));
    bad_take = PLAYER_BEAVER;
    cs.beavers = 1;
    assert_int_equal(player_take(pl, &p, &cs, false, &t, &err), PLAYER_OK);
    assert_int_equal(t, PLAYER_BEAVER);
    assert_int_equal(player_take(pl, &p, &cs, true, &t, &err), PLAYER_ILLEGAL);
    bad_take = PLAYER_RACCOON;
    assert_int_equal(player_take(pl, &p, &cs, false, &t, &err), PLAYER_ILLEGAL);
    assert_int_equal(player_take(pl, &p, &cs, true, &t, &err), PLAYER_OK);
    assert_int_equal(t, PLAYER_RACCOON);
    int level = -1;
    bad_level = 4;
    assert_int_equal(player_resign(pl, &p, &cs, &level, &err), PLAYER_ILLEGAL);
    assert_int_equal(level, -1);
    bad_level = 2;
    assert_int_equal(player_resign(pl, &p, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 2);
    /* A double only where the rules allow one, whatever kind answered. */
    PlayerCube c = PLAYER_ROLL;
    bad_cube_answer = PLAYER_DOUBLE;
    assert_int_equal(player_cube(pl, &p, &cs, &c, &err), PLAYER_OK);
    assert_int_equal(c, PLAYER_DOUBLE);
    CubeState owned = cs;
    owned.cube = 2, owned.owner = SIDE_OPPONENT;
    c = PLAYER_ROLL;
    assert_int_equal(player_cube(pl, &p, &owned, &c, &err), PLAYER_ILLEGAL);
    assert_int_equal(c, PLAYER_ROLL);
    assert_non_null(strstr(err.text, "rule-breaker: doubled where the rules allow no double"));
    CubeState dead = cubes_match(5, 3, 0);
    dead.cube = 2, dead.owner = SIDE_ROLLER; /* 3 + 2 reaches 5: a dead cube */
    assert_int_equal(player_cube(pl, &p, &dead, &c, &err), PLAYER_ILLEGAL);
    bad_cube_answer = PLAYER_ROLL;
    player_close(pl);
}

/* The player specs of the command line. */
static void test_specs(void **state)
{
    (void)state;
    PlayerSpec s;
    Err err = {{0}};
    assert_true(player_spec_parse("default:2", &s, &err));
    assert_int_equal(s.kind, PLAYER_KIND_ENGINE);
    assert_string_equal(s.engine, "default");
    assert_int_equal(s.plies, 2);
    assert_true(player_spec_parse("pubeval", &s, &err));
    assert_int_equal(s.kind, PLAYER_KIND_PUBEVAL);
    assert_string_equal(s.engine, "default");
    assert_true(player_spec_parse("random:1", &s, &err));
    assert_int_equal(s.kind, PLAYER_KIND_RANDOM);
    assert_true(player_spec_parse("remote:localhost:31000", &s, &err));
    assert_int_equal(s.kind, PLAYER_KIND_REMOTE);
    assert_string_equal(s.addr, "localhost:31000");
    assert_false(player_spec_parse("default:9", &s, &err));
    assert_false(player_spec_parse(":1", &s, &err));
    assert_false(player_spec_parse("remote:", &s, &err));
    /* ubgi: the rest is the shell's, '=' and ':' and quotes included. */
    assert_true(player_spec_parse("ubgi:./eng --ply=2 'a:b'", &s, &err));
    assert_int_equal(s.kind, PLAYER_KIND_UBGI);
    assert_string_equal(s.command, "./eng --ply=2 'a:b'");
    assert_false(s.named);
    assert_string_equal(s.engine, "");
    assert_true(player_spec_parse("e=ubgi:eng x=1", &s, &err));
    assert_string_equal(s.name, "e");
    assert_string_equal(s.command, "eng x=1");
    assert_false(player_spec_parse("ubgi:", &s, &err));
    assert_false(player_spec_parse("ubgi: \t", &s, &err));
}

/* A refusal quotes the spec on one line, whatever bytes it holds; an
 * address too long for the spec is refused, not cut into another one. */
static void test_spec_refusals(void **state)
{
    (void)state;
    PlayerSpec s;
    Err err = {{0}};
    assert_false(player_spec_parse("tc\r\nshesh", &s, &err));
    assert_null(strchr(err.text, '\n'));
    assert_null(strchr(err.text, '\r'));
    assert_non_null(strstr(err.text, "tc??shesh"));
    assert_false(player_spec_parse("a b=shesh", &s, &err));
    assert_non_null(strstr(err.text, "'a b=shesh'"));
    char spec[300];
    memset(spec, 'h', sizeof spec - 1);
    spec[sizeof spec - 1] = '\0';
    memcpy(spec, "tcp:", 4);
    memcpy(spec + sizeof spec - 7, ":10000", 6); /* 299 bytes: the longest spec */
    assert_false(player_spec_parse(spec, &s, &err));
    assert_non_null(strstr(err.text, "longer than 255 bytes"));
    spec[4 + 255 - 6] = '\0';
    memcpy(spec + 4 + 255 - 6, ":10000", 7); /* an address of 255 bytes */
    assert_true(player_spec_parse(spec, &s, &err));
    assert_int_equal(strlen(s.addr), 255);
    assert_string_equal(s.addr, spec + 4);
}

/* ---- a remote player against a fake server ---- */

#define SILENT "<silent>" /* read the question, never answer */
#define HANG_UP "<close>" /* read the question, close the connection */

typedef struct Fake {
    char path[96]; /* a Unix socket's path must fit sun_path */
    int lfd;
    const char *const *replies; /* one per question, in turn */
    int n;
    char got[8][1024]; /* the questions received */
    int asked;
    pthread_t thread;
} Fake;

/* One line from fd into line (without '\n'); false at end of input. */
static bool read_line(int fd, char *line, size_t size)
{
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        if (c == '\n')
            break;
        if (n + 1 < size)
            line[n++] = c;
    }
    line[n] = '\0';
    return true;
}

static void *fake_main(void *arg)
{
    Fake *f = arg;
    struct pollfd pfd = {f->lfd, POLLIN, 0};
    if (poll(&pfd, 1, 10000) != 1)
        return NULL;
    int fd = accept(f->lfd, NULL, NULL);
    if (fd < 0)
        return NULL;
    char line[1024];
    for (int i = 0; i < f->n && read_line(fd, line, sizeof line); i++) {
        snprintf(f->got[f->asked < 8 ? f->asked : 7], sizeof f->got[0], "%s", line);
        f->asked++;
        if (!strcmp(f->replies[i], HANG_UP))
            break;
        if (!strcmp(f->replies[i], SILENT)) {
            while (read_line(fd, line, sizeof line)) /* until the client goes */
                ;
            break;
        }
        char out[1100];
        int len = snprintf(out, sizeof out, "%s\n", f->replies[i]);
        if (write(fd, out, (size_t)len) != len)
            break;
    }
    close(fd);
    return NULL;
}

static void fake_up(Fake *f, const char *const *replies, int n)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s/fake.sock", tmpdir);
    unlink(f->path);
    f->replies = replies;
    f->n = n;
    f->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(f->lfd >= 0);
    struct sockaddr_un sun;
    memset(&sun, 0, sizeof sun);
    sun.sun_family = AF_UNIX;
    snprintf(sun.sun_path, sizeof sun.sun_path, "%s", f->path);
    assert_int_equal(bind(f->lfd, (struct sockaddr *)&sun, sizeof sun), 0);
    assert_int_equal(listen(f->lfd, 4), 0);
    assert_int_equal(pthread_create(&f->thread, NULL, fake_main, f), 0);
}

static void fake_down(Fake *f)
{
    pthread_join(f->thread, NULL);
    close(f->lfd);
    unlink(f->path);
}

static Player *remote(Fake *f, double reply_s)
{
    Err err = {{0}};
    Player *pl = player_remote_new(f->path, reply_s, &err);
    if (!pl)
        fail_msg("remote: %s", err.text);
    return pl;
}

/* The opening position, 3-1, asked of a server that replies `reply`. */
static PlayerStatus ask_opening(const char *reply, double reply_s, Move *m, bool *moved,
                                Err *err, char *question, size_t qsize)
{
    Fake f;
    const char *replies[1] = {reply};
    fake_up(&f, replies, 1);
    Player *pl = remote(&f, reply_s);
    Position p;
    pos_start(&p);
    CubeState cs = cubes_money();
    PlayerStatus st = player_move(pl, &p, &cs, 3, 1, m, moved, err);
    player_close(pl);
    fake_down(&f);
    if (question)
        snprintf(question, qsize, "%s", f.got[0]);
    return st;
}

static void test_remote_answers(void **state)
{
    (void)state;
    Move m;
    bool moved = false;
    Err err = {{0}};
    char question[1024];
    assert_int_equal(ask_opening("8/5 6/5", 5, &m, &moved, &err, question, sizeof question),
                     PLAYER_OK);
    assert_true(moved);
    Position p, want;
    pos_start(&p);
    want = p;
    want.side[SIDE_ROLLER][7]--, want.side[SIDE_ROLLER][4]++;
    want.side[SIDE_ROLLER][5]--, want.side[SIDE_ROLLER][4]++;
    assert_true(pos_equal(&m.result, &want));
    /* The question is the board line gnubg writes, with the options. */
    assert_true(!strncmp(question, "board:shesh:remote:", 19));
    assert_non_null(strstr(question, " jacobyrule off"));

    /* The reasons, each a value. */
    assert_int_equal(ask_opening("24/18 13/12", 5, &m, &moved, &err, NULL, 0), PLAYER_ILLEGAL);
    assert_non_null(strstr(err.text, "24/18 13/12"));
    assert_int_equal(ask_opening("hello there", 5, &m, &moved, &err, NULL, 0),
                     PLAYER_UNREADABLE);
    assert_int_equal(ask_opening("", 5, &m, &moved, &err, NULL, 0), PLAYER_ILLEGAL);
    double t0 = now_s();
    assert_int_equal(ask_opening(SILENT, 0.3, &m, &moved, &err, NULL, 0), PLAYER_TIMEOUT);
    assert_true(now_s() - t0 < 5);
    assert_non_null(strstr(err.text, "no reply within"));
    assert_int_equal(ask_opening(HANG_UP, 5, &m, &moved, &err, NULL, 0), PLAYER_DISCONNECTED);
    char big[900];
    memset(big, '1', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(ask_opening(big, 5, &m, &moved, &err, NULL, 0), PLAYER_UNREADABLE);

    /* Nothing to play: the empty reply is the one right answer. */
    Fake f;
    const char *none[1] = {""};
    fake_up(&f, none, 1);
    Player *pl = remote(&f, 5);
    Position closed = closed_out();
    CubeState cs = cubes_money();
    moved = true;
    assert_int_equal(player_move(pl, &closed, &cs, 3, 5, &m, &moved, &err), PLAYER_OK);
    assert_false(moved);
    player_close(pl);
    fake_down(&f);

    /* No server at all. */
    assert_null(player_remote_new(f.path, 1, &err));
}

static void test_remote_cube_questions(void **state)
{
    (void)state;
    static const char *const replies[] = {"double", "beaver", "Accept", "maybe", "roll"};
    Fake f;
    fake_up(&f, replies, 5);
    Player *pl = remote(&f, 5);
    Position p;
    pos_start(&p);
    CubeState cs = cubes_money();
    cs.beavers = 1;
    Err err = {{0}};
    PlayerCube c = PLAYER_ROLL;
    assert_int_equal(player_cube(pl, &p, &cs, &c, &err), PLAYER_OK);
    assert_int_equal(c, PLAYER_DOUBLE);
    PlayerTake t = PLAYER_DROP;
    assert_int_equal(player_take(pl, &p, &cs, false, &t, &err), PLAYER_OK);
    assert_int_equal(t, PLAYER_BEAVER);
    bool yes = false;
    assert_int_equal(player_accept(pl, &p, &cs, 2, &yes, &err), PLAYER_OK);
    assert_true(yes);
    assert_int_equal(player_cube(pl, &p, &cs, &c, &err), PLAYER_UNREADABLE);
    assert_non_null(strstr(err.text, "maybe"));
    /* A double without access to the cube is illegal. */
    cs.owner = SIDE_OPPONENT;
    cs.cube = 2;
    assert_int_equal(player_cube(pl, &p, &cs, &c, &err), PLAYER_OK); /* "roll" */
    assert_int_equal(c, PLAYER_ROLL);
    int level = -1;
    assert_int_equal(player_resign(pl, &p, &cs, &level, &err), PLAYER_OK);
    assert_int_equal(level, 0); /* the protocol cannot ask it to */
    player_close(pl);
    fake_down(&f);
    assert_non_null(strstr(f.got[1], "beavers on"));
    assert_non_null(strstr(f.got[2], "resignation 2"));
}

typedef struct Canceller {
    Player *pl;
    long ms;
} Canceller;

static void *cancel_later(void *arg)
{
    Canceller *c = arg;
    struct timespec ts = {0, c->ms * 1000000L};
    nanosleep(&ts, NULL);
    player_cancel(c->pl);
    return NULL;
}

/* player_cancel from another thread ends the wait at once. */
static void test_remote_cancel(void **state)
{
    (void)state;
    Fake f;
    const char *replies[1] = {SILENT};
    fake_up(&f, replies, 1);
    Player *pl = remote(&f, 30);
    Canceller c = {pl, 100};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, cancel_later, &c), 0);
    Position p;
    pos_start(&p);
    CubeState cs = cubes_money();
    Move m;
    bool moved;
    Err err = {{0}};
    double t0 = now_s();
    assert_int_equal(player_move(pl, &p, &cs, 3, 1, &m, &moved, &err), PLAYER_CANCELLED);
    assert_true(now_s() - t0 < 10);
    pthread_join(t, NULL);
    player_close(pl);
    fake_down(&f);
}

/* A game whose remote player hangs up ends with that reason. */
static void test_selfplay_failure(void **state)
{
    (void)state;
    static const char *const replies[] = {HANG_UP};
    Fake f;
    fake_up(&f, replies, 1);
    Player *pls[2] = {make(0), remote(&f, 5)};
    SelfplayResult res;
    selfplay_game(pls, 7, 1, NULL, NULL, &res);
    assert_true(res.failed);
    assert_int_equal(res.failed_seat, 1);
    assert_int_equal(res.status, PLAYER_DISCONNECTED);
    assert_non_null(strstr(res.err.text, "remote:"));
    player_close(pls[0]);
    player_close(pls[1]);
    fake_down(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_players_legal),
        cmocka_unit_test(test_no_move_is_not_a_failure),
        cmocka_unit_test(test_engine_player_cube_and_resign),
        cmocka_unit_test(test_shared_checks),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_spec_refusals),
        cmocka_unit_test(test_remote_answers),
        cmocka_unit_test(test_remote_cube_questions),
        cmocka_unit_test(test_remote_cancel),
        cmocka_unit_test(test_selfplay_failure),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
