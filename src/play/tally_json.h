/* tally_json.h - a Tally read back from the JSON tally_write_json wrote
 * (into a run's summary, as "tally"), with jansson, for `shesh stats
 * merge`: every sum an integer, so that shards merge exactly. Not to be
 * included beside util/json.h, whose names jansson's clash with.
 *
 *   {"games": G, "matches": M,
 *    "pairs": {"n", "sum", "sum_sq", "games", "games_sq", "cross"},
 *    "sides": [{"points": ..., "wins": ..., ...}, {...}]}
 *
 * (the side fields are tally_side_fields). */
#ifndef SHESH_TALLY_JSON_H
#define SHESH_TALLY_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "err.h"
#include "tally.h"

/* Reads what tally_write_json wrote; every field must be there, a whole
 * number and not negative where a count cannot be. */
bool tally_json_read(const json_t *v, Tally *t, Err *err);

#endif
