/* rollout.c - one trial of a rollout (rollout.h). */
#include "rollout.h"

#include <string.h>

#include "cube.h"
#include "eval_outputs.h"
#include "met.h"

_Static_assert((int)ROLLOUT_WIN == OUT_WIN && (int)ROLLOUT_WIN_GAMMON == OUT_WIN_GAMMON &&
                   (int)ROLLOUT_WIN_BG == OUT_WIN_BG &&
                   (int)ROLLOUT_LOSE_GAMMON == OUT_LOSE_GAMMON &&
                   (int)ROLLOUT_LOSE_BG == OUT_LOSE_BG,
               "a rollout's chances are the evaluator's outputs, in its order");
#include "referee.h"
#include "splitmix.h"

/* A uniform draw in 0..n-1 (n >= 1), larger values drawn again so that no
 * result is likelier than another. */
static unsigned draw_below(uint64_t *state, unsigned n)
{
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do
        v = splitmix64(state);
    while (v >= limit);
    return (unsigned)(v % n);
}

/* Two permutations of the 36 ordered rolls, drawn from the seed alone
 * (Fisher-Yates), on a stream apart from the trials' dice. */
static void draw_strata(uint64_t seed, uint8_t strata[2][36])
{
    uint64_t s = seed ^ 0x526f6c6c6f757473ULL; /* "Rollouts" */
    s = splitmix64(&s);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 36; i++)
            strata[k][i] = (uint8_t)i;
        for (int i = 35; i > 0; i--) {
            unsigned j = draw_below(&s, (unsigned)i + 1);
            uint8_t t = strata[k][i];
            strata[k][i] = strata[k][j];
            strata[k][j] = t;
        }
    }
}

bool rollout_game_init(RolloutGame *g, const Engine *e, const Match *start,
                       const RolloutOptions *o, Err *err)
{
    if (o->plies < 0 || o->truncate < 0)
        return err_set(err, "rollout: plies and truncation may not be negative");
    if (start->phase != PHASE_PLAYING)
        return err_set(err, "the game is not under way: nothing to roll out");
    if (start->doubled || start->resigned)
        return err_set(err, "a %s waits for its answer: nothing to roll out",
                       start->doubled ? "double" : "resignation");
    if (start->dice[0])
        return err_set(err, "the dice are rolled: roll out the moves instead");
    memset(g, 0, sizeof *g);
    g->engine = e;
    g->start = *start;
    g->o = *o;
    g->root = match_cube_state(start, &g->root_cs);
    if (g->root < 0)
        return err_set(err, "nobody is to act: nothing to roll out");
    g->view = g->root;
    cube_linear(&g->root_cs, SIDE_ROLLER, &g->cubeless_base, g->cubeless_w);
    draw_strata(o->seed, g->strata);
    return true;
}

void rollout_game_from_mover(RolloutGame *g)
{
    g->view = !g->root;
}

/* The root's values seen by the other player: chances turned round, the
 * equities negated (money) or their complements (match winning chances). */
static void turn_round(const RolloutGame *g, double v[ROLLOUT_VALUES])
{
    eval_invert(v); /* the chances come first, in the evaluator's order */
    bool match = g->root_cs.match_length > 0;
    for (int k = ROLLOUT_CUBELESS; k <= ROLLOUT_CUBEFUL; k++)
        v[k] = match ? 1.0 - v[k] : -v[k];
}

/* The index of a roll among the 21 of engine_roll_choices. */
static int roll_index(int d1, int d2)
{
    if (d1 > d2) {
        int t = d1;
        d1 = d2;
        d2 = t;
    }
    /* Rows 1.., each starting at its double: row a holds 7 - a rolls. */
    int before = (d1 - 1) * (14 - d1) / 2;
    return before + (d2 - d1);
}

/* The five chances of a mover (of seat `seat`) as the root sees them. */
static void chances_for_root(const RolloutGame *g, int seat, const Evaluation *ev, double out[5])
{
    if (seat == g->root) {
        out[0] = ev->p_win, out[1] = ev->p_win_gammon, out[2] = ev->p_win_bg;
        out[3] = ev->p_lose_gammon, out[4] = ev->p_lose_bg;
    } else {
        out[0] = 1.0 - ev->p_win, out[1] = ev->p_lose_gammon, out[2] = ev->p_lose_bg;
        out[3] = ev->p_win_gammon, out[4] = ev->p_win_bg;
    }
}

/* A cubeful value of seat `seat` at cube `cube` (money: per unit of that
 * cube; match: his match winning chance) as the root's, per unit of the
 * root's cube. */
static double cubeful_for_root(const RolloutGame *g, int seat, int cube, double v)
{
    if (g->root_cs.match_length > 0)
        return seat == g->root ? v : 1.0 - v;
    double scaled = v * cube / g->root_cs.cube;
    return seat == g->root ? scaled : -scaled;
}

/* Fills the five chances and the cubeless value from the root's chances. */
static void set_chances(const RolloutGame *g, const double c[5], double v[ROLLOUT_VALUES])
{
    double cubeless = g->cubeless_base;
    for (int i = 0; i < 5; i++) {
        v[i] = c[i];
        cubeless += g->cubeless_w[i] * c[i];
    }
    v[ROLLOUT_CUBELESS] = cubeless;
}

/* The root's values for a roll's choice c by the mover of seat `seat`. */
static void choice_values(const RolloutGame *g, int seat, int cube, const EngineCandidate *c,
                          double v[ROLLOUT_VALUES])
{
    double ch[5];
    chances_for_root(g, seat, &c->ev, ch);
    set_chances(g, ch, v);
    v[ROLLOUT_CUBEFUL] = g->o.cubeful ? cubeful_for_root(g, seat, cube, c->cubeful) : 0.0;
}

/* Adds the luck of rolling d1-d2 to luck[]: the root's values after the
 * search's pick for it, less their average over the 36 rolls. Whatever
 * the pick, the luck's mean over the roll is 0: the trial's mean is kept,
 * and the better the pick's value foretells the game, the more of the
 * dice's noise goes. */
static void add_luck(const RolloutGame *g, int seat, int cube,
                     const EngineCandidate ch[ENGINE_ROLLS], int d1, int d2,
                     double luck[ROLLOUT_VALUES])
{
    double mean[ROLLOUT_VALUES] = {0}, v[ROLLOUT_VALUES];
    int k = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = a; b <= 6; b++, k++) {
            choice_values(g, seat, cube, &ch[k], v);
            double w = (a == b ? 1.0 : 2.0) / 36.0;
            for (int i = 0; i < ROLLOUT_VALUES; i++)
                mean[i] += w * v[i];
        }
    choice_values(g, seat, cube, &ch[roll_index(d1, d2)], v);
    for (int i = 0; i < ROLLOUT_VALUES; i++)
        luck[i] += v[i] - mean[i];
}

/* The state of one trial in play. */
typedef struct Trial {
    const RolloutGame *g;
    EngineScratch *sc;
    Match m;
    RefereeDice dice;
    int64_t number;
    int rolls;             /* rolls made so far */
    bool dropped;          /* the game ended on a dropped double ... */
    int drop_seat;         /* ... of this seat (the player on roll) */
    Evaluation at_drop;    /* ... whose chances were these (his view) */
} Trial;

/* The player to act, his board and cube. */
static int actor(const Trial *t, Position *p, CubeState *cs)
{
    int seat = match_cube_state(&t->m, cs);
    match_position_of(&t->m, seat, p);
    return seat;
}

static bool engine_failed(EngineResult r)
{
    return r != ENGINE_OK && r != ENGINE_NO_MOVE;
}

/* Before the roll: the player on roll doubles or not; a double is taken,
 * dropped or beavered (and a beaver answered), each by the engine. */
static bool cube_turn(Trial *t, Err *err)
{
    const RolloutGame *g = t->g;
    if (!match_can(&t->m, ACT_DOUBLE, NULL))
        return true;
    Position p;
    CubeState cs;
    int seat = actor(t, &p, &cs);
    CubeDecision d;
    if (engine_failed(engine_double(g->engine, t->sc, &p, &cs, g->o.plies, &d, err)))
        return false;
    if (d != CUBE_DOUBLE)
        return true;
    /* Should it be dropped, the chances to count are these. */
    EvalOptions chances = {0, false};
    if (engine_failed(engine_evaluate(g->engine, t->sc, &p, &cs, &chances, &t->at_drop, err)))
        return false;
    t->drop_seat = seat;
    if (!match_double(&t->m, err))
        return false;
    for (;;) {
        /* Side 1 is the one who offered (the doubler, or the beaverer);
         * side 0 answers. */
        Position q;
        CubeState qs;
        actor(t, &q, &qs);
        TakeDecision a;
        if (engine_failed(engine_take(g->engine, t->sc, &q, &qs, g->o.plies, &a, err)))
            return false;
        if (a == TAKE_DROP) {
            t->dropped = true;
            return match_drop(&t->m, err);
        }
        if (a == TAKE_BEAVER && match_can(&t->m, ACT_BEAVER, NULL)) {
            if (!match_beaver(&t->m, err))
                return false;
            continue;
        }
        return match_take(&t->m, err);
    }
}

static void next_roll(Trial *t, int *d1, int *d2)
{
    const RolloutGame *g = t->g;
    if (g->o.vr && t->rolls < 2) {
        int k = t->rolls == 0 ? g->strata[0][t->number % 36]
                              : g->strata[1][(t->number / 36) % 36];
        *d1 = k / 6 + 1;
        *d2 = k % 6 + 1;
    } else {
        *d1 = referee_die(&t->dice);
        *d2 = referee_die(&t->dice);
    }
    t->rolls++;
}

/* One turn after the cube: a roll and its move (or pass). */
static bool checker_turn(Trial *t, double luck[ROLLOUT_VALUES], Err *err)
{
    const RolloutGame *g = t->g;
    if (match_closed_out(&t->m))
        return match_pass(&t->m, err);
    Position p;
    CubeState cs;
    int seat = actor(t, &p, &cs);
    int d1, d2;
    next_roll(t, &d1, &d2);
    EngineCandidate choices[ENGINE_ROLLS];
    if (g->o.vr) {
        if (engine_failed(engine_roll_choices(g->engine, t->sc, &p, &cs, choices, err)))
            return false;
        add_luck(g, seat, cs.cube, choices, d1, d2, luck);
    }
    if (!match_roll(&t->m, d1, d2, err))
        return false;
    if (t->m.legal_moves == 0)
        return match_pass(&t->m, err);
    Move best;
    EngineResult r = engine_move(g->engine, t->sc, &p, d1, d2, &cs, g->o.plies, &best, err);
    if (r != ENGINE_OK)
        return r == ENGINE_NO_MOVE ? err_set(err, "no move although the rules see one") : false;
    return match_move(&t->m, &best.result, err);
}

/* The root's values of a finished game. */
static void game_values(const Trial *t, double v[ROLLOUT_VALUES])
{
    const RolloutGame *g = t->g;
    const Match *m = &t->m;
    double c[5] = {0};
    if (t->dropped) {
        chances_for_root(g, t->drop_seat, &t->at_drop, c);
    } else {
        bool won = m->winner == g->root;
        int kind = (int)m->result;
        c[0] = won;
        c[won ? 1 : 3] = kind >= SCORE_GAMMON;
        c[won ? 2 : 4] = kind >= SCORE_BACKGAMMON;
    }
    set_chances(g, c, v);
    v[ROLLOUT_CUBEFUL] = 0.0;
    if (!g->o.cubeful)
        return;
    int len = g->root_cs.match_length;
    if (len == 0) {
        double pts = (double)m->points / g->root_cs.cube;
        v[ROLLOUT_CUBEFUL] = m->winner == g->root ? pts : -pts;
        return;
    }
    int away = len - m->score[g->root], opp = len - m->score[!g->root];
    /* The next game's Crawford state is set once a game is over; a side
     * at 1-away outside a Crawford game is past it (or plays without
     * the rule). */
    bool post = m->post_crawford || ((away == 1 || opp == 1) && !m->crawford);
    v[ROLLOUT_CUBEFUL] = met_mwc(away, opp, post);
}

/* The root's values where a truncated trial stops: the engine's 0-ply
 * view of the player to act, about to roll. */
static bool truncated_values(Trial *t, double v[ROLLOUT_VALUES], Err *err)
{
    const RolloutGame *g = t->g;
    Position p;
    CubeState cs;
    int seat = actor(t, &p, &cs);
    Evaluation less, ful;
    EvalOptions o_less = {0, false}, o_ful = {0, true};
    if (engine_failed(engine_evaluate(g->engine, t->sc, &p, &cs, &o_less, &less, err)) ||
        engine_failed(engine_evaluate(g->engine, t->sc, &p, &cs, &o_ful, &ful, err)))
        return false;
    double c[5];
    chances_for_root(g, seat, &less, c);
    set_chances(g, c, v);
    v[ROLLOUT_CUBEFUL] = g->o.cubeful ? cubeful_for_root(g, seat, cs.cube, ful.equity) : 0.0;
    return true;
}

bool rollout_trial(const RolloutGame *g, EngineScratch *sc, int64_t trial,
                   double v[ROLLOUT_VALUES], Err *err)
{
    if (trial < 0)
        return err_set(err, "rollout: trial %lld is negative", (long long)trial);
    Trial t;
    memset(&t, 0, sizeof t);
    t.g = g;
    t.sc = sc;
    t.m = g->start;
    t.number = trial;
    referee_dice_init(&t.dice, g->o.seed, (uint64_t)trial, 0);
    double luck[ROLLOUT_VALUES] = {0};
    for (int turns = 0;; turns++) {
        if (t.m.phase != PHASE_PLAYING) {
            game_values(&t, v);
            break;
        }
        if (g->o.truncate > 0 && turns >= g->o.truncate) {
            if (!truncated_values(&t, v, err))
                return false;
            break;
        }
        if (turns >= ROLLOUT_MAX_TURNS)
            return err_set(err, "trial %lld: no end after %d turns", (long long)trial,
                           ROLLOUT_MAX_TURNS);
        if (g->o.cubeful && !cube_turn(&t, err))
            return false;
        if (t.m.phase == PHASE_PLAYING && !checker_turn(&t, luck, err))
            return false;
    }
    for (int i = 0; i < ROLLOUT_VALUES; i++)
        v[i] -= luck[i];
    if (g->view != g->root)
        turn_round(g, v);
    if (!g->o.cubeful)
        v[ROLLOUT_CUBEFUL] = 0.0;
    return true;
}
