/* player_spec.h - a player as the command line names it:
 *   shesh[:plies=N][:weights=FILE]
 *                     the engine in process at N plies (0..4, default 0),
 *                     with the network file FILE instead of the one
 *                     compiled in (FILE is the rest of the spec);
 *                     ENGINE[:N] and ENGINE:plies=N name an engine by its
 *                     id (default, calibrated)
 *   pubeval           Tesauro's pubeval (player_pubeval.h)
 *   random            a move at random (player_random.h)
 *   tcp:HOST:PORT     a server of gnubg's external-player protocol
 *   unix:PATH         the same on a Unix socket (remote:ADDR: either)
 *   gnubg[:plies=N]   GNU Backgammon itself, started as such a server
 *                     (gnubg_server.h) by whoever runs the games
 *   ubgi:CMD          an engine speaking UBGI on its stdin and stdout, CMD
 *                     run by /bin/sh -c (player_ubgi.h)
 * any of them after NAME= to give it a display name (1 to 31 letters,
 * digits and . _ - +). A spec is read once; each thread then makes its own
 * players of it. */
#ifndef SHESH_PLAYER_SPEC_H
#define SHESH_PLAYER_SPEC_H

#include <stdbool.h>

#include "engine.h"
#include "player.h"

typedef enum PlayerKind {
    PLAYER_KIND_ENGINE,
    PLAYER_KIND_PUBEVAL,
    PLAYER_KIND_RANDOM,
    PLAYER_KIND_REMOTE,
    PLAYER_KIND_GNUBG,
    PLAYER_KIND_UBGI
} PlayerKind;

#define PLAYER_SPEC_NAME_MAX 31

typedef struct PlayerSpec {
    PlayerKind kind;
    char engine[32]; /* the engine to make: the one that plays (ENGINE) or
                        answers the cube for pubeval and random ("default");
                        "" for remote, gnubg and ubgi */
    int plies;       /* ENGINE and GNUBG */
    char weights[256]; /* ENGINE: the network file, or "" (compiled in) */
    char addr[256];  /* remote: as net_client_connect() reads it */
    char command[300]; /* ubgi: the shell command after "ubgi:" */
    char name[PLAYER_SPEC_NAME_MAX + 1]; /* display name: NAME= or made
                                             from the spec ("shesh-0") */
    bool named;      /* NAME= was given */
    char text[300];  /* as given */
} PlayerSpec;

/* False (err says why) for a spec none of the above. */
bool player_spec_parse(const char *text, PlayerSpec *spec, Err *err);

/* Whether the network file of an engine player can be read (false, err
 * quoting the spec and saying why, when not): to refuse a bad file before
 * a run makes anything. True for a player without one. */
bool player_spec_check(const PlayerSpec *spec, Err *err);

/* A new player of spec; e is the engine spec->engine names (NULL for
 * remote and ubgi), shared: it must outlive the player. reply_s: the seconds a
 * remote or UBGI player may take to answer (and a UBGI engine
 * to start). Not for PLAYER_KIND_GNUBG, whose
 * server the caller starts (then a remote player at its address). */
Player *player_spec_make(const PlayerSpec *spec, const Engine *e, double reply_s, Err *err);

#endif
