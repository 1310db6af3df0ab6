/* rules.h - the house rules a game or match is played under.
 *
 * Every variant is one field of Rules; rules_default() gives the standard
 * international rules (opening dice played by the winner of the opening roll,
 * opening roll every game, backgammons count 3, cube up to 64, Crawford rule
 * in matches, no Jacoby, no beavers). See docs/rules.md for each field with a
 * worked example. */
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
} Rules;

/* Standard international rules. */
Rules rules_default(void);

/* Presets by name: "international" (the default), "money" (international plus
 * Jacoby and beavers), "cafe" (Israeli cafe: opening reroll, winner starts
 * later games), "nocube". Returns false with a message for an unknown name. */
bool rules_preset(const char *name, Rules *out, Err *err);

/* Checks the fields are consistent (max_cube a power of two in 1..2^15, counts
 * not negative, ...). */
bool rules_valid(const Rules *r, Err *err);

/* One line describing the rules, for debug output and records. */
void rules_describe(const Rules *r, int match_length, char *buf, unsigned n);

#endif
