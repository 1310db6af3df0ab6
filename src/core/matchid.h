/* matchid.h - gnubg's 12-character Match ID, both ways.
 *
 * A Match ID holds everything about a game but the checkers: cube, who may
 * double, who rolled what, who must act, pending double or resignation, match
 * length and score, and (gnubg 1.07's extra bit 66) the Jacoby rule. Players
 * are gnubg's seats 0 and 1, not "roller" and "opponent": the Position that
 * goes with a Match ID is seen from dice_owner (its side[SIDE_ROLLER] holds
 * dice_owner's checkers). Layout and worked examples: section 6 of
 * gnubg-external-protocol.md; docs/ids.md. */
#ifndef SHESH_MATCHID_H
#define SHESH_MATCHID_H

#include <stdbool.h>

#include "err.h"

#define MATCHID_LEN 12
/* gnubg's MAXSCORE: its decoder refuses longer matches. */
#define MATCHID_MAX_LENGTH 64
/* The cube is stored as a 4-bit log2. */
#define MATCHID_MAX_CUBE (1 << 15)

enum {
    MATCHID_GAME_NONE = 0,     /* no game started */
    MATCHID_GAME_PLAYING = 1,
    MATCHID_GAME_OVER = 2,
    MATCHID_GAME_RESIGNED = 3, /* ended by an accepted resignation */
    MATCHID_GAME_DROPPED = 4   /* ended by a dropped double */
};

/* The fields of positions/gnubg-1.07/matchid.tsv.gz, one for one. */
typedef struct MatchId {
    int cube;         /* cube value 1, 2, 4 ... 2^15 (before a pending double) */
    int cube_owner;   /* -1 centred, or the player (0, 1) who owns it */
    int dice_owner;   /* the player on roll: who rolls or rolled, or doubled */
    bool crawford;    /* this game is the Crawford game */
    int game_state;   /* MATCHID_GAME_* */
    int turn;         /* the player who must act now (differs from dice_owner
                         while a double or a resignation awaits an answer) */
    bool doubled;     /* a double is offered */
    int resigned;     /* 0 none, 1 single, 2 gammon, 3 backgammon offered */
    int dice[2];      /* 0 0 = not rolled; gnubg writes the larger die first */
    int match_length; /* 0 = money */
    int score[2];     /* by player */
    bool jacoby;      /* the Jacoby rule is in use (stored inverted) */
} MatchId;

/* A money game about to start its first roll: cube 1 centred, player 1 on
 * roll, playing, no dice, Jacoby off (what gnubg writes in match play). */
void matchid_init(MatchId *m);

/* Checks every field against what the 72-bit key can hold and against the
 * limits gnubg's decoder enforces (dice 0..6, length <= 64, Crawford only in
 * a match), plus ours: both dice or neither, game state 0..4, a score may
 * reach the match length only once the game is over. */
bool matchid_valid(const MatchId *m, Err *err);

/* Writes the ID (12 characters and a NUL). Fails, leaving out untouched, when
 * matchid_valid() fails. */
bool matchid_encode(const MatchId *m, char out[MATCHID_LEN + 1], Err *err);

/* Reads an ID. Strict: exactly 12 Base64 characters, bits 67..71 clear, and
 * the fields must pass matchid_valid(). On failure returns false, fills err
 * and leaves m unchanged. */
bool matchid_decode(const char *id, MatchId *m, Err *err);

/* Exchanges the roles of players 0 and 1 (owner, dice owner, turn, scores):
 * the same situation with the seats renamed, as gnubg's `swap players`. */
void matchid_swap_players(MatchId *m);

bool matchid_equal(const MatchId *a, const MatchId *b);

/* Short names for the text output of game_state and resigned. */
const char *matchid_game_state_name(int game_state);
const char *matchid_resign_name(int resigned);

#endif
