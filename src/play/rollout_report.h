/* rollout_report.h - what `shesh rollout` reports of one position: the
 * position and the rollout's settings, and the exact sums of each thing
 * rolled out (the position itself, or each candidate move of a roll). The
 * text and JSON printed are made from this alone, and `shesh rollout
 * merge` reads it back from the JSON of each shard (rollout_json.h) and
 * adds the shards up (rollout_report_merge), so a merge prints exactly
 * what one run would. */
#ifndef SHESH_ROLLOUT_REPORT_H
#define SHESH_ROLLOUT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "movetext.h"
#include "posid.h"
#include "rollout_sums.h"

#define ROLLOUT_INPUT_MAX 512 /* the longest ID a report keeps */
#define ROLLOUT_RULES_MAX 256 /* rules_describe's line, with room */
#define ROLLOUT_MOVES_MAX 32  /* candidate moves rolled out at most */

typedef struct RolloutReportMove {
    int rank;                      /* the engine's order (engine_hint_moves), from 1 */
    char move[MOVETEXT_MAX];       /* as movetext_display writes it */
    char position[POSID_LEN + 1];  /* after it, the mover's view */
    RolloutSums sums;              /* the mover's values */
} RolloutReportMove;

typedef struct RolloutReport {
    char input[ROLLOUT_INPUT_MAX + 1];
    char rules[ROLLOUT_RULES_MAX]; /* rules_describe() of the game's rules */
    int dice[2];         /* 0 0: the position before the roll; else the roll
                            whose candidate moves were rolled out */
    int match_to;        /* 0 money */
    int score[2];        /* the player to act's, the other's (match) */
    int cube;
    int cube_owner;      /* -1 centred, 1 the player to act, 0 the other */
    int plies, truncate; /* the players' depth; turns, 0 to the end */
    char engine[48];     /* engine_id of the players ("" in files from
                            before it was written) */
    char network[17];    /* engine_network: the network file's hash */
    bool cubeful, vr;
    uint64_t seed;
    int64_t trials;      /* asked of the whole run */
    int shard[2];        /* K, N (1 1: the whole run) */
    bool interrupted;
    int count;           /* 1 without dice, else the moves rolled out */
    RolloutReportMove moves[ROLLOUT_MOVES_MAX]; /* [0] alone without dice
                                                   (rank 0, no move) */
} RolloutReport;

/* into += add: two shards of the same run (the same position, roll,
 * settings, seed, shard count and moves), each trial counted once. The
 * shard numbers are the caller's to check. False (into unchanged) when
 * they differ or a sum overflows. */
bool rollout_report_merge(RolloutReport *into, const RolloutReport *add, Err *err);

/* The checks every report passes: sizes within bounds, the counts not
 * negative, no more trials than asked, the same trials for every move. */
bool rollout_report_valid(const RolloutReport *r, Err *err);

#endif
