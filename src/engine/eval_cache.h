/* eval_cache.h - values the search has computed, kept for the next time it
 * meets the same position at the same depth.
 *
 * A fixed table, kept from one search to the next: a server asked the same
 * board again, and a 2-ply search whose second pass meets the positions of
 * its first, find their values here instead of evaluating them again
 * (search.c says which searches use it). A search's scratch makes its own
 * (one per player or thread), or is lent one that the scratches of several
 * threads use at once (a server's workers, so that a board one of them
 * answered is found by the others): gets and puts may run in any threads
 * at the same time. Each bucket has a sequence number that a write makes
 * odd while under way: a read that meets a write is a miss, and a write
 * that meets another is dropped, so no lock is ever waited for and a value
 * read is always one whole value put.
 *
 * The key holds the position and the depth; what a value depends on
 * besides goes into its tag: the evaluator (its network's hash), and for a
 * value searched deeper than 0 ply how each side values the outputs (the
 * utilities: the score and cube change which moves the tree picks). A
 * position is kept exactly (checker counts, four bits each); the tag is a
 * 64-bit hash, so two evaluators or utilities are told apart unless their
 * hashes collide (about 2^-64 for a pair). An answer found here is the very
 * value computed before, so a search gives the same results with the cache
 * as without.
 *
 * Each bucket holds two entries: the deeper (more costly) value of the two
 * stays when a shallower one arrives, and the other entry is replaced. */
#ifndef SHESH_EVAL_CACHE_H
#define SHESH_EVAL_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eval_outputs.h"
#include "position.h"

/* Entries a search's scratch gets unless its maker says otherwise: 5 MB,
 * the values of a few hundred 1-ply or a few dozen 2-ply decisions. */
#define EVAL_CACHE_DEFAULT_ENTRIES ((size_t)1 << 16)

typedef struct EvalCache EvalCache;

/* A position and what its value depends on besides. */
typedef struct EvalKey {
    uint64_t board[4]; /* 50 counts of four bits, then the depth */
    uint64_t tag;
} EvalKey;

/* A table of about `entries` entries (rounded down to a power of two, at
 * least 2), all empty: NULL when memory is short. */
EvalCache *eval_cache_new(size_t entries);
void eval_cache_free(EvalCache *c);

/* How many entries the table holds. */
size_t eval_cache_entries(const EvalCache *c);

/* The key of p valued at `plies` under tag. False for a position a key
 * cannot hold (a point with more than 15 checkers): such a value is not
 * kept. */
bool eval_cache_key(const Position *p, int plies, uint64_t tag, EvalKey *k);

/* The outputs kept under k: true and out filled, or false. */
bool eval_cache_get(const EvalCache *c, const EvalKey *k, double out[OUT_COUNT]);

/* Keeps out under k. */
void eval_cache_put(EvalCache *c, const EvalKey *k, const double out[OUT_COUNT]);

/* Forgets every entry; not while another thread uses the table. */
void eval_cache_clear(EvalCache *c);

#endif
