/* player.h - whoever makes the decisions of one side: the engine at some
 * depth, a yardstick (pubeval, random), or a program behind a socket.
 *
 * One function per decision. Positions are seen as the engine sees them
 * (engine.h): side[SIDE_ROLLER] is the player on roll (who rolls, moves or
 * has just doubled), and the CubeState uses the same sides. Every call
 * returns PLAYER_OK or the reason it failed, with a message in err (which
 * may be NULL); on a failure the answer is left untouched. "No legal move"
 * is an answer (PLAYER_OK with *moved false), not a failure.
 *
 * A player is an ops table and the state of its kind (player_engine.c,
 * player_pubeval.c, player_random.c, player_remote.c); it owns what it
 * needs to decide (scratch memory, a connection) and answers one question
 * at a time: give each thread its own. player_cancel alone may be called
 * from another thread. */
#ifndef SHESH_PLAYER_H
#define SHESH_PLAYER_H

#include <stdatomic.h>
#include <stdbool.h>

#include "cube_state.h"
#include "err.h"
#include "movegen.h"
#include "position.h"

typedef enum PlayerStatus {
    PLAYER_OK,
    PLAYER_ILLEGAL,      /* an answer the rules do not allow (a move that is
                            not one of the legal moves, a beaver where none
                            may be played) */
    PLAYER_UNREADABLE,   /* a reply that is no answer to the question */
    PLAYER_TIMEOUT,      /* no answer in the time allowed */
    PLAYER_DISCONNECTED, /* the connection to the player is gone */
    PLAYER_NO_MEMORY,
    PLAYER_CANCELLED,    /* player_cancel was called */
    PLAYER_BAD_QUESTION  /* the question makes no sense (dice outside 1..6) */
} PlayerStatus;

/* "illegal answer", "timeout"...: for messages. */
const char *player_status_name(PlayerStatus st);

typedef enum PlayerCube { PLAYER_ROLL, PLAYER_DOUBLE } PlayerCube;

/* The answer to a double. A beaver takes and redoubles at once; a raccoon
 * does the same to a beaver. PLAYER_TAKE_NOT_BEAVER is what player_take
 * makes of a beaver or raccoon the rules do not allow: it stands as a take
 * (gnubg 1.07's external server answers `beaver` whatever `set beavers`
 * says, so refusing it would forfeit good games), and the caller can count
 * it. */
typedef enum PlayerTake {
    PLAYER_DROP,
    PLAYER_TAKE,
    PLAYER_BEAVER,
    PLAYER_RACCOON,
    PLAYER_TAKE_NOT_BEAVER
} PlayerTake;

typedef struct Player Player;

typedef struct PlayerOps {
    /* The player on roll moves d1-d2: *moved false when no move is legal. */
    PlayerStatus (*move)(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                         Move *m, bool *moved, Err *err);
    /* Optional: the same choice made among legal (movegen_generate of p for
     * the roll, at least one move), given as its index there: for a caller
     * that has the list already. Without it player_move_among asks move. */
    PlayerStatus (*move_among)(Player *pl, const Position *p, const CubeState *cs,
                               const MoveList *legal, int *index, Err *err);
    /* The player on roll, before rolling. */
    PlayerStatus (*cube)(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                         Err *err);
    /* The player on roll has doubled (cs->cube: the value before the double);
     * side 0 answers. beavered: the double is itself a beaver (the answer
     * may then be a raccoon, not a beaver). cs->beavers > 0 when beavers
     * (and raccoons) are allowed. */
    PlayerStatus (*take)(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                         PlayerTake *out, Err *err);
    /* Side 0 offers to resign level (1 single, 2 gammon, 3 backgammon) times
     * the cube; the player on roll accepts or not. */
    PlayerStatus (*accept)(Player *pl, const Position *p, const CubeState *cs, int level,
                           bool *accept, Err *err);
    /* The player on roll, before rolling: the level he offers to resign
     * (1..3), or 0 to play on. */
    PlayerStatus (*resign)(Player *pl, const Position *p, const CubeState *cs, int *level,
                           Err *err);
    /* Optional: a new game starts (a player that keeps state across the
     * decisions of a game forgets it). Cannot fail: a kind that has to tell
     * a program does so with its next question, whose answer can. */
    void (*new_game)(Player *pl);
    /* Optional: makes a question being answered on another thread end now
     * (player_cancel has set pl->cancel). Must be thread-safe. */
    void (*interrupt)(Player *pl);
    /* Frees the state (closing what it holds), not the Player. */
    void (*close)(Player *pl);
} PlayerOps;

struct Player {
    const PlayerOps *ops;
    void *state;         /* the kind's own */
    char name[48];       /* who plays: "default:2", "remote:host:port"... */
    char id[48];         /* what plays: the engine's id, "pubeval"... */
    atomic_bool cancel;  /* set by player_cancel */
};

/* For the kinds: a Player with ops and state (owned from now on: closed
 * with the player, even when this fails), or NULL. */
Player *player_new(const PlayerOps *ops, void *state, const char *name, const char *id,
                   Err *err);

/* The decisions; each checks player_cancel first. */
PlayerStatus player_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                         Move *m, bool *moved, Err *err);
/* The player on roll moves d1-d2, choosing among legal, the caller's list
 * of the legal moves (movegen_generate of p for d1-d2): *index is the
 * move's place in it, or -1 (the player not asked) when the list is empty.
 * PLAYER_ILLEGAL when the player's move is none of them. */
PlayerStatus player_move_among(Player *pl, const Position *p, const CubeState *cs, int d1,
                               int d2, const MoveList *legal, int *index, Err *err);
PlayerStatus player_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                         Err *err);
PlayerStatus player_take(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                         PlayerTake *out, Err *err);
PlayerStatus player_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                           bool *accept, Err *err);
PlayerStatus player_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                           Err *err);

/* A new game starts: called by whoever runs the games before its first
 * question (a kind without new_game ignores it). */
void player_new_game(Player *pl);

const char *player_name(const Player *pl);
const char *player_id(const Player *pl);

/* From any thread: the question being answered (a remote player's wait)
 * and every later one end with PLAYER_CANCELLED. */
void player_cancel(Player *pl);

/* Closes and frees (NULL is fine). */
void player_close(Player *pl);

#endif
