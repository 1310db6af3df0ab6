/* rules.h - the house rules a game or match is played under.
 *
 * Every variant is one field of Rules; rules_default() gives the standard
 * international rules (opening dice played by the winner of the opening roll,
 * opening roll every game, backgammons count 3, cube up to 64, Crawford rule
 * in matches, no Jacoby, no beavers). See docs/rules.md for each field with a
 * worked example. The same Rules value serves matches and money play: the
 * match-only fields (crawford, holland) are ignored in money play and the
 * money-only ones (jacoby, beavers, auto_doubles) in matches. Two house
 * customs are fields too: where a gammoned loser's checkers make it a
 * backgammon (backgammon_zone), and whether a closed-out player rolls
 * (closed_out). */
#ifndef SHESH_RULES_H
#define SHESH_RULES_H

#include <stdbool.h>

#include "err.h"

typedef enum OpeningRule {
    OPENING_PLAY_DICE, /* the winner of the opening roll plays those dice */
    OPENING_REROLL     /* the winner rolls again; that roll may be a double
                          (Israeli cafe custom) */
} OpeningRule;

typedef enum LaterGamesRule {
    LATER_OPENING_ROLL,  /* every game starts with an opening roll */
    LATER_WINNER_STARTS  /* the previous game's winner starts and rolls */
} LaterGamesRule;

/* Where a gammoned loser's checker makes the win a backgammon. Star mars is
 * not affected: it always needs checkers both on the bar and in the
 * winner's home board (the zone says what makes a backgammon, and a star
 * mars has a checker in the home board, a backgammon in either zone). */
typedef enum BackgammonZone {
    BG_ZONE_HOME_OR_BAR, /* on the bar or in the winner's home board (most
                            rule texts, gnubg) */
    BG_ZONE_HOME         /* in the winner's home board only: a checker on
                            the bar alone leaves a gammon */
} BackgammonZone;

/* What a player does when he has a checker on the bar and the opponent
 * holds all six points of his home board (two or more checkers each). */
typedef enum ClosedOutRule {
    CLOSED_OUT_ROLL,   /* he rolls and, having no legal move, passes (as
                          gnubg records it) */
    CLOSED_OUT_NO_ROLL /* he does not roll: his turn passes without dice
                          until a point opens */
} ClosedOutRule;

typedef struct Rules {
    OpeningRule opening;
    LaterGamesRule later_games;
    bool backgammons;   /* false: a backgammon scores as a gammon */
    bool star_mars;     /* 4 points: the loser has borne off nothing and has
                           checkers both on the bar and in the winner's home */
    bool cube;          /* false: no doubling at all */
    bool crawford;      /* match play: no doubling in the Crawford game */
    bool holland;       /* match play: post-Crawford, the trailer may not
                           double during his first two turns of a game */
    bool jacoby;        /* money: gammons count only after the cube turned */
    int beavers;        /* money: how many beavers/raccoons in a row are
                           allowed: 0 none, 1 beaver, 2+ raccoons too */
    int auto_doubles;   /* money: max automatic doubles on opening ties, 0 off */
    int max_cube;       /* highest cube value, a power of two (default 64) */
    BackgammonZone backgammon_zone; /* what makes a backgammon (default
                                       BG_ZONE_HOME_OR_BAR) */
    ClosedOutRule closed_out;       /* does a closed-out player roll
                                       (default CLOSED_OUT_ROLL) */
} Rules;

/* Limits rules_valid() enforces. The cube limit is what a Match ID can hold
 * (4 bits of log2); beavers and automatic doubles beyond 15 could never
 * happen under that cube limit anyway. */
#define RULES_MAX_CUBE_LIMIT 32768
#define RULES_COUNT_LIMIT 15

/* Standard international rules (backgammons on the bar or in the home
 * board, a closed-out player rolls). */
Rules rules_default(void);

/* Presets by name: "international" (the default), "money" (international plus
 * Jacoby and beavers), "cafe" (Israeli cafe: opening reroll, winner starts
 * later games), "nocube", "gnubg" (what gnubg 1.07 plays by default: Jacoby,
 * three beavers/raccoons, cube up to 4096). Returns false with a message for
 * an unknown name. */
bool rules_preset(const char *name, Rules *out, Err *err);

/* The preset names, NULL-terminated, in the order documented. */
extern const char *const rules_preset_names[];

/* Checks the fields are consistent (max_cube a power of two in 1..2^15, counts
 * in 0..15, Holland only with Crawford, no Jacoby/beavers/automatic doubles
 * without a cube, a home-board backgammon zone only with backgammons, the
 * enums in range, ...). */
bool rules_valid(const Rules *r, Err *err);

/* One line describing the rules, for debug output and records. Only the
 * fields that matter for the kind of play (match_length 0 = money) appear. */
void rules_describe(const Rules *r, int match_length, char *buf, unsigned n);

#endif
