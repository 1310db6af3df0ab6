/* search.h - n-ply lookahead (expectimax over the 21 rolls).
 *
 * Evaluating a position at n plies (player on roll about to roll): for each
 * of the 21 rolls, the player's best move by the 0-ply evaluator, then that
 * move's result evaluated at n - 1 plies; the average over the rolls,
 * weighted 1/36 for doubles and 2/36 for the others. 0 plies is the static
 * evaluator. A roll with no legal move passes the turn.
 *
 * Choosing a move at n plies: every legal move is scored at 0 ply, the best
 * SEARCH_KEEP are scored again at 1 ply (the other side to roll), those of
 * them within SEARCH_WINDOW of the best at 2 plies,
 * and so on up to n plies; the best at n plies is played.
 *
 * Moves are compared by a utility that is linear in the five outputs (money:
 * cubeless equity; match: cubeless match winning chance), one per side as
 * the scores differ; in a game with the cube the root's last pass compares
 * them by the mover's cubeful value instead (Search.root_cube). Scratch memory (a move list per level, a race cache,
 * a table of computed values: eval_cache.h) belongs to the caller: a
 * SearchScratch made once and lent to one search at a time, so that a
 * search allocates nothing (but search_rank, a tool's call, its list of
 * every candidate). */
#ifndef SHESH_SEARCH_H
#define SHESH_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cube.h"
#include "cube_state.h"
#include "err.h"
#include "eval_static.h"
#include "movegen.h"

#define SEARCH_MAX_PLIES 4
/* Since 2026-12-05 every move kept from the 0-ply ranking goes deeper
 * while it is within 0.16 of the best (the best 3 within 0.10 before): at
 * 2 plies the benchmark went from 1.15 to 0.83 thousandths a decision
 * (crashed positions 5.93 to 2.51) for 1.7 times the time a decision
 * (docs/engine.md). */
#define SEARCH_KEEP 8      /* moves kept from the 0-ply ranking */
#define SEARCH_WINDOW 0.16 /* ... and deeper only those within this equity of the best */
/* Inside the tree the network chooses among pubeval's best SEARCH_FILTER
 * moves, in a search 2 plies deep or more among SEARCH_FILTER_DEEP (since
 * 2026-12-04; 5 before): at 2 plies that took the benchmark from 1.59 to
 * 1.30 thousandths a decision and won +0.025 +- 0.013 a game, for about
 * twice the time a decision; at 1 ply 16 was level in play with 5 and
 * costs twice as much (docs/engine.md). make train's builds set
 * -DSEARCH_FILTER_DEEP=5: its label sets were made so. */
#define SEARCH_FILTER 5
#ifndef SEARCH_FILTER_DEEP
#define SEARCH_FILTER_DEEP 16
#endif
_Static_assert(SEARCH_FILTER <= SEARCH_FILTER_DEEP, "a pick's list holds SEARCH_FILTER_DEEP");
/* Whether the filter serves race moves inside the tree too (since
 * 2026-12-04; before, pubeval's race weights chose them alone). make
 * train's builds set it to 0 (-DSEARCH_RACE_FILTER=0): its label sets
 * were made so, and are made again the same only so. */
#ifndef SEARCH_RACE_FILTER
#define SEARCH_RACE_FILTER 1
#endif
/* Cube states a node of a cubeful search is valued for at once: each level
 * holds at most twice the states of the one above, starting from one. */
#define SEARCH_MAX_CUBES (2 << SEARCH_MAX_PLIES)

/* Value of outputs (from the mover's view) for one side. */
typedef struct Utility {
    double base;
    double w[OUT_COUNT];
} Utility;

/* The memory of one search at a time: a move list per level (240 KB each:
 * too big for the stacks of server threads), a race cache, emptied at the
 * start of each search (search_init), and a table of computed values
 * (eval_cache.h), kept from one search to the next. */
typedef struct SearchScratch {
    MoveList *lists[SEARCH_MAX_PLIES + 1];
    struct RaceCache *race_cache;
    struct EvalCache *cache; /* NULL: every value computed afresh */
    bool cache_lent;         /* the cache is its lender's, not freed here */
    /* Set by another thread when nobody wants the answer any more (its
     * client is gone, its time is up): the search then ends at its next
     * node and its results mean nothing. NULL: never. */
    const atomic_bool *stop;
} SearchScratch;

/* Allocates every part at once, a value table of about cache_entries
 * entries (0: none) unless it is lent one (lent not NULL: a table the
 * caller frees after the scratch, which other threads' scratches may use
 * at the same time); false (err filled) if memory is short, with nothing
 * left to free. */
bool search_scratch_init(SearchScratch *sc, size_t cache_entries, struct EvalCache *lent,
                         Err *err);
void search_scratch_done(SearchScratch *sc);

typedef struct Search {
    const EvalCtx *eval;
    Utility util[2]; /* [0]: the player on roll at the root, [1]: the other */
    SearchScratch *scratch; /* lent by the caller for this search */
    uint64_t tag[2]; /* the value table's tag of a deeper value, by side */
    bool tagged;     /* tag made (search.c) */
    int width;       /* how many moves a pick inside the tree looks at */
    bool stopped;    /* a node ended early: its values are not kept */
    bool last_pass;  /* deepening the candidates for the last time */
    bool leaves_bare; /* valuing without the table (search.c) */
    /* Set (a game with the cube): the root's move is the best by the
     * mover's cubeful value under this state at the deepest ply, as gnubg
     * chooses; NULL (cubeless play): by the utility. */
    const CubeState *root_cube;
    long nodes; /* static evaluations made (statistics) */
    long hits;  /* values found in the scratch's table (statistics) */
} Search;

/* Sets up a search on the caller's scratch; there is nothing to undo. */
void search_init(Search *s, const EvalCtx *eval, const Utility util[2], SearchScratch *scratch);

double search_utility(const Utility *u, const double out[OUT_COUNT]);

/* Evaluates p (side 1 on roll, who is `side` of util[]) at `plies`. */
void search_eval(Search *s, const Position *p, int plies, int side, double out[OUT_COUNT]);

/* Cubeful value of p (side 1 on roll, who is `side` of util[]) under the
 * cube state cs at `plies`, as gnubg's evaluator carries the cube through
 * its lookahead: at 0 ply the cube model's (cube.h) on the static chances;
 * deeper, every player in the tree takes his right cube action on the values
 * one ply below (see search.c). Money: per unit of cs's cube; match: match
 * winning chance. out gets the cubeless outputs search_eval gives. */
double search_cubeful(Search *s, const Position *p, int plies, int side, const CubeState *cs,
                      double out[OUT_COUNT]);

/* The player on roll's cube equities (ND, DT, DP) at `plies`, the same way,
 * the double's equities even where the rules forbid it; out as above. */
void search_cube_equities(Search *s, const Position *p, int plies, const CubeState *cs,
                          double out[OUT_COUNT], CubeEquities *eq);

/* Best move of the player on roll (util[0]) among legal, the list of the
 * legal moves for the roll (movegen_generate of p, at least one move): its
 * index there. out (may be NULL) gets the chosen move's outputs from the
 * mover's view. legal may be the scratch's root list (lists[0]): the
 * deeper levels use lists of their own. */
int search_move_among(Search *s, const Position *p, const MoveList *legal, int plies,
                      double out[OUT_COUNT]);

/* The mover's cubeful value after his move m, out his outputs after it:
 * the cube model's value for the other side, then on roll under cs turned
 * round, in the mover's units (per unit of cs's cube, or his match winning
 * chance). */
double search_cubeful_after(const Move *m, const double out[OUT_COUNT], const CubeState *cs);

/* The rolls of search_roll_picks, in this order: 1-1, 1-2 .. 1-6, 2-2 ..
 * 6-6. */
#define SEARCH_ROLLS 21

/* For each of the 21 rolls, the move of the player on roll (util[0]) as
 * search_eval picks them inside its tree (pubeval's few best, then the
 * evaluator: cheap, and not always search_move_among's), its result (the mover's
 * view) and its 0-ply outputs (the mover's view). A roll without a legal
 * move leaves p as it is, valued with the other side on roll. */
void search_roll_picks(Search *s, const Position *p, Position results[SEARCH_ROLLS],
                       double out[SEARCH_ROLLS][OUT_COUNT]);

/* A legal move as search_rank values it. */
typedef struct SearchCandidate {
    Move move;
    int plies;              /* the depth it was valued at */
    double out[OUT_COUNT];  /* its outputs from the mover's view */
    double value;           /* search_utility of them for util[0] */
    double cubeful;         /* the mover's cubeful value after it under
                               search_rank's cs, at the ply it reached */
} SearchCandidate;

/* Every legal move (at most max) of the player on roll for the roll,
 * ranked as search_move_among ranks them: its choice first, then the moves it
 * valued at the deepest ply, then those it left out at each shallower ply,
 * then the rest at 0 ply; each with the outputs of the ply it reached and
 * the mover's cubeful value under cs there (those at the deepest ply from
 * the same tree as their outputs). Returns how many, or -1 when memory is
 * short. */
int search_rank(Search *s, const Position *p, int d1, int d2, int plies, const CubeState *cs,
                SearchCandidate *out, int max);

#endif
