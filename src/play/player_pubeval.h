/* player_pubeval.h - Tesauro's pubeval as a player: the yardstick of
 * backgammon programs. It moves by pubeval's score alone (its race weights
 * in races), ignoring cube and score; its cube and resignation answers are
 * the engine's at 0 ply, which pubeval knows nothing about. */
#ifndef SHESH_PLAYER_PUBEVAL_H
#define SHESH_PLAYER_PUBEVAL_H

#include "engine.h"
#include "player.h"

/* judge answers the cube and resignation questions (shared, read-only: it
 * must outlive the player). */
Player *player_pubeval_new(const Engine *judge, Err *err);

#endif
