/* player_judged.h - the frame of players that only know how to choose a
 * move (pubeval, random): the legal moves are generated here and the
 * kind's pick chooses one; every other question goes to a judge, the
 * engine at 0 ply. */
#ifndef SHESH_PLAYER_JUDGED_H
#define SHESH_PLAYER_JUDGED_H

#include "engine.h"
#include "player.h"

/* The index of the chosen move in legal (movegen_generate of p for d1-d2,
 * at least one move). */
typedef int (*JudgedPickFn)(const Position *p, int d1, int d2, const MoveList *legal);

/* judge: shared, read-only, must outlive the player. */
Player *player_judged_new(const char *name, JudgedPickFn pick, const Engine *judge, Err *err);

#endif
