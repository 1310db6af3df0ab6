/* proto_board.c - board lines and `evaluation fibsboard` (see proto_board.h).
 *
 * fibsboard.c reads the board the way gnubg's server does and checks every
 * field. On top of that this file knows who is asking: gnubg as a client
 * writes names and scores in its own order and, after it beavers, a take
 * request whose turn field names the answering side (protocol notes 4.2), so
 * a session in the default "gnubg" convention puts those right before the
 * player (the engine, through player.h) decides. Every answer is checked
 * before it is written: a move must
 * be one of the legal moves and read back as that move, a double needs cube
 * access, a beaver must be allowed. */
#include "proto_board.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fibsboard.h"
#include "matchid.h"
#include "movegen.h"
#include "movetext.h"
#include "posid.h"
#include "proto_debug.h"
#include "proto_session.h"
#include "proto_worker.h"
#include "rules.h"

/* The board reader's patterns, compiled once and then shared read-only. */
static pthread_once_t parser_once = PTHREAD_ONCE_INIT;
static FibsParser *parser;
static Err parser_err;

static void make_parser(void)
{
    parser = fibs_parser_new(0, &parser_err);
}

static const FibsParser *get_parser(Err *err)
{
    pthread_once(&parser_once, make_parser);
    if (!parser)
        err_set(err, "internal error: %s", parser_err.text);
    return parser;
}

/* What `evaluation fibsboard` may add to the session options. */
typedef struct EvalRequest {
    EvalOptions eval; /* plies, cubeful */
    bool prune;       /* read and ignored: the engine has no pruning nets */
    double noise;     /* read, range-checked and ignored: answers are exact */
    bool deterministic;
} EvalRequest;

/* Everything one board request says, read and interpreted. */
typedef struct BoardRequest {
    FibsBoard board;
    FibsRaw written;  /* the fields as sent (board.raw may be corrected) */
    bool beaver_case; /* a take request whose turn field names us */
    bool reordered;   /* names and scores taken in gnubg's client order */
} BoardRequest;

/* ---- reading ------------------------------------------------------------- */

static bool is_one_of(const ProtoTok *k, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (proto_lex_is(k, words[i]))
            return true;
    return false;
}

static bool is_eval_option(const ProtoTok *k)
{
    static const char *const words[] = {"plies", "cube", "cubeful", "cubeless",
                                        "prune", "noise", "deterministic"};
    return is_one_of(k, words, sizeof words / sizeof words[0]);
}

static bool is_session_option(const ProtoTok *k)
{
    static const char *const words[] = {"jacobyrule", "crawfordrule", "beavers", "resignation"};
    return is_one_of(k, words, sizeof words / sizeof words[0]);
}

/* An optional on/off after a bare word (prune, deterministic): consumes it
 * when present. */
static int optional_bool(const ProtoTok *v, bool *out)
{
    if (v && proto_lex_bool(v, out))
        return 2;
    *out = true;
    return 1;
}

/* One evaluation option at t->tok[i]; returns how many tokens it used, or 0
 * with err filled. */
static int eval_option(const ProtoConfig *cfg, const ProtoTokens *t, int i, EvalRequest *ev,
                       Err *err)
{
    const ProtoTok *k = &t->tok[i];
    const ProtoTok *v = i + 1 < t->count ? &t->tok[i + 1] : NULL;
    if (proto_lex_is(k, "cubeful") || proto_lex_is(k, "cubeless")) {
        ev->eval.cubeful = proto_lex_is(k, "cubeful");
        return 1;
    }
    if (proto_lex_is(k, "prune"))
        return optional_bool(v, &ev->prune);
    if (proto_lex_is(k, "deterministic"))
        return optional_bool(v, &ev->deterministic);
    if (proto_lex_is(k, "cube")) {
        if (!v || !proto_lex_bool(v, &ev->eval.cubeful))
            return err_set(err, "cube needs on or off"), 0;
        return 2;
    }
    if (proto_lex_is(k, "plies")) {
        if (!v)
            return err_set(err, "plies needs a number (0 to %d)", cfg->max_plies), 0;
        /* Any run of digits is a depth, however long: the answer names the
         * cap rather than a range of the parser. */
        size_t digits = 0;
        while (digits < v->len && v->text[digits] >= '0' && v->text[digits] <= '9')
            digits++;
        long n = LONG_MAX;
        if (!(digits == v->len && digits > 9) &&
            !proto_lex_int(v, "plies", -1000000000L, 1000000000L, &n, err))
            return 0;
        if (n < 0)
            return err_set(err, "plies must be 0 or more, not %ld", n), 0;
        if (n > cfg->max_plies)
            return err_set(err, "plies %.*s is more than this server allows (at most %d)",
                           (int)(v->len > 24 ? 24 : v->len), v->text, cfg->max_plies),
                   0;
        ev->eval.plies = (int)n;
        return 2;
    }
    /* noise: a decimal, or gnubg's integer form N meaning N/10000. */
    if (!v)
        return err_set(err, "noise needs a number"), 0;
    bool integer = !memchr(v->text, '.', v->len) && !memchr(v->text, 'e', v->len) &&
                   !memchr(v->text, 'E', v->len);
    if (!proto_lex_double(v, "noise", 0, integer ? 10000 : 1, &ev->noise, err))
        return 0;
    if (integer)
        ev->noise /= 10000;
    return 2;
}

/* The board token and the options after it. ev = NULL for a board line,
 * which takes only the session options. */
static bool read_request(const ProtoConfig *cfg, const ProtoSession *s, const ProtoTokens *t,
                         int first, EvalRequest *ev, BoardRequest *req, Err *err)
{
    const FibsParser *fp = get_parser(err);
    if (!fp)
        return false;
    const ProtoTok *bt = &t->tok[first];
    size_t end = 0;
    if (!fibs_lex(fp, bt->text, bt->len, &req->written, &end, err))
        return false;
    if (end != bt->len) {
        char q[32];
        proto_lex_quote(bt->text + end, bt->len - end, q, sizeof q);
        return err_set(err, "unexpected '%s' after the 50th number of the board", q);
    }

    FibsOptions opt;
    fibs_options_default(&opt);
    for (int i = first + 1; i < t->count;) {
        const ProtoTok *k = &t->tok[i];
        const ProtoTok *v = i + 1 < t->count ? &t->tok[i + 1] : NULL;
        char q[32];
        proto_lex_quote(k->text, k->len, q, sizeof q);
        if (k->kind != TOK_WORD)
            return err_set(err, "expected an option after the board, not %s%s%s",
                           k->kind == TOK_STRING ? "" : "'", q,
                           k->kind == TOK_STRING ? "" : "'");
        if (is_eval_option(k)) {
            if (!ev)
                return err_set(err, "'%s' is an evaluation option; a board line takes only "
                                    "jacobyrule, crawfordrule, beavers and resignation",
                               q);
            int used = eval_option(cfg, t, i, ev, err);
            if (!used)
                return false;
            i += used;
            continue;
        }
        if (!is_session_option(k))
            return err_set(err, "unknown option '%s' (options: jacobyrule, crawfordrule, "
                                "beavers, resignation%s)",
                           q, ev ? ", plies, cube, cubeful, cubeless, prune, noise, "
                                   "deterministic"
                                 : "");
        if (!v)
            return err_set(err, "option '%s' needs a value", q);
        if (fibs_option_set(&opt, k->text, k->len, v->text, v->len, err) != FIBS_OPTION_SET)
            return false;
        i += 2;
    }

    FibsRaw raw = req->written;
    if (!fibs_interpret(fp, &raw, &opt, &req->board, err))
        return false;
    req->beaver_case = false;
    req->reordered = false;
    if (ev || s->scores != SCORES_GNUBG)
        return true;

    /* gnubg beavered our double: the take request's turn field names us (we
     * are still on roll) although it is we who must answer. Read it as the
     * ordinary take request it stands for: the other side on roll. */
    FibsBoard *b = &req->board;
    if (b->doubled && s->colour != 0 && raw.field[FIBS_F_TURN] == s->colour) {
        raw.field[FIBS_F_TURN] = -raw.field[FIBS_F_TURN];
        if (!fibs_interpret(fp, &raw, &opt, b, err))
            return false;
        req->beaver_case = true;
    }

    /* gnubg's client writes player 0's name and score first whenever the
     * side that must act is on roll, player 1's (the colour field's side)
     * first in an ordinary take request; fibsboard applied the FIBS rule
     * (the colour field's side first). */
    bool acting_on_roll = !b->doubled || req->beaver_case;
    bool x_is_player1 = b->x_colour == raw.field[FIBS_F_COLOUR];
    bool x_second = x_is_player1 == acting_on_roll;
    if (x_second != b->swapped) {
        char name[FIBS_NAME_MAX + 1];
        memcpy(name, b->name[FIBS_X], sizeof name);
        memcpy(b->name[FIBS_X], b->name[FIBS_O], sizeof name);
        memcpy(b->name[FIBS_O], name, sizeof name);
        int score = b->score[FIBS_X];
        b->score[FIBS_X] = b->score[FIBS_O];
        b->score[FIBS_O] = score;
        req->reordered = true;
    }
    return true;
}

/* ---- cube ------------------------------------------------------------------ */

static int max_cube(void)
{
    return rules_default().max_cube;
}

/* The cube and score around the board's decision, with side 1 = X when
 * x_on_roll, else with side 1 = O (the doubler, for engine_take). */
static void cube_state(const FibsBoard *b, bool x_on_roll, CubeState *cs)
{
    int x = x_on_roll ? SIDE_ROLLER : SIDE_OPPONENT;
    memset(cs, 0, sizeof *cs);
    cs->cube_in_use = true;
    cs->cube = b->cube;
    cs->owner = b->cube_owner < 0 ? -1 : b->cube_owner == FIBS_X ? x : 1 - x;
    cs->max_cube = max_cube();
    cs->match_length = b->match_length;
    cs->score[x] = b->score[FIBS_X];
    cs->score[1 - x] = b->score[FIBS_O];
    cs->crawford = b->crawford;
    cs->post_crawford = b->post_crawford;
    bool money = b->match_length == 0;
    cs->jacoby = money && b->options.jacoby;
    cs->beavers = money && b->options.beavers ? 1 : 0;
    /* A double while X owns the cube is gnubg's raccoon of X's beaver (it
     * shows a pending chain as owned by the first taker). A board line
     * says nothing of the Holland rule or of turns. */
    cs->animals = b->doubled && b->cube_owner == FIBS_X ? 2 : 0;
}

/* In money play with beavers, may a beaver of the next double (by either
 * side) take the cube to the limit? gnubg 1.07 loses the whole game record
 * when an external player takes a beaver that brings the cube to 64 or more
 * (the next game starts as if this one never happened), so such cubes are
 * not turned: a double only while 4 x cube < limit. */
static bool beaver_reaches_limit(const FibsBoard *b)
{
    return b->match_length == 0 && b->options.beavers && b->cube * 4 >= max_cube();
}

/* Why X (on roll) may not double, or NULL when it may: the rules'
 * reasons (cube_state.h; a board line always has a cube and never the
 * Holland rule), with gnubg's beaver limit before the dead cube. */
static const char *no_cube_access(const FibsBoard *b)
{
    CubeState cs;
    cube_state(b, true, &cs);
    unsigned bars = cubestate_double_bars(&cs, SIDE_ROLLER);
    if (bars & CUBE_BAR_OWNER)
        return "the opponent owns the cube";
    if (bars & CUBE_BAR_CRAWFORD)
        return "this is the Crawford game";
    if (bars & CUBE_BAR_MAX)
        return "the cube is at its limit";
    if (beaver_reaches_limit(b))
        return "a beaver would take the cube to its limit";
    if (bars & CUBE_BAR_DEAD)
        return "the cube is dead: winning at this value already wins the match";
    return NULL;
}

/* Why X may not beaver the double now pending, or NULL: the rules' reasons
 * on the board's cube state, and gnubg's beaver limit. The session allows
 * one animal in a row: gnubg stops a game whose beaver limit is passed,
 * and the board does not say where it is. */
static const char *no_beaver(const BoardRequest *req)
{
    const FibsBoard *b = &req->board;
    CubeState cs;
    cube_state(b, false, &cs);
    if (req->beaver_case)
        cs.animals = 1; /* at least gnubg's beaver of our double */
    unsigned bars = cubestate_beaver_bars(&cs);
    if (bars & CUBE_BAR_MATCH)
        return "no beavers in match play";
    if (bars & CUBE_BAR_NO_BEAVERS)
        return "beavers are off";
    if (bars & CUBE_BAR_ANIMALS)
        return req->beaver_case ? "the board does not say how many beavers were played"
                                : "this double answers our beaver; we do not beaver again";
    if ((bars & CUBE_BAR_MAX) || beaver_reaches_limit(b))
        return "the cube would reach its limit";
    return NULL;
}

/* ---- debug ----------------------------------------------------------------- */

static const char *on_off(bool b)
{
    return b ? "on" : "off";
}

static void debug_block(Buf *out, const BoardRequest *req, const EvalRequest *ev,
                        const ProtoSession *s)
{
    const FibsBoard *b = &req->board;
    const FibsOptions *o = &b->options;
    const FibsRaw *w = &req->written;
    char line[512];

    if (ev)
        proto_debug_line(out,
                         "options: jacobyrule %s, crawfordrule %s, beavers %s, resignation %d, "
                         "plies %d, %s, prune %s (ignored), noise %g (ignored), "
                         "deterministic %s",
                         on_off(o->jacoby), on_off(o->crawford_rule), on_off(o->beavers),
                         o->resignation, ev->eval.plies, ev->eval.cubeful ? "cubeful" : "cubeless",
                         on_off(ev->prune), ev->noise, on_off(ev->deterministic));
    else
        proto_debug_line(out, "options: jacobyrule %s, crawfordrule %s, beavers %s, resignation %d",
                         on_off(o->jacoby), on_off(o->crawford_rule), on_off(o->beavers),
                         o->resignation);
    size_t n = (size_t)snprintf(line, sizeof line, "fields: (\"%s\", \"%s\"", w->name[0], w->name[1]);
    for (int f = FIBS_F_MATCH_LENGTH; f <= FIBS_FIELDS && n < sizeof line; f++)
        n += (size_t)snprintf(line + n, sizeof line - n, ", %d", w->field[f]);
    proto_debug_line(out, "%s)", line);
    proto_debug_line(out, "%s", "");

    char posid[POSID_LEN + 1], mid[MATCHID_LEN + 1];
    Err why;
    if (!fibs_to_ids(b, posid, mid, &why))
        snprintf(mid, sizeof mid, "-");
    proto_debug_line(out, " Position ID: %s", posid);
    proto_debug_line(out, " Match ID   : %s", mid);
    proto_debug_board(out, &b->pos);
    proto_debug_line(out, "%s", "");
    proto_debug_line(out, "X is %s, O is %s", b->name[FIBS_X], b->name[FIBS_O]);
    if (b->match_length)
        proto_debug_line(out, "Match Play %s Crawford Rule",
                         o->crawford_rule ? "with" : "without");
    else
        proto_debug_line(out, "Money Session %s Jacoby Rule, %s Beavers",
                         o->jacoby ? "with" : "without", o->beavers ? "with" : "without");
    if (b->match_length)
        snprintf(line, sizeof line, "%d-%d/%d%s", b->score[FIBS_X], b->score[FIBS_O],
                 b->match_length, b->crawford ? "*" : "");
    else
        snprintf(line, sizeof line, "%d-%d", b->score[FIBS_X], b->score[FIBS_O]);
    proto_debug_line(out, "Score: %s, Roll: %d%d", line, b->dice[0], b->dice[1]);
    proto_debug_line(out, "CubeOwner: %d, Cube: %d, Turn: X, Doubled: %d, Resignation: %d",
                     b->cube_owner, b->cube, b->doubled, o->resignation);
    if (!ev) {
        proto_debug_line(out, "Boards as %s writes them%s%s",
                         s->scores == SCORES_GNUBG ? "gnubg" : "FIBS",
                         req->reordered ? "; names and scores taken in gnubg's client order" : "",
                         req->beaver_case ? "; the turn field names us: we answer a beaver" : "");
        const char *why_not;
        switch (b->decision) {
        case FIBS_DECIDE_TAKE:
            why_not = no_beaver(req);
            proto_debug_line(out, "Decision: X answers a double: take or drop%s%s%s",
                             why_not ? " (no beaver: " : " or beaver", why_not ? why_not : "",
                             why_not ? ")" : "");
            break;
        case FIBS_DECIDE_RESIGNATION:
            proto_debug_line(out, "Decision: O offers to resign %d times the cube: accept or "
                                  "reject",
                             o->resignation);
            break;
        case FIBS_DECIDE_MOVE:
            proto_debug_line(out, "Decision: X moves %d-%d", b->dice[0], b->dice[1]);
            break;
        case FIBS_DECIDE_CUBE:
            why_not = no_cube_access(b);
            proto_debug_line(out, "Decision: X is about to roll: %s%s",
                             why_not ? "roll, since " : "double or roll", why_not ? why_not : "");
            break;
        }
    }
    proto_debug_line(out, "%s", "");
}

/* ---- answering ------------------------------------------------------------- */

/* A decision the player could not make: the request gets an error. */
static bool player_failed(PlayerStatus st, const Err *why, Err *err)
{
    return err_set(err, "internal error: %s (%s)", why->text, player_status_name(st));
}

/* X moves: the player's choice among the legal moves, written in gnubg's
 * plain notation; an empty line when no move is legal. One list serves the
 * choice, the check and the writing. */
static bool answer_move(const ProtoConfig *cfg, ProtoWorker *w, const FibsBoard *b, Buf *out,
                        Err *err)
{
    (void)cfg;
    MoveList *legal = w->legal;
    int n = movegen_generate(&b->pos, b->dice[0], b->dice[1], legal);
    if (n == 0) {
        buf_puts(out, "\n");
        return true;
    }
    CubeState cs;
    cube_state(b, true, &cs);
    int i = -1;
    Err why = {""};
    PlayerStatus st =
        player_move_among(w->player, &b->pos, &cs, b->dice[0], b->dice[1], legal, &i, &why);
    if (st == PLAYER_ILLEGAL)
        return err_set(err, "internal error: the engine's move for %d-%d is not one of the "
                            "%d legal moves",
                       b->dice[0], b->dice[1], n);
    if (st != PLAYER_OK)
        return player_failed(st, &why, err);
    /* Write the legal list's copy (gnubg's part order) and read it back:
     * what gnubg will parse must be this very move. */
    char text[MOVETEXT_MAX];
    movetext_plain(&b->pos, &legal->moves[i], text);
    int back = movetext_match_roll(&b->pos, legal, b->dice[0], b->dice[1], text, &why);
    if (back != i || text[0] == '\0')
        return err_set(err, "internal error: the move text '%s' does not read back as the "
                            "move chosen",
                       text);
    buf_printf(out, "%s\n", text);
    return true;
}

static bool answer_cube(ProtoWorker *w, const FibsBoard *b, Buf *out, Err *err)
{
    CubeState cs;
    cube_state(b, true, &cs);
    PlayerCube d = PLAYER_ROLL;
    if (!no_cube_access(b)) {
        Err why = {""};
        PlayerStatus st = player_cube(w->player, &b->pos, &cs, &d, &why);
        if (st != PLAYER_OK)
            return player_failed(st, &why, err);
    }
    buf_puts(out, d == PLAYER_DOUBLE ? "double\n" : "roll\n");
    return true;
}

static bool answer_take(ProtoWorker *w, const BoardRequest *req, Buf *out, Err *err)
{
    const FibsBoard *b = &req->board;
    CubeState cs;
    cube_state(b, false, &cs);
    if (no_beaver(req))
        cs.beavers = 0;
    Position doubler = b->pos; /* X answers; the player wants the doubler on roll */
    pos_swap(&doubler);
    PlayerTake d;
    Err why = {""};
    PlayerStatus st = player_take(w->player, &doubler, &cs, req->beaver_case, &d, &why);
    if (st != PLAYER_OK)
        return player_failed(st, &why, err);
    /* The protocol has one word for a beaver and a raccoon. */
    buf_puts(out, d == PLAYER_DROP                                  ? "drop\n"
                  : d == PLAYER_TAKE || d == PLAYER_TAKE_NOT_BEAVER ? "take\n"
                                                                    : "beaver\n");
    return true;
}

static bool answer_resignation(ProtoWorker *w, const FibsBoard *b, Buf *out, Err *err)
{
    CubeState cs;
    cube_state(b, true, &cs);
    bool yes;
    Err why = {""};
    PlayerStatus st =
        player_accept(w->player, &b->pos, &cs, b->options.resignation, &yes, &why);
    if (st != PLAYER_OK)
        return player_failed(st, &why, err);
    buf_puts(out, yes ? "accept\n" : "reject\n");
    return true;
}

bool proto_board_answer(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                        const ProtoTokens *t, int first, Buf *out, Err *err)
{
    if (!cfg->engine || !w->player)
        return err_set(err, "no engine is loaded on this server");
    BoardRequest req;
    if (!read_request(cfg, s, t, first, NULL, &req, err))
        return false;
    const FibsBoard *b = &req.board;
    /* The acting side is on roll in move and cube requests: that is the
     * colour gnubg's client has us play on this connection. */
    if (s->scores == SCORES_GNUBG &&
        (b->decision == FIBS_DECIDE_MOVE || b->decision == FIBS_DECIDE_CUBE))
        s->colour = b->x_colour;
    if (s->debug)
        debug_block(out, &req, NULL, s);
    switch (b->decision) {
    case FIBS_DECIDE_TAKE:
        return answer_take(w, &req, out, err);
    case FIBS_DECIDE_RESIGNATION:
        return answer_resignation(w, b, out, err);
    case FIBS_DECIDE_MOVE:
        return answer_move(cfg, w, b, out, err);
    case FIBS_DECIDE_CUBE:
        return answer_cube(w, b, out, err);
    }
    return err_set(err, "internal error: unknown decision");
}

bool proto_board_evaluate(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                          const ProtoTokens *t, int first, Buf *out, Err *err)
{
    if (!cfg->engine || !w->scratch)
        return err_set(err, "no engine is loaded on this server");
    EvalRequest ev = {.eval = {.plies = 0, .cubeful = false}, .deterministic = true};
    BoardRequest req;
    if (!read_request(cfg, s, t, first, &ev, &req, err))
        return false;
    if (s->debug)
        debug_block(out, &req, &ev, s);
    CubeState cs;
    cube_state(&req.board, true, &cs);
    Evaluation e;
    Err why = {""};
    if (engine_evaluate(cfg->engine, w->scratch, &req.board.pos, &cs, &ev.eval, &e, &why) !=
        ENGINE_OK)
        return err_set(err, "internal error: %s", why.text);
    const double v[6] = {e.p_win, e.p_win_gammon, e.p_win_bg, e.p_lose_gammon, e.p_lose_bg,
                         e.equity};
    for (int i = 0; i < 6; i++)
        if (!isfinite(v[i]))
            return err_set(err, "internal error: the evaluation is not a number");
    buf_printf(out, "%f %f %f %f %f %f\n", v[0], v[1], v[2], v[3], v[4], v[5]);
    return true;
}
