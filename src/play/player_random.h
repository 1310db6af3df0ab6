/* player_random.h - a player that moves at random, for the floor of any
 * scale: one of the legal moves picked by a hash of position and roll (so
 * a game is still determined by its dice). Its cube and resignation answers
 * are the engine's at 0 ply. */
#ifndef SHESH_PLAYER_RANDOM_H
#define SHESH_PLAYER_RANDOM_H

#include "engine.h"
#include "player.h"

/* judge answers the cube and resignation questions (shared, read-only: it
 * must outlive the player). */
Player *player_random_new(const Engine *judge, Err *err);

#endif
