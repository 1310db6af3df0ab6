/* eval_static.h - the 0-ply evaluator: five probabilities for a position
 * whose player on roll (side 1) is about to roll.
 *
 * Games that are over are scored exactly; races go to eval_race.c (exact
 * bear-off database when both sides are home, a pip-based model otherwise,
 * refined by a race network where there is one);
 * contact positions to the TD-trained network of nn.c, or without one
 * to eval_contact.c (pubeval calibrated on self-play). */
#ifndef SHESH_EVAL_STATIC_H
#define SHESH_EVAL_STATIC_H

#include <stdbool.h>
#include <stdint.h>

#include "bearoff.h"
#include "eval_outputs.h"
#include "position.h"

struct NnWeights;

/* What a search needs to evaluate leaves; read-only, shared by threads.
 * net: the trained contact network, or NULL for calibrated pubeval. id
 * tells evaluators apart in a table of their values (eval_cache.h): equal
 * for two that give the same values (the network file's hash), different
 * otherwise. */
typedef struct EvalCtx {
    const BearoffDb *bearoff;
    const struct NnWeights *net;
    const struct NnWeights *race_net; /* races not all home, or NULL: the model */
    uint64_t id;
} EvalCtx;

/* cache: the caller's own RaceCache (eval_race.h), or NULL. */
struct RaceCache;
void eval_static(const EvalCtx *ctx, struct RaceCache *cache, const Position *p,
                 double out[OUT_COUNT]);

/* True when no checker of either side has an opposing checker still in
 * front of it: nobody can hit or be hit any more. */
bool eval_is_race(const Position *p);

/* True for a race with a checker of either side still outside its home
 * board: the races the race model (or a race network) values, where the
 * bear-off database, which values those with every checker home exactly,
 * cannot. What `shesh label --race` labels and a race network learns. */
bool eval_race_outside(const Position *p);

/* Whether a network of that kind values p in play: a race network the
 * races with a checker outside home, a contact network the positions with
 * contact. What a network is labelled with and judged by. */
bool eval_network_values(bool race, const Position *p);

#endif
