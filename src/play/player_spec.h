/* player_spec.h - a player as the command line names it:
 *   ENGINE[:PLIES]  the engine (default, calibrated) at 0..4 plies
 *   pubeval         Tesauro's pubeval (player_pubeval.h)
 *   random          a move at random (player_random.h)
 *   remote:ADDR     a server of gnubg's external-player protocol
 * A spec is read once; each thread then makes its own players of it. */
#ifndef SHESH_PLAYER_SPEC_H
#define SHESH_PLAYER_SPEC_H

#include <stdbool.h>

#include "engine.h"
#include "player.h"

typedef enum PlayerKind {
    PLAYER_KIND_ENGINE,
    PLAYER_KIND_PUBEVAL,
    PLAYER_KIND_RANDOM,
    PLAYER_KIND_REMOTE
} PlayerKind;

typedef struct PlayerSpec {
    PlayerKind kind;
    char engine[32]; /* the engine to make: the one that plays (ENGINE) or
                        answers the cube for pubeval and random ("default");
                        "" for remote */
    int plies;       /* ENGINE only */
    char addr[256];  /* remote only */
    char text[300];  /* as given */
} PlayerSpec;

/* False (err says why) for a spec none of the above. PLIES is accepted,
 * and ignored, after pubeval and random. */
bool player_spec_parse(const char *text, PlayerSpec *spec, Err *err);

/* A new player of spec; e is the engine spec->engine names (NULL for
 * remote), shared: it must outlive the player. */
Player *player_spec_make(const PlayerSpec *spec, const Engine *e, Err *err);

#endif
