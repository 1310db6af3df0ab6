/* match.h - the game and match state machine: score, match length or money,
 * cube value and owner, pending double or resignation, Crawford and
 * post-Crawford, every rule variant of rules.h, game and match end.
 *
 * No I/O and no dice source inside: the caller supplies every roll, so tests
 * and the referee decide the dice. Every transition checks that the action is
 * legal now and otherwise returns false with a plain-English reason in err,
 * leaving the state untouched. Match is a plain struct without pointers: copy
 * it freely (to try an action, to keep history, to hand to another thread).
 *
 * Players are the seats 0 and 1, as in gnubg's Match ID. A game goes
 *
 *   PHASE_OPENING --opening roll--> PHASE_PLAYING --...--> game over
 *   (PHASE_OVER, PHASE_RESIGNED or PHASE_DROPPED) --new game--> ...
 *
 * and a turn in PHASE_PLAYING is: [double -> take | drop | beaver ...]
 * roll -> move | pass (no legal move), with a resignation offer possible
 * whenever the player to act has no double to answer. Under
 * CLOSED_OUT_NO_ROLL a closed-out player (match_closed_out) does not roll:
 * [double ...] pass, without dice. Games end with the kind of win the rules
 * make of the loser's checkers (score_kind_rules: the backgammon zone). */
#ifndef SHESH_MATCH_H
#define SHESH_MATCH_H

#include <stdbool.h>

#include "cube_state.h"
#include "err.h"
#include "matchid.h"
#include "movegen.h"
#include "position.h"
#include "rules.h"
#include "score.h"

/* Longest match: gnubg's limit, so that every state has a Match ID gnubg
 * reads. */
#define MATCH_LENGTH_MAX MATCHID_MAX_LENGTH

/* Where the current game stands. The values are gnubg's Match ID game
 * states (MATCHID_GAME_*). */
typedef enum MatchPhase {
    PHASE_OPENING = 0,  /* waiting for the opening roll */
    PHASE_PLAYING = 1,
    PHASE_OVER = 2,     /* a player bore off all his checkers */
    PHASE_RESIGNED = 3, /* a resignation was accepted */
    PHASE_DROPPED = 4   /* a double was dropped */
} MatchPhase;

/* The actions, as bits for match_actions(). */
typedef enum MatchAction {
    ACT_OPENING_ROLL = 1 << 0, /* roll the opening dice, one die each */
    ACT_ROLL = 1 << 1,         /* roll before moving */
    ACT_DOUBLE = 1 << 2,       /* offer the cube instead of rolling */
    ACT_MOVE = 1 << 3,         /* play one of the legal moves */
    ACT_PASS = 1 << 4,         /* the roll has no legal move */
    ACT_TAKE = 1 << 5,
    ACT_DROP = 1 << 6,
    ACT_BEAVER = 1 << 7,       /* beaver, or raccoon after a beaver */
    ACT_RESIGN = 1 << 8,       /* offer to resign */
    ACT_ACCEPT = 1 << 9,       /* accept the resignation offered */
    ACT_REJECT = 1 << 10,      /* reject it */
    ACT_NEW_GAME = 1 << 11     /* start the next game of the match */
} MatchAction;

typedef struct Match {
    Rules rules;
    int length;          /* match length, 0 = money play */
    int score[2];        /* points by player (money: running total) */
    int games;           /* games finished */
    MatchPhase phase;
    Position board;      /* side[p] = player p's checkers, seen from p */
    int cube;            /* cube value before any pending double; each
                            beaver/raccoon already doubled it (as gnubg) */
    int cube_owner;      /* -1 centred, or the player who owns the cube */
    int on_roll;         /* the player whose turn it is: rolls, moves or
                            doubled (gnubg's dice owner); 0 in the opening */
    int turn;            /* the player who must act now: differs from
                            on_roll while a double or resignation waits */
    int dice[2];         /* as rolled; 0 0 = not rolled yet (kept in the
                            record of a resignation made after rolling) */
    int legal_moves;     /* legal moves for the dice (0: must pass) */
    bool doubled;        /* a double waits for take/drop/beaver */
    int animals;         /* beavers and raccoons on the pending double */
    int resigned;        /* level 1..3 offered by !turn (kept after the
                            offer is accepted), 0 none */
    int resign_declined; /* highest level declined since the last action */
    bool crawford;       /* this game is the Crawford game; once a game
                            is over, the next one is (as gnubg) */
    bool post_crawford;  /* a game after the Crawford game (likewise) */
    int auto_doubles;    /* automatic doubles in this game's opening */
    int turns[2];        /* turns each player completed this game */
    int winner;          /* -1 until the game is over */
    ScoreKind result;    /* kind of the finished game */
    int points;          /* what the finished game scored */
} Match;

/* A new match of `length` points (0 = money session) under r, waiting for
 * the first opening roll. */
bool match_start(Match *m, const Rules *r, int length, Err *err);

/* The opening roll: player 0 rolls die0, player 1 die1. A tie is rolled
 * again (and in money play with automatic doubles, the cube doubles while
 * the rules allow). Otherwise the higher die starts: he plays both dice
 * (international), or rolls again (OPENING_REROLL). */
bool match_opening_roll(Match *m, int die0, int die1, Err *err);

/* The player on roll rolls d1, d2 (1..6 each). legal_moves tells whether he
 * must move or pass. Refused when he is closed out under CLOSED_OUT_NO_ROLL
 * (match_closed_out): he passes without rolling. */
bool match_roll(Match *m, int d1, int d2, Err *err);

/* Cube actions. A double is refused without access to the cube, in the
 * Crawford game, beyond the maximum cube, when the cube is dead for the
 * doubler (his score plus the cube already reaches the match length, as
 * gnubg refuses it), and under the Holland rule: cube_state.h decides each
 * of these (cubestate_double_bars, cubestate_beaver_bars) on the state
 * match_cube_state() gives. A take gives the cube to
 * the taker; a beaver (money) takes and at once redoubles, keeping the cube;
 * a raccoon answers a beaver the same way (rules.beavers limits how many in
 * a row). A drop loses the cube value. */
bool match_double(Match *m, Err *err);
bool match_take(Match *m, Err *err);
bool match_drop(Match *m, Err *err);
bool match_beaver(Match *m, Err *err);

/* The player on roll plays the move whose result is `result` (the position
 * after the move seen from the mover, as Move.result): refused unless it is
 * one of the legal moves for the dice. Ends the game when he bears off his
 * last checker. */
bool match_move(Match *m, const Position *result, Err *err);

/* The player on roll cannot move with his dice, or is closed out under
 * CLOSED_OUT_NO_ROLL and has no dice (match_closed_out): the turn passes and
 * counts as one of his turns (as a roll without a legal move does). */
bool match_pass(Match *m, Err *err);

/* Plays the only legal move, or passes when there is none (also a
 * closed-out pass without dice). Refused when the player has a choice. */
bool match_play_forced(Match *m, Err *err);

/* The player to act offers to resign a single game (1), gammon (2) or
 * backgammon (3); the opponent accepts or rejects. A level at or below one
 * already rejected since the last action cannot be offered again. An
 * accepted resignation scores what a win of that kind would score. */
bool match_resign(Match *m, int level, Err *err);
bool match_accept(Match *m, Err *err);
bool match_reject(Match *m, Err *err);

/* The referee ends the game because `loser` failed to answer (an illegal
 * or unreadable answer, a timeout, a disconnect): he loses a single game at
 * the cube's current value (a double waiting for its answer not counted),
 * scored as a resignation of a single game. Refused when no game is on. */
bool match_forfeit(Match *m, int loser, Err *err);

/* Starts the next game after a game is over (not after the match is over):
 * Crawford or post-Crawford as the score says, then an opening roll or, with
 * LATER_WINNER_STARTS, the previous winner on roll. */
bool match_new_game(Match *m, Err *err);

/* Queries. */

/* True when `action` (one ACT_ value) is legal now; otherwise false with
 * the reason. The transitions check exactly this first. */
bool match_can(const Match *m, MatchAction action, Err *err);

/* Every action legal now, as ACT_ bits. */
unsigned match_actions(const Match *m);

/* The player who must act now, or -1 (opening roll pending, game over). */
int match_turn(const Match *m);

/* True when the match is over (never in money play). */
bool match_over(const Match *m);

/* True when the player on roll must pass without rolling: the rules say
 * CLOSED_OUT_NO_ROLL, the game is under way, he has not rolled, and he has
 * a checker on the bar while his opponent holds all six points of his home
 * board (two or more checkers each). Then match_actions() offers ACT_PASS
 * instead of ACT_ROLL (a double, when the cube allows it, and a resignation
 * stay possible: they come before the roll), match_pass() passes without
 * dice and match_roll() is refused. Also true while a double or resignation
 * he must wait for is answered: the pass comes after it. */
bool match_closed_out(const Match *m);

/* True when the dice are rolled and exactly one legal move exists: a
 * player may let it play itself (match_play_forced). */
bool match_forced(const Match *m);

/* True when doubling is pointless for `player` because his score plus the
 * cube value already reaches the match length (match play only:
 * cubestate_dead). */
bool match_cube_dead(const Match *m, int player);

/* The cube and score around the decision of the player to act, as the
 * engine takes them (engine.h): side 1 (SIDE_ROLLER) is the player to act,
 * except that while a double, beaver or raccoon waits it is the one who
 * offered it and side 0 answers. Every rule the state needs is filled in
 * (Holland and the turns it counts, beavers allowed and made, Jacoby in
 * money play). Returns the seat seen as side 1, or -1 when nobody is to act
 * (opening roll pending, game over), cs then seen from seat 0. Take the
 * board from the same seat with match_position_of(). */
int match_cube_state(const Match *m, CubeState *cs);

/* The board seen from `seat` (side[SIDE_ROLLER] = seat). */
void match_position_of(const Match *m, int seat, Position *out);

/* The board seen from the player on roll (side[SIDE_ROLLER] = on_roll). */
void match_position(const Match *m, Position *out);

/* The legal moves for the rolled dice, from the mover's side; 0 when no
 * move is to be made now. */
int match_legal_moves(const Match *m, MoveList *out);

/* gnubg's Match ID fields and the Position seen from dice_owner. Fails only
 * when a field does not fit a Match ID (a money score above 32767). */
bool match_to_ids(const Match *m, MatchId *id, Position *pos, Err *err);

/* The state described by a Match ID and Position under rules r. Fields a
 * Match ID does not hold are inferred: one beaver (or one raccoon) on a
 * pending double, no automatic doubles once the game is under way, and the
 * Holland restriction as over. Inconsistent fields (a double offered after
 * rolling, a Crawford game with a turned cube, a cube the rules do not
 * allow, a game over with no winner, dice rolled by a player closed out
 * under CLOSED_OUT_NO_ROLL, ...) are refused. A closed-out player's pass
 * without dice needs nothing of its own: his Match ID shows no dice, and
 * match_closed_out() reads the rest from the board. */
bool match_from_ids(Match *m, const Rules *r, const MatchId *id, const Position *pos,
                    Err *err);

#endif
