/* score.h - what a finished game is worth under the rules.
 *
 * A game ends when one side has borne off all its checkers, when a double is
 * dropped, or when a resignation is accepted. The kind of win depends on the
 * loser's checkers; its value on the rules (backgammons off, star mars,
 * Jacoby) and the cube. */
#ifndef SHESH_SCORE_H
#define SHESH_SCORE_H

#include <stdbool.h>

#include "position.h"
#include "rules.h"

/* Kinds of win, numbered as their basic value. A resignation offer of level
 * 1, 2 or 3 concedes the kind with the same number. */
typedef enum ScoreKind {
    SCORE_NONE = 0,       /* the game is not over */
    SCORE_SINGLE = 1,     /* the loser has borne off at least one checker */
    SCORE_GAMMON = 2,     /* the loser has borne off nothing */
    SCORE_BACKGAMMON = 3, /* ... and has a checker on the bar or in the
                             winner's home board */
    SCORE_STAR_MARS = 4   /* ... and has checkers both on the bar and in
                             the winner's home board */
} ScoreKind;

/* What stands on the game besides the checkers. */
typedef struct GameStake {
    int cube;         /* cube value (1, 2, 4, ...) */
    bool cube_turned; /* a double was taken this game (the cube has an
                         owner); automatic doubles do not turn it */
    bool money;       /* money play (Jacoby applies only there) */
} GameStake;

/* The kind of win for side `winner` (0 or 1) of p under r: SCORE_NONE
 * unless that side has no checker left on the board. r->backgammon_zone
 * says what makes a backgammon: a checker on the bar or in the winner's home
 * board (BG_ZONE_HOME_OR_BAR), or in the home board only (BG_ZONE_HOME, where
 * a loser with checkers on the bar alone is gammoned). Star mars needs
 * checkers both on the bar and in the home board in either zone, and is
 * reported whatever r->star_mars says; score_points() decides what it is
 * worth. */
ScoreKind score_kind_rules(const Rules *r, const Position *p, int winner);

/* score_kind_rules() under the default zone (on the bar or in the home
 * board): what the engine counts, whatever the rules of the game. */
ScoreKind score_kind(const Position *p, int winner);

/* Points the winner scores for a win of `kind`: the cube times 1 (single),
 * 2 (gammon), 3 (backgammon; 2 with backgammons off), 4 (star mars, when the
 * rule is on; otherwise it counts as a backgammon). Under the Jacoby rule, in
 * money play with the cube not turned, every win counts single. 0 for
 * SCORE_NONE or a kind out of range. */
int score_points(const Rules *r, const GameStake *s, ScoreKind kind);

/* The Jacoby rule (when `jacoby` is played) voids gammons and backgammons
 * of this game: money play with the cube not turned. */
bool score_jacoby_voids(bool jacoby, const GameStake *s);

/* Short English name of a kind ("single game", "gammon", ...). */
const char *score_kind_name(ScoreKind kind);

#endif
