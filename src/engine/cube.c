/* cube.c - Janowski cube model for money and match play (see cube.h).
 *
 * Notation: p = chance that the player on roll wins; W and L = average
 * value of his wins and losses (gammons included), so that the dead cube
 * (nobody will ever double again) is worth p W - (1 - p) L.
 *
 * Live cube: equity is linear in p between the points where the cube
 * changes hands. The player who may double cashes at his cash point CP
 * (the other side is then indifferent between taking and passing) and the
 * other side cashes at the player's take point TP, so the live equity runs
 * through (0, -L), (TP, -1) if the other side may double, (CP, +1) if the
 * player may, and (1, W). For money with perfect efficiency (Janowski):
 *     TP = (L - 1/2) / (W + L + 1/2),   CP = (L + 1) / (W + L + 1/2).
 * Real cubes are less efficient (a position jumps past the cash point,
 * or the game ends before it is reached): cubeful = x live + (1 - x) dead.
 *
 * Match play replaces points by match winning chances from the MET. There
 * the take and cash points depend on the score and the cube level, so each
 * is solved on the cubeful function of the next level (the taker's equity
 * owning the doubled cube equals passing), recursively up to a level where
 * the cube is dead: nobody may double beyond max_cube, and a player who
 * wins the match by winning at the current cube gains nothing by doubling
 * (this is what kills the leader's cube after the Crawford game). */
#include "cube.h"

#include <math.h>

#include "eval_static.h"
#include "met.h"

/* A piecewise-linear function of p on [0, 1]: points sorted by x. */
typedef struct Pl {
    int n;
    double x[4], y[4];
} Pl;

static double pl_at(const Pl *f, double p)
{
    if (p <= f->x[0])
        return f->y[0];
    for (int i = 1; i < f->n; i++)
        if (p <= f->x[i]) {
            double dx = f->x[i] - f->x[i - 1];
            if (dx <= 0.0)
                return f->y[i];
            return f->y[i - 1] + (p - f->x[i - 1]) * (f->y[i] - f->y[i - 1]) / dx;
        }
    return f->y[f->n - 1];
}

/* The p at which an increasing f first reaches v, clamped to [0, 1]. */
static double pl_solve(const Pl *f, double v)
{
    if (f->y[0] >= v)
        return 0.0;
    for (int i = 1; i < f->n; i++)
        if (f->y[i] >= v) {
            double dy = f->y[i] - f->y[i - 1];
            if (dy <= 0.0)
                return f->x[i];
            return f->x[i - 1] + (v - f->y[i - 1]) * (f->x[i] - f->x[i - 1]) / dy;
        }
    return 1.0;
}

static void pl_add(Pl *f, double x, double y)
{
    f->x[f->n] = x;
    f->y[f->n] = y;
    f->n++;
}

/* ---- helpers on the cube state ---- */

static bool is_money(const CubeState *cs)
{
    return cs->match_length <= 0;
}

/* ---- what a backgammon is worth ----
 *
 * The evaluators give the chance of a backgammon as the standard rules
 * make it; star mars and the home-board zone split that outcome by shares
 * the outputs do not hold (cube.h). */

/* What the backgammon outcome scores, as a mixture of the kinds it may
 * be: `points[k]` with weight `share[k]`; returns how many kinds. */
static int bg_kinds(const CubeState *cs, int points[3], double share[3])
{
    int n = 0;
    double rest = 1.0;
    if (cs->star_mars) {
        points[n] = 4, share[n++] = CUBE_BG_SHARE_STAR_MARS;
        rest -= CUBE_BG_SHARE_STAR_MARS;
    }
    if (cs->bg_home_only) {
        points[n] = 2, share[n++] = CUBE_BG_SHARE_BAR_ONLY;
        rest -= CUBE_BG_SHARE_BAR_ONLY;
    }
    points[n] = cs->backgammons_off ? 2 : 3, share[n++] = rest;
    return n;
}

/* Money: the average points of the backgammon outcome. */
static double bg_points(const CubeState *cs)
{
    int points[3];
    double share[3], v = 0.0;
    int n = bg_kinds(cs, points, share);
    for (int k = 0; k < n; k++)
        v += share[k] * points[k];
    return v;
}

/* ---- money ---- */

typedef struct Money {
    double p, w, l; /* win chance, average win, average loss */
    double w_dead, l_dead;
} Money;

static void money_init(const double out[OUT_COUNT], const CubeState *cs, Money *m)
{
    double p = out[OUT_WIN], bg = bg_points(cs) - 2.0; /* a backgammon's extra */
    m->p = p;
    m->w = p > 1e-9 ? 1.0 + (out[OUT_WIN_GAMMON] + bg * out[OUT_WIN_BG]) / p : 1.0;
    m->l = p < 1.0 - 1e-9 ? 1.0 + (out[OUT_LOSE_GAMMON] + bg * out[OUT_LOSE_BG]) / (1.0 - p)
                          : 1.0;
    m->w_dead = m->w;
    m->l_dead = m->l;
}

/* Cubeful equity per cube unit with the given access to the cube. */
static double money_equity(const Money *m, bool me, bool them, double x)
{
    double w = m->w, l = m->l, p = m->p;
    double dead = p * m->w_dead - (1.0 - p) * m->l_dead;
    Pl live = {0};
    pl_add(&live, 0.0, -m->l_dead);
    if (them)
        pl_add(&live, (l - 0.5) / (w + l + 0.5), -1.0);
    if (me)
        pl_add(&live, (l + 1.0) / (w + l + 0.5), 1.0);
    pl_add(&live, 1.0, m->w_dead);
    return x * pl_at(&live, p) + (1.0 - x) * dead;
}

static void money_equities(const double out[OUT_COUNT], const CubeState *cs, double x,
                           CubeEquities *eq)
{
    Money m;
    money_init(out, cs, &m);
    bool in_use = cs->cube_in_use;
    bool me = cubestate_access(cs, SIDE_ROLLER), them = cubestate_access(cs, SIDE_OPPONENT);
    Money nd = m;
    if (cubestate_gammons_void(cs))
        nd.w_dead = nd.l_dead = 1.0; /* played out without a double: singles */
    eq->no_double = in_use ? money_equity(&nd, me, them, x)
                           : m.p * nd.w_dead - (1.0 - m.p) * nd.l_dead;
    /* After a take the other side owns 2 cube units and may redouble if the
     * cube can go to 4 times its value. */
    bool redouble = cubestate_fits(cs, 4L * cs->cube);
    eq->double_take = 2.0 * money_equity(&m, false, redouble, x);
    eq->double_pass = 1.0;
    eq->can_double = me;
}

/* ---- match ---- */

typedef struct Match {
    const CubeState *cs;
    int away, opp_away; /* points still needed */
    bool post;          /* the next game after this one is post-Crawford */
    double x;
    double rwg, rwbg, rlg, rlbg; /* gammon and backgammon rates of wins, losses */
} Match;

static double mwc(const Match *m, int away, int opp_away)
{
    return met_mwc(away, opp_away, m->post);
}

/* Match winning chance after a win (me) or a loss of `points` at cube c. */
static double after(const Match *m, bool me, int points)
{
    return me ? mwc(m, m->away - points, m->opp_away) : mwc(m, m->away, m->opp_away - points);
}

/* ... and after a backgammon, the mixture of the kinds it may be. */
static double after_bg(const Match *m, bool me, int c)
{
    int points[3];
    double share[3], v = 0.0;
    int n = bg_kinds(m->cs, points, share);
    for (int k = 0; k < n; k++)
        v += share[k] * after(m, me, points[k] * c);
    return v;
}

/* Average match winning chance of a win, and of a loss, at cube c. */
static double win_value(const Match *m, int c)
{
    return (1.0 - m->rwg) * after(m, true, c) + (m->rwg - m->rwbg) * after(m, true, 2 * c) +
           m->rwbg * after_bg(m, true, c);
}

static double lose_value(const Match *m, int c)
{
    return (1.0 - m->rlg) * after(m, false, c) + (m->rlg - m->rlbg) * after(m, false, 2 * c) +
           m->rlbg * after_bg(m, false, c);
}

/* May the player (me) or the other side use a cube of value c, and would
 * it do him any good? The rules' answer for the cube at that level, owned
 * by him, leaving out Holland (by then his turns have come). */
static bool alive(const Match *m, int c, bool me)
{
    CubeState at = *m->cs;
    int side = me ? SIDE_ROLLER : SIDE_OPPONENT;
    at.cube = c;
    at.owner = side;
    return cubestate_access(&at, side) && !cubestate_dead(&at, side);
}

/* Cubeful chances at cube c: ownership 1 = me, 0 = them, -1 centred. */
static void match_fn(const Match *m, int c, int owner, Pl *f)
{
    bool me = owner != 0 && alive(m, c, true);
    bool them = owner != 1 && alive(m, c, false);
    double lose = lose_value(m, c), win = win_value(m, c);
    Pl live = {0};
    pl_add(&live, 0.0, lose);
    double tp = 0.0, cp = 1.0;
    if (them) {
        /* I take their double if owning 2c is worth what passing is. */
        Pl up;
        match_fn(m, 2 * c, 1, &up);
        tp = pl_solve(&up, mwc(m, m->away, m->opp_away - c));
    }
    if (me) {
        Pl up;
        match_fn(m, 2 * c, 0, &up);
        cp = pl_solve(&up, mwc(m, m->away - c, m->opp_away));
    }
    if (them && me && tp > cp)
        tp = cp = (tp + cp) / 2.0; /* no window: both cash at once */
    if (them && tp > 0.0 && tp < 1.0)
        pl_add(&live, tp, mwc(m, m->away, m->opp_away - c));
    if (me && cp > 0.0 && cp < 1.0)
        pl_add(&live, cp, mwc(m, m->away - c, m->opp_away));
    pl_add(&live, 1.0, win);
    /* Mix with the dead cube; both are linear between the same points. */
    double x = (me || them) ? m->x : 0.0;
    f->n = live.n;
    for (int i = 0; i < live.n; i++) {
        double dead = live.x[i] * win + (1.0 - live.x[i]) * lose;
        f->x[i] = live.x[i];
        f->y[i] = x * live.y[i] + (1.0 - x) * dead;
    }
}

static void match_init(const double out[OUT_COUNT], const CubeState *cs, double x, Match *m)
{
    int len = cs->match_length;
    m->away = len - cs->score[SIDE_ROLLER];
    m->opp_away = len - cs->score[SIDE_OPPONENT];
    /* A 1-away score outside the Crawford game is post-Crawford (or a match
     * without the Crawford rule, which plays the same). */
    m->post = cs->crawford || cs->post_crawford || m->away == 1 || m->opp_away == 1;
    m->cs = cs;
    m->x = x;
    double p = out[OUT_WIN];
    m->rwg = p > 1e-9 ? out[OUT_WIN_GAMMON] / p : 0.0;
    m->rwbg = p > 1e-9 ? out[OUT_WIN_BG] / p : 0.0;
    m->rlg = p < 1.0 - 1e-9 ? out[OUT_LOSE_GAMMON] / (1.0 - p) : 0.0;
    m->rlbg = p < 1.0 - 1e-9 ? out[OUT_LOSE_BG] / (1.0 - p) : 0.0;
}

static void match_equities(const double out[OUT_COUNT], const CubeState *cs, double x,
                           CubeEquities *eq)
{
    Match m;
    match_init(out, cs, x, &m);
    double p = out[OUT_WIN];
    int c = cs->cube;
    Pl f;
    match_fn(&m, c, cs->owner, &f);
    eq->no_double = pl_at(&f, p);
    match_fn(&m, 2 * c, 0, &f);
    eq->double_take = pl_at(&f, p);
    eq->double_pass = mwc(&m, m.away - c, m.opp_away);
    eq->can_double = cubestate_access(cs, SIDE_ROLLER);
}

/* ---- the interface ---- */

double cube_cubeless(const double out[OUT_COUNT], const CubeState *cs)
{
    if (is_money(cs)) {
        double base, w[OUT_COUNT];
        cube_linear(cs, SIDE_ROLLER, &base, w);
        double v = base;
        for (int i = 0; i < OUT_COUNT; i++)
            v += w[i] * out[i];
        return v;
    }
    Match m;
    match_init(out, cs, 0.0, &m);
    double p = out[OUT_WIN];
    return p * win_value(&m, cs->cube) + (1.0 - p) * lose_value(&m, cs->cube);
}

void cube_linear(const CubeState *cs, int side, double *base, double w[OUT_COUNT])
{
    if (is_money(cs)) {
        bool singles = cubestate_gammons_void(cs);
        double bg = singles ? 0.0 : bg_points(cs) - 2.0, g = singles ? 0.0 : 1.0;
        *base = -1.0;
        w[OUT_WIN] = 2.0;
        w[OUT_WIN_GAMMON] = g, w[OUT_LOSE_GAMMON] = -g;
        w[OUT_WIN_BG] = bg, w[OUT_LOSE_BG] = -bg;
        return;
    }
    CubeState view = *cs;
    if (side == SIDE_OPPONENT) {
        view.score[SIDE_ROLLER] = cs->score[SIDE_OPPONENT];
        view.score[SIDE_OPPONENT] = cs->score[SIDE_ROLLER];
    }
    Match m;
    double none[OUT_COUNT] = {0};
    match_init(none, &view, 0.0, &m);
    int c = cs->cube;
    double ws = after(&m, true, c), wg = after(&m, true, 2 * c), wbg = after_bg(&m, true, c);
    double ls = after(&m, false, c), lg = after(&m, false, 2 * c), lbg = after_bg(&m, false, c);
    /* (win - wg) ws + (wg - wbg) wg + wbg wbg + (1 - win - lg) ls + ... */
    *base = ls;
    w[OUT_WIN] = ws - ls;
    w[OUT_WIN_GAMMON] = wg - ws;
    w[OUT_WIN_BG] = wbg - wg;
    w[OUT_LOSE_GAMMON] = lg - ls;
    w[OUT_LOSE_BG] = lbg - lg;
}

void cube_equities(const double out[OUT_COUNT], const CubeState *cs, double x,
                   CubeEquities *eq)
{
    if (is_money(cs))
        money_equities(out, cs, x, eq);
    else
        match_equities(out, cs, x, eq);
}

double cube_cubeful(const double out[OUT_COUNT], const CubeState *cs, double x)
{
    CubeEquities eq;
    cube_equities(out, cs, x, &eq);
    if (!eq.can_double)
        return eq.no_double;
    double dbl = eq.double_take < eq.double_pass ? eq.double_take : eq.double_pass;
    return dbl > eq.no_double ? dbl : eq.no_double;
}

double cube_win_value(const CubeState *cs, int points)
{
    /* A resignation concedes a single game, a gammon or a backgammon, which
     * the rules may count lower. */
    if (points > 2 && cs->backgammons_off)
        points = 2;
    if (is_money(cs))
        return cubestate_gammons_void(cs) && points > 1 ? 1.0 : (double)points;
    Match m;
    double none[OUT_COUNT] = {0};
    match_init(none, cs, 0.0, &m);
    return mwc(&m, m.away - points * cs->cube, m.opp_away);
}

double cube_efficiency(const Position *p)
{
    if (!eval_is_race(p))
        return CUBE_EFFICIENCY;
    double x = 0.55 + 0.00125 * pos_pips(p, SIDE_ROLLER);
    return x < 0.60 ? 0.60 : x > 0.70 ? 0.70 : x;
}
