/* referee.h - one game between two players, refereed: the dice come from a
 * seeded stream, every question goes through the player interface
 * (player.h), every answer is checked by the match state machine
 * (match.h), and every event goes into the game record (record.h).
 *
 * Two names for the same two players: the SEATS of the Match (0 and 1:
 * seat 0 rolls the first opening die) and who they ARE, A and B (0 and 1:
 * the columns of the record, the sides of the statistics). Duplicate dice
 * play a dice stream twice with A in seat 0 and then in seat 1; the record
 * keeps A in its left column either way.
 *
 * A player that fails to answer (an illegal or unreadable answer, a
 * timeout, a disconnect) loses the game at the cube's current value
 * (match_forfeit); the fault is described in the game's result. A
 * cancelled player (player_cancel: the run is being stopped) leaves the
 * game unfinished. */
#ifndef SHESH_REFEREE_H
#define SHESH_REFEREE_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "gnubgid.h"
#include "match.h"
#include "player.h"
#include "record.h"

/* The dice of one game: fixed by the run's seed, the pair and the game's
 * number in its match (0 in money play) alone, so that results depend on
 * neither the order games are played in nor the machine. */
typedef struct RefereeDice {
    uint64_t state;
} RefereeDice;

void referee_dice_init(RefereeDice *d, uint64_t seed, uint64_t pair, int game);

/* The next die, 1 to 6, each equally likely (no modulo bias). */
int referee_die(RefereeDice *d);

/* What one player did in a game. */
typedef struct RefereeCounts {
    int doubles, takes, drops, beavers, raccoons;
    int beavers_as_takes;  /* beavers or raccoons the rules do not allow,
                              counted as takes (PLAYER_TAKE_NOT_BEAVER) */
    int resigns, resigns_accepted; /* offers made, and accepted by the other */
    int decisions;         /* questions answered (forced moves not asked) */
    int64_t decision_us;   /* time spent answering them, microseconds */
} RefereeCounts;

/* Why a game was forfeited. */
typedef struct RefereeFault {
    int player;             /* who failed (A 0, B 1), -1 none */
    PlayerStatus status;
    char gnubgid[GNUBGID_LEN + 1]; /* the position of the question */
    char what[ERR_TEXT_MAX]; /* the question and the answer, as the
                                player kind describes them */
} RefereeFault;

typedef struct RefereeGame {
    int winner;       /* A 0 or B 1 */
    int points;       /* what the game scored */
    ScoreKind kind;   /* of the win: how the last checker left, the level
                         of an accepted resignation; single for a drop or
                         a forfeit */
    MatchPhase end;   /* PHASE_OVER, PHASE_RESIGNED, PHASE_DROPPED */
    bool forfeit;     /* the loser failed to answer: see fault */
    RefereeFault fault;
    int cube;         /* the cube's value at the end */
    int turns;        /* turns played */
    RefereeCounts counts[2]; /* by A 0, B 1 */
} RefereeGame;

typedef enum RefereeStatus {
    REFEREE_OK,        /* the game is over (a forfeit included) */
    REFEREE_CANCELLED, /* a player was cancelled: the game is unfinished */
    REFEREE_ERROR      /* the record or the match refused an event: a bug,
                          or a game longer than any real one */
} RefereeStatus;

/* What a thread needs to referee: a move list. */
typedef struct Referee Referee;
Referee *referee_new(Err *err);
void referee_free(Referee *ref);

/* Plays the game m waits for (a new match or match_new_game: an opening
 * roll, or the previous winner on roll) to its end. players[0] is A, who
 * sits in seat a_seat; the record rec has A as its player 0 and is at the
 * end of a game (record_init or the previous game's end): the game is
 * appended to it. */
RefereeStatus referee_play_game(Referee *ref, Match *m, Player *const players[2], int a_seat,
                                RefereeDice *dice, Record *rec, RefereeGame *out, Err *err);

#endif
