/* record_jsonl.h - a refereed game as one line of JSON, for programs that
 * read a run's games (the .jsonl.gz beside its .mat.gz record):
 *
 *   {"pair": 3, "half": 1, "game": 1, "players": ["A", "B"], "a_seat": 1,
 *    "match_to": 0, "rules": "...", "score": [0, 0],
 *    "events": [{"action": "opening", "dice": [5, 2]},
 *               {"player": 0, "action": "move", "dice": [5, 2],
 *                "position": "4HPwATDgc/ABMA", "move": "13/8 13/11"}, ...],
 *    "winner": 0, "points": 1, "kind": "single", "end": "over", "cube": 1}
 *
 * Players are A 0 and B 1 (the record's columns), whatever their seat;
 * "position" is the Position ID before the move, from the mover. A forfeit
 * adds "fault": {"player", "status", "position" (a GNUBG-ID), "what"}.
 * Nothing in it depends on time or machine: the same games give the same
 * bytes. */
#ifndef SHESH_RECORD_JSONL_H
#define SHESH_RECORD_JSONL_H

#include <stdint.h>

#include "buf.h"
#include "record.h"
#include "referee.h"

/* Appends game `game` of r (finished, refereed as g) and a '\n'. pair and
 * half say where in the run it was played; a_seat is A's seat. */
void record_jsonl_game(const Record *r, int game, const RefereeGame *g, int64_t pair, int half,
                       int a_seat, Buf *out);

#endif
