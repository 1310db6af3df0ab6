/* player_engine.h - the engine as a player: every decision by engine.h at a
 * fixed depth, with scratch memory of its own made once. */
#ifndef SHESH_PLAYER_ENGINE_H
#define SHESH_PLAYER_ENGINE_H

#include "engine.h"
#include "player.h"

/* e (shared, read-only: it must outlive the player) deciding at `plies`.
 * name: for messages (NULL: the engine's id and the plies). */
Player *player_engine_new(const Engine *e, int plies, const char *name, Err *err);

/* Lends the player's decisions a stop flag (engine_scratch_set_stop): set
 * by another thread, the decision under way ends at once with a worthless
 * answer. pl must be a player made by player_engine_new; NULL clears it. */
void player_engine_set_stop(Player *pl, const atomic_bool *stop);

#endif
