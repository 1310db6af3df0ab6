/* player_engine.h - the engine as a player: every decision by engine.h at a
 * fixed depth, with scratch memory made once (its own, or lent). */
#ifndef SHESH_PLAYER_ENGINE_H
#define SHESH_PLAYER_ENGINE_H

#include "engine.h"
#include "player.h"

/* e (shared, read-only: it must outlive the player) deciding at `plies`.
 * name: for messages (NULL: the engine's id and the plies). */
Player *player_engine_new(const Engine *e, int plies, const char *name, Err *err);

/* The same deciding with sc, the caller's scratch, instead of one of its
 * own: sc must outlive the player and serve one decision at a time (a
 * server's worker lends its own, so that its player and its evaluations
 * keep their values in one table). */
Player *player_engine_new_on(const Engine *e, int plies, const char *name, EngineScratch *sc,
                             Err *err);

/* Lends the player's decisions a stop flag (engine_scratch_set_stop): set
 * by another thread, the decision under way ends at once with a worthless
 * answer. pl must be a player made by player_engine_new or
 * player_engine_new_on (whose flag is then the lent scratch's); NULL
 * clears it. */
void player_engine_set_stop(Player *pl, const atomic_bool *stop);

#endif
