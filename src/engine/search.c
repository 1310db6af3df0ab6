/* search.c - expectimax lookahead and move choice (see search.h). */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "cube.h"
#include "eval_cache.h"
#include "eval_race.h"
#include "fnv.h"
#include "pubeval.h"

bool search_scratch_init(SearchScratch *sc, size_t cache_entries, EvalCache *lent, Err *err)
{
    memset(sc, 0, sizeof *sc);
    sc->stop = NULL;
    bool ok = (sc->race_cache = race_cache_new()) != NULL;
    if (lent)
        sc->cache = lent, sc->cache_lent = true;
    else if (ok && cache_entries > 0)
        ok = (sc->cache = eval_cache_new(cache_entries)) != NULL;
    for (int i = 0; ok && i <= SEARCH_MAX_PLIES; i++)
        ok = (sc->lists[i] = malloc(sizeof(MoveList))) != NULL;
    if (!ok) {
        search_scratch_done(sc);
        return err_set(err, "out of memory for the search's move lists and caches");
    }
    return true;
}

void search_scratch_done(SearchScratch *sc)
{
    race_cache_free(sc->race_cache);
    sc->race_cache = NULL;
    if (!sc->cache_lent)
        eval_cache_free(sc->cache);
    sc->cache = NULL;
    sc->cache_lent = false;
    for (int i = 0; i <= SEARCH_MAX_PLIES; i++) {
        free(sc->lists[i]);
        sc->lists[i] = NULL;
    }
}

void search_init(Search *s, const EvalCtx *eval, const Utility util[2], SearchScratch *scratch)
{
    memset(s, 0, sizeof *s);
    s->eval = eval;
    s->util[0] = util[0];
    s->util[1] = util[1];
    s->scratch = scratch;
    /* Each search starts with an empty race cache, as when it was made per
     * search (kept from one request to the next, its entries were cold in
     * the processor's caches and a server's 1-ply requests took 10 % more
     * CPU). Emptying it takes a new generation and touches no entry, so a
     * 0-ply evaluation, one search of its own, does not pay for 256. */
    race_cache_reset(scratch->race_cache);
}

/* The value table's tag of a deeper value for `side`: it depends on the
 * evaluator and on both sides' utilities, in the order of who is on roll.
 * Made at the first deeper value a search looks up, not in search_init:
 * hashing those 208 bytes took a fifth of the time of a 0-ply evaluation,
 * which never looks. */
static uint64_t search_tag(Search *s, int side)
{
    if (!s->tagged) {
        for (int k = 0; k < 2; k++) {
            uint64_t h = fnv_bytes(FNV_OFFSET, &s->eval->id, sizeof s->eval->id);
            h = fnv_bytes(h, &s->util[k], sizeof s->util[k]);
            s->tag[k] = fnv_bytes(h, &s->util[!k], sizeof s->util[!k]);
        }
        s->tagged = true;
    }
    return s->tag[side];
}

double search_utility(const Utility *u, const double out[OUT_COUNT])
{
    double v = u->base;
    for (int i = 0; i < OUT_COUNT; i++)
        v += u->w[i] * out[i];
    return v;
}

/* Looks for the value of p at `plies` under tag in the scratch's table:
 * true with out filled, or false with *k the key to keep it under
 * (*keep false when it cannot be kept). */
static bool cached(Search *s, const Position *p, int plies, uint64_t tag, EvalKey *k,
                   bool *keep, double out[OUT_COUNT])
{
    EvalCache *c = s->leaves_bare ? NULL : s->scratch->cache;
    *keep = c && eval_cache_key(p, plies, tag, k);
    if (*keep && eval_cache_get(c, k, out)) {
        s->hits++;
        return true;
    }
    return false;
}

/* The static value of p (side 1 on roll), from the table or computed. */
static void static_value(Search *s, const Position *p, double out[OUT_COUNT])
{
    EvalKey k;
    bool keep;
    if (cached(s, p, 0, s->eval->id, &k, &keep, out))
        return;
    eval_static(s->eval, s->scratch->race_cache, p, out);
    s->nodes++;
    if (keep)
        eval_cache_put(s->scratch->cache, &k, out);
}

/* Outputs for the mover after move m: the static value of the position the
 * other side then faces, turned round. */
static void after_move(Search *s, const Move *m, double out[OUT_COUNT])
{
    Position next = m->result;
    pos_swap(&next);
    static_value(s, &next, out);
    eval_invert(out);
}

/* The 0-ply score of move m for the mover (`side` of util[]), higher is
 * better; o gets the move's outputs when they were computed (*have). */
/* How a mover ranks moves at 0 ply. */
typedef enum Rank {
    RANK_PUBEVAL, /* pubeval's raw score: cheap */
    RANK_EVAL,    /* the static evaluator and the utility */
    RANK_FILTER   /* pubeval's best SEARCH_FILTER, then the evaluator */
} Rank;

static Rank rank_kind(const Search *s, bool race, bool inner)
{
    if (!inner)
        return race || s->eval->net ? RANK_EVAL : RANK_PUBEVAL;
    /* Inside the tree the network looks only at the few moves pubeval
     * likes best, in races too: there pubeval's race weights alone chose
     * moves that cost the 2-ply benchmark's races 1.18 thousandths a
     * decision where the filter costs 0.81, for about 6 % more time
     * (docs/engine.md). The calibrated engine plays pubeval inside the
     * tree: for it, the race model's choice was no better at 1 ply and 30
     * times dearer. Calibrated pubeval ranks contact moves worse than
     * pubeval itself, so it ranks them by pubeval's score everywhere. */
    if (race && !SEARCH_RACE_FILTER)
        return RANK_PUBEVAL;
    return s->eval->net ? RANK_FILTER : RANK_PUBEVAL;
}

static double score_move(Search *s, const Move *m, bool race, Rank rank, int side,
                         double o[OUT_COUNT], bool *have)
{
    *have = false;
    if (rank == RANK_PUBEVAL)
        return pubeval_score(&m->result, race);
    after_move(s, m, o);
    *have = true;
    return search_utility(&s->util[side], o);
}

/* A short list of the best (index, value) pairs, best first: offers
 * index i with value v to a list of *kept entries that holds at most cap. */
static void keep_best(int *keep, double *val, int *kept, int cap, int i, double v)
{
    if (*kept == cap && v <= val[cap - 1])
        return;
    int at = *kept < cap ? (*kept)++ : cap - 1;
    while (at > 0 && val[at - 1] < v) {
        keep[at] = keep[at - 1];
        val[at] = val[at - 1];
        at--;
    }
    keep[at] = i;
    val[at] = v;
}

/* Indices of the (at most) width <= SEARCH_FILTER_DEEP moves of l with
 * the best pubeval scores, best first; returns how many. */
static int pubeval_filter(const MoveList *l, bool race, int width,
                          int keep[SEARCH_FILTER_DEEP])
{
    double val[SEARCH_FILTER_DEEP];
    int kept = 0;
    for (int i = 0; i < l->count; i++)
        keep_best(keep, val, &kept, width, i, pubeval_score(&l->moves[i].result, race));
    return kept;
}

/* Index of the mover's 0-ply choice in l (count >= 1); out gets the
 * chosen move's outputs. width: 0 at the root (every move), inside the
 * tree how many of pubeval's best the network chooses from. */
static int pick(Search *s, const Position *p, const MoveList *l, int side, int width,
                double out[OUT_COUNT])
{
    bool race = eval_is_race(p);
    Rank rank = rank_kind(s, race, width > 0);
    int filtered[SEARCH_FILTER_DEEP], n = l->count;
    const int *which = NULL; /* NULL: every move */
    if (rank == RANK_FILTER) {
        rank = RANK_EVAL;
        if (n > width) {
            n = pubeval_filter(l, race, width, filtered);
            which = filtered;
        }
    }
    int best = 0;
    bool have_best = false;
    double top = 0.0, o[OUT_COUNT];
    for (int k = 0; k < n; k++) {
        int i = which ? which[k] : k;
        bool have;
        double v = score_move(s, &l->moves[i], race, rank, side, o, &have);
        if (k == 0 || v > top) {
            top = v, best = i, have_best = have;
            if (have)
                memcpy(out, o, sizeof o);
        }
    }
    if (!have_best)
        after_move(s, &l->moves[best], out);
    return best;
}

/* ---- cubeful values through the tree ----
 *
 * A node is valued for a set of cube states at once: the tree (the rolls,
 * the moves chosen by the cubeless utility) is the same for every one, and
 * only how its leaves are valued and how the values come back up differ. A
 * state's value at a node is the cubeful equity of the player on roll there,
 * per unit of that state's cube in money play, or his match winning chance.
 * At a leaf it is the cube model's (cube_cubeful: Janowski, the player
 * taking his right cube action). Above, the player on roll may double: his
 * value is max(ND, min(DT, DP)), ND the average over the rolls of his
 * value after his move with the cube as it was, DT the same with the cube
 * doubled and the other side owning it, DP what a pass gives him. Each
 * state thus has one or two states at the level below; equal ones are
 * valued once, so a level holds at most twice the states of the one above.
 * Beavers are left out inside the tree (the cube model's take point
 * decides there), and the turns the Holland rule counts do not advance. */

typedef struct Cubes {
    int n;
    CubeState cs[SEARCH_MAX_CUBES];
} Cubes;

static bool same_cube(const CubeState *a, const CubeState *b)
{
    return a->cube == b->cube && a->owner == b->owner && a->score[0] == b->score[0] &&
           a->score[1] == b->score[1] && a->cube_in_use == b->cube_in_use &&
           a->turns[0] == b->turns[0] && a->turns[1] == b->turns[1];
}

/* Index of the state the other side faces after the player on roll's move,
 * the cube doubled and turned to him first when `doubled`; added to *c
 * when it is not there yet. */
static int child_state(Cubes *c, const CubeState *parent, bool doubled)
{
    CubeState next = *parent;
    if (doubled) {
        next.cube *= 2;
        next.owner = SIDE_OPPONENT;
        next.animals = 0;
    }
    cubestate_swap(&next);
    for (int i = 0; i < c->n; i++)
        if (same_cube(&c->cs[i], &next))
            return i;
    c->cs[c->n] = next;
    return c->n++;
}

/* The value of the player who just moved, from v, the value of the other
 * side then on roll under `child`: negated and in units of the parent's
 * cube (money), or its complement (match). */
static double mover_value(const CubeState *parent, const CubeState *child, double v)
{
    if (parent->match_length > 0)
        return 1.0 - v;
    return -v * child->cube / parent->cube;
}

/* Leaf values: the cube model on the chances `out` of the player on roll. */
static void leaf_values(const Position *p, const double out[OUT_COUNT], const Cubes *c,
                        double *eq)
{
    if (!c || c->n == 0)
        return;
    double x = cube_efficiency(p);
    for (int i = 0; i < c->n; i++)
        eq[i] = cube_cubeful(out, &c->cs[i], x);
}

/* What the player on roll's double gives him: the worse of the take and
 * the pass (the other side chooses). */
static double doubled_value(double take, double pass)
{
    return take < pass ? take : pass;
}

/* The caller no longer wants the answer (SearchScratch.stop). */
static bool stopped(const Search *s)
{
    return s->scratch->stop && atomic_load_explicit(s->scratch->stop, memory_order_relaxed);
}

/* Values p (side 1 on roll, who is `side` of util[]) at `plies`: out gets
 * its cubeless outputs, eq[i] (when c has states) its value under c->cs[i].
 * With `all_doubles`, eq_nd and eq_dt get ND and DT of every state even
 * where the rules forbid the double (the root of a cube decision). */
static void node(Search *s, const Position *p, int plies, int side, double out[OUT_COUNT],
                 const Cubes *c, double *eq, double *eq_nd, double *eq_dt)
{
    if (plies > 0 && stopped(s)) {
        /* Nobody waits for this answer: end with defined values, and keep
         * none of the values above them. */
        s->stopped = true;
        memset(out, 0, OUT_COUNT * sizeof *out);
        for (int i = 0; c && i < c->n; i++) {
            eq[i] = 0.0;
            if (eq_nd)
                eq_nd[i] = eq_dt[i] = 0.0;
        }
        return;
    }
    bool over = eval_game_over(p, out);
    if (over || plies <= 0) {
        if (!over)
            static_value(s, p, out);
        leaf_values(p, out, c, eq);
        if (eq_nd)
            for (int i = 0; i < c->n; i++) {
                CubeEquities ce;
                cube_equities(out, &c->cs[i], cube_efficiency(p), &ce);
                eq_nd[i] = ce.no_double, eq_dt[i] = ce.double_take;
            }
        return;
    }
    int states = c ? c->n : 0;
    /* A cubeless value is kept; cubeful ones (a handful of cube states
     * each) are not. */
    EvalKey key;
    bool keep = false;
    /* The same node valued by a tree of another width is another value. */
    uint64_t tag = search_tag(s, side) ^ ((uint64_t)s->width * 0x9e3779b97f4a7c15u);
    if (states == 0 && cached(s, p, plies, tag, &key, &keep, out))
        return;
    Cubes below; /* only its first below.n states are ever read */
    below.n = 0;
    int nd_at[SEARCH_MAX_CUBES], dt_at[SEARCH_MAX_CUBES];
    for (int i = 0; i < states; i++) {
        nd_at[i] = child_state(&below, &c->cs[i], false);
        bool may = eq_dt || cubestate_may_double(&c->cs[i], SIDE_ROLLER);
        dt_at[i] = may ? child_state(&below, &c->cs[i], true) : -1;
    }
    MoveList *l = s->scratch->lists[plies];
    double sum[OUT_COUNT] = {0}, nd[SEARCH_MAX_CUBES] = {0}, dt[SEARCH_MAX_CUBES] = {0};
    double v[SEARCH_MAX_CUBES];
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++) {
            double w = d1 == d2 ? 1.0 : 2.0, o[OUT_COUNT];
            Position next = *p; /* no legal move: the turn passes */
            bool moved = movegen_generate(p, d1, d2, l) > 0;
            if (moved) {
                /* The last pass of a move choice values its last ply's
                 * picks without the table: nothing in the choice asks for
                 * them again, and looking them up and keeping them cost
                 * more than they save. (A hint's ranking, search_rank,
                 * keeps them.) */
                bool bare = s->leaves_bare;
                s->leaves_bare = bare || (plies == 1 && s->last_pass);
                next = l->moves[pick(s, p, l, side, s->width, o)].result;
                s->leaves_bare = bare;
            }
            pos_swap(&next);
            /* At the last ply the pick's own 0-ply value is the answer. */
            if (!moved || plies > 1) {
                node(s, &next, plies - 1, !side, o, &below, v, NULL, NULL);
                eval_invert(o);
            } else if (states > 0) {
                double theirs[OUT_COUNT];
                memcpy(theirs, o, sizeof theirs);
                eval_invert(theirs);
                leaf_values(&next, theirs, &below, v);
            }
            for (int k = 0; k < OUT_COUNT; k++)
                sum[k] += w * o[k];
            for (int i = 0; i < states; i++) {
                nd[i] += w * mover_value(&c->cs[i], &below.cs[nd_at[i]], v[nd_at[i]]);
                if (dt_at[i] >= 0)
                    dt[i] += w * mover_value(&c->cs[i], &below.cs[dt_at[i]], v[dt_at[i]]);
            }
        }
    for (int k = 0; k < OUT_COUNT; k++)
        out[k] = sum[k] / 36.0;
    if (keep && !s->stopped)
        eval_cache_put(s->scratch->cache, &key, out);
    for (int i = 0; i < states; i++) {
        nd[i] /= 36.0, dt[i] /= 36.0;
        eq[i] = nd[i];
        if (dt_at[i] >= 0 && cubestate_may_double(&c->cs[i], SIDE_ROLLER)) {
            double dbl = doubled_value(dt[i], cube_win_value(&c->cs[i], 1));
            if (dbl > eq[i])
                eq[i] = dbl;
        }
        if (eq_nd)
            eq_nd[i] = nd[i], eq_dt[i] = dt[i];
    }
}

/* Sets up a search `plies` deep from its root. A search 0 ply deep
 * values every position without the table: it meets no position twice,
 * and a lookup in a table of megabytes costs a third of the evaluation it
 * would save (a 0-ply move took 40 % longer with it; a rollout is nothing
 * but 0-ply moves). The picks inside a tree 2 plies deep or more choose
 * among more of pubeval's best (search.h). */
static void begin(Search *s, int plies)
{
    s->leaves_bare = plies <= 0;
    s->last_pass = false;
    s->width = plies >= 2 ? SEARCH_FILTER_DEEP : SEARCH_FILTER;
}

void search_eval(Search *s, const Position *p, int plies, int side, double out[OUT_COUNT])
{
    begin(s, plies);
    node(s, p, plies, side, out, NULL, NULL, NULL, NULL);
}

double search_cubeful(Search *s, const Position *p, int plies, int side, const CubeState *cs,
                      double out[OUT_COUNT])
{
    Cubes c = {1, {*cs}};
    double eq;
    begin(s, plies);
    node(s, p, plies, side, out, &c, &eq, NULL, NULL);
    return eq;
}

void search_cube_equities(Search *s, const Position *p, int plies, const CubeState *cs,
                          double out[OUT_COUNT], CubeEquities *eq)
{
    Cubes c = {1, {*cs}};
    double best, nd, dt;
    begin(s, plies);
    node(s, p, plies, 0, out, &c, &best, &nd, &dt);
    eq->no_double = nd;
    eq->double_take = dt;
    eq->double_pass = cube_win_value(cs, 1);
    eq->can_double = cubestate_access(cs, SIDE_ROLLER);
}

void search_roll_picks(Search *s, const Position *p, Position results[SEARCH_ROLLS],
                       double out[SEARCH_ROLLS][OUT_COUNT])
{
    MoveList *l = s->scratch->lists[1];
    int k = 0;
    begin(s, 0);
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++, k++) {
            if (movegen_generate(p, d1, d2, l) > 0) {
                results[k] = l->moves[pick(s, p, l, 0, s->width, out[k])].result;
                continue;
            }
            results[k] = *p; /* the turn passes */
            Position next = *p;
            pos_swap(&next);
            search_eval(s, &next, 0, 1, out[k]);
            eval_invert(out[k]);
        }
}

/* The turn after move m: the position and the cube state (cs, the
 * mover's) as the other side then sees them. */
static void their_turn(const Move *m, const CubeState *cs, Position *next, CubeState *other)
{
    *next = m->result;
    pos_swap(next);
    *other = *cs;
    cubestate_swap(other);
}

double search_cubeful_after(const Move *m, const double out[OUT_COUNT], const CubeState *cs)
{
    Position next;
    CubeState other;
    their_turn(m, cs, &next, &other);
    double theirs[OUT_COUNT];
    memcpy(theirs, out, sizeof theirs);
    eval_invert(theirs);
    return mover_value(cs, &other, cube_cubeful(theirs, &other, cube_efficiency(&next)));
}

/* Whether the root's moves are ranked by the cube: a cube state is given,
 * and the root ranks by the evaluator (not by pubeval's score, which has
 * no chances to give the cube model). */
static bool cubeful_root(const Search *s, const Position *p)
{
    return s->root_cube && rank_kind(s, eval_is_race(p), false) == RANK_EVAL;
}

typedef struct Cand {
    Move move;
    double value;
    double utility; /* the utility of out: value's, or breaking ties of a
                       cubeful value (a pass is worth the same after many
                       moves) */
    double cubeful; /* the mover's cubeful value, when the last pass gave one */
    int rank; /* at 0 ply */
    int index; /* in the root's list of moves (search_move_among) */
    int plies; /* the depth value and out are of */
    double out[OUT_COUNT];
} Cand;

/* Best first; ties keep the 0-ply order (qsort is not stable, so the
 * 0-ply rank breaks them). */
static int cand_cmp(const void *a, const void *b)
{
    const Cand *x = a, *y = b;
    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    if (x->utility != y->utility)
        return x->utility > y->utility ? -1 : 1;
    return x->rank - y->rank;
}

/* Deepens the kept candidates one ply at a time up to `plies`; before the
 * last, keeps only those within a window of the best of the ply below, as
 * gnubg's move filters do. The candidates end sorted best first at the
 * deepest ply, followed by those left out at each shallower ply, each
 * with the value of the ply it reached: the utility, or at the deepest
 * ply with `by_cube` the mover's cubeful value under `cube`, which the last
 * pass gives (cand.cubeful) whenever `cube` is not NULL. With bare_last
 * the last pass values its last ply's picks without the table (node). */
static void deepen(Search *s, Cand *cand, int kept, int plies, bool bare_last,
                   const CubeState *cube, bool by_cube)
{
    for (int depth = 1; depth <= plies; depth++) {
        s->last_pass = bare_last && depth == plies;
        /* The last pass values the cube state the other side then faces
         * too, in the same tree (what that costs is the cube model at its
         * leaves: a few per cent of a 2-ply move, docs/engine.md). */
        Cubes c; /* only its first c.n states are read */
        c.n = 0;
        if (cube && depth == plies) {
            c.n = 1;
            c.cs[0] = *cube;
            cubestate_swap(&c.cs[0]);
        }
        for (int k = 0; k < kept; k++) {
            Position next = cand[k].move.result;
            pos_swap(&next);
            double eq;
            node(s, &next, depth, 1, cand[k].out, &c, &eq, NULL, NULL);
            eval_invert(cand[k].out);
            cand[k].utility = search_utility(&s->util[0], cand[k].out);
            if (c.n)
                cand[k].cubeful = mover_value(cube, &c.cs[0], eq);
            cand[k].value = c.n && by_cube ? cand[k].cubeful : cand[k].utility;
            cand[k].plies = depth;
        }
        s->last_pass = false;
        qsort(cand, (size_t)kept, sizeof cand[0], cand_cmp);
        if (depth == plies)
            break;
        /* The window is in equity: a utility unit is worth w[WIN]/2 of it. */
        double unit = s->util[0].w[OUT_WIN] / 2.0;
        int n = 1;
        while (n < kept && (cand[0].value - cand[n].value) < SEARCH_WINDOW * unit)
            n++;
        kept = n;
    }
}

/* The mover's cubeful value after move m valued `plies` (> 0) below it by
 * the cubeful search under cs. */
static double cubeful_below(Search *s, const Move *m, int plies, const CubeState *cs)
{
    Position next;
    CubeState other;
    their_turn(m, cs, &next, &other);
    double o[OUT_COUNT];
    return mover_value(cs, &other, search_cubeful(s, &next, plies, 1, &other, o));
}

int search_rank(Search *s, const Position *p, int d1, int d2, int plies, const CubeState *cs,
                SearchCandidate *out, int max)
{
    MoveList *l = s->scratch->lists[0];
    int n = movegen_generate(p, d1, d2, l);
    if (plies > SEARCH_MAX_PLIES)
        plies = SEARCH_MAX_PLIES;
    begin(s, plies);
    bool race = eval_is_race(p);
    Rank root_rank = rank_kind(s, race, false);
    /* Every move's 0-ply outputs, ordered as search_move_among orders them (its
     * root ranking may be pubeval's: the outputs are the evaluator's
     * anyway, for showing). */
    Cand *all = malloc((size_t)(n > 0 ? n : 1) * sizeof *all);
    if (!all)
        return -1;
    for (int i = 0; i < n; i++) {
        bool have;
        all[i].move = l->moves[i];
        all[i].value = score_move(s, &l->moves[i], race, root_rank, 0, all[i].out, &have);
        if (!have)
            after_move(s, &l->moves[i], all[i].out);
        all[i].utility = all[i].value;
        all[i].rank = i;
        all[i].plies = 0;
    }
    qsort(all, (size_t)n, sizeof *all, cand_cmp);
    for (int i = 0; i < n; i++)
        all[i].rank = i;
    /* The moves search_move_among deepens: the first SEARCH_KEEP, when it
     * deepens at all. At 0 ply it ranks every move by the cube, if by it. */
    bool cubeful = cubeful_root(s, p);
    if (n > 1 && plies > 0)
        deepen(s, all, n < SEARCH_KEEP ? n : SEARCH_KEEP, plies, false, cs, cubeful);
    else if (cubeful) {
        for (int i = 0; i < n; i++) /* utility keeps the 0-ply value */
            all[i].value = search_cubeful_after(&all[i].move, all[i].out, s->root_cube);
        qsort(all, (size_t)n, sizeof *all, cand_cmp);
    }
    /* The cubeful values: the last pass's where it gave them, else the
     * cube model's at 0 ply or the cubeful search's at the ply reached. */
    int k = 0;
    for (; k < n && k < max; k++) {
        out[k].move = all[k].move;
        out[k].plies = all[k].plies;
        memcpy(out[k].out, all[k].out, sizeof all[k].out);
        out[k].value = search_utility(&s->util[0], all[k].out);
        out[k].cubeful = all[k].plies == 0 ? search_cubeful_after(&all[k].move, all[k].out, cs)
                         : all[k].plies == plies ? all[k].cubeful
                                                 : cubeful_below(s, &all[k].move, all[k].plies, cs);
    }
    free(all);
    return k;
}

int search_move_among(Search *s, const Position *p, const MoveList *l, int plies,
                      double out[OUT_COUNT])
{
    double o[OUT_COUNT];
    if (plies > SEARCH_MAX_PLIES)
        plies = SEARCH_MAX_PLIES;
    begin(s, l->count == 1 ? 0 : plies);
    if (l->count > 1 && plies <= 0 && cubeful_root(s, p)) {
        /* Every move valued, the best by the cube model after it, ties
         * broken by the utility (search_rank's order). */
        int best = 0;
        double top = 0.0, top_utility = 0.0;
        for (int i = 0; i < l->count; i++) {
            after_move(s, &l->moves[i], o);
            double v = search_cubeful_after(&l->moves[i], o, s->root_cube);
            double u = search_utility(&s->util[0], o);
            if (i == 0 || v > top || (v == top && u > top_utility)) {
                top = v, top_utility = u, best = i;
                if (out)
                    memcpy(out, o, sizeof o);
            }
        }
        return best;
    }
    if (l->count == 1 || plies <= 0) {
        int i = pick(s, p, l, 0, 0, o);
        if (out)
            memcpy(out, o, sizeof o);
        return i;
    }
    /* Keep the SEARCH_KEEP best at 0 ply (insertion into a short list). */
    int keep[SEARCH_KEEP], kept = 0;
    double kval[SEARCH_KEEP];
    bool race = eval_is_race(p);
    Rank root_rank = rank_kind(s, race, false);
    for (int i = 0; i < l->count; i++) {
        bool have;
        double v = score_move(s, &l->moves[i], race, root_rank, 0, o, &have);
        keep_best(keep, kval, &kept, SEARCH_KEEP, i, v);
    }
    /* The candidates are copied out: the deeper levels reuse no list of
     * this one, but a copy keeps the root list free for them anyway. */
    Cand cand[SEARCH_KEEP];
    for (int k = 0; k < kept; k++) {
        cand[k].move = l->moves[keep[k]];
        cand[k].rank = k;
        cand[k].index = keep[k];
    }
    bool by_cube = cubeful_root(s, p);
    deepen(s, cand, kept, plies, true, by_cube ? s->root_cube : NULL, by_cube);
    if (out)
        memcpy(out, cand[0].out, sizeof cand[0].out);
    return cand[0].index;
}
