/* bench_engine.h - the engine's half of `shesh bench`: a signature over its
 * decisions (moves at 0, 1 and 2 plies, cube, take and resignation answers
 * under fixed cube states, on a fixed set of positions) and its static
 * evaluations per second on one thread. */
#ifndef SHESH_BENCH_ENGINE_H
#define SHESH_BENCH_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "err.h"
#include "position.h"

/* At most this many positions are decided, evenly spaced over those given. */
#define BENCH_ENGINE_POSITIONS 512

typedef struct BenchEngineResult {
    uint64_t signature; /* FNV-1a over every decision, in a fixed order */
    int positions;      /* positions decided */
    long decisions;     /* decisions hashed */
    double evals_per_second;
} BenchEngineResult;

/* Decides on up to BENCH_ENGINE_POSITIONS of given[0..all-1], then times
 * static evaluations on them for about `seconds`. False with err when there
 * is no position or no memory. */
bool bench_engine_run(const Engine *e, const Position *given, int all, double seconds,
                      BenchEngineResult *res, Err *err);

#endif
