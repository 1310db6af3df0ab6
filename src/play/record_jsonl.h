/* record_jsonl.h - a refereed game as one line of JSON, for programs that
 * read a run's games (the .jsonl.gz beside its .mat.gz record):
 *
 *   {"pair": 3, "half": 1, "game": 1, "players": ["A", "B"], "a_seat": 1,
 *    "match_to": 0, "rules": "...", "score": [0, 0],
 *    "events": [{"action": "opening", "dice": [5, 2]},
 *               {"player": 0, "action": "move", "dice": [5, 2],
 *                "position": "4HPwATDgc/ABMA", "move": "13/8 13/11"}, ...],
 *    "winner": 0, "points": 1, "kind": "single game", "scored": "single game",
 *    "end": "over", "cube": 1, "last": true, "seed": "1",
 *    "counts": [{"doubles": 0, ...}, {...}]}
 *
 * Players are A 0 and B 1 (the record's columns), whatever their seat;
 * "game" and "score" count in the match, or along the whole money session;
 * "position" is the Position ID before the move, from the mover. A forfeit
 * adds "fault": {"player", "status", "position" (a GNUBG-ID), "what"}.
 * "kind" is how the game ended on the board, "scored" what the rules made
 * of it (a star mars without the rule scores a backgammon); "counts" are
 * each player's cube actions and resignations (RefereeCounts without the
 * times, which differ from run to run).
 * Nothing in it depends on time or machine: the same games give the same
 * bytes. */
#ifndef SHESH_RECORD_JSONL_H
#define SHESH_RECORD_JSONL_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "record.h"
#include "referee.h"

/* Where a game was played in its run, and what it counted for. */
typedef struct RecordJsonlPlace {
    uint64_t seed;    /* the run's */
    int64_t pair;
    int half;         /* 0: A in seat 0, 1: A in seat 1 */
    int a_seat;
    bool last;        /* the last game of its half (its match, or the one
                         money game): the half is complete */
    ScoreKind scored; /* the kind as the rules scored it (tally.h) */
    int number;       /* the game's number: in its match, or in the
                         money session */
    int score[2];     /* the score before it: in its match, or the money
                         session's running totals */
} RecordJsonlPlace;

/* Appends game `game` of r (finished, refereed as g) and a '\n'. */
void record_jsonl_game(const Record *r, int game, const RefereeGame *g,
                       const RecordJsonlPlace *at, Buf *out);

#endif
