/* fibsboard.h - FIBS board lines (`board:NAME:NAME:` and 50 integers), read
 * the way gnubg 1.07's external-player server reads them and written byte for
 * byte the way gnubg 1.07 writes them when it is the client.
 *
 * Reading has three steps, usable one by one:
 *   fibs_lex()        syntax only: the two names and the 50 integers (FibsRaw);
 *   fibs_options...() the session options that may follow the board;
 *   fibs_interpret()  checks every field and turns the board into the
 *                     position and cube/score state of the side that must act
 *                     (FibsBoard), exactly as gnubg does (protocol section 4.4).
 * fibs_read() does all three for a whole `board:... [options]` request.
 *
 * We accept what gnubg accepts, except where gnubg guesses or breaks: a board
 * must have exactly 50 integers (gnubg silently reuses missing fields from
 * the previous board), and every field is range- and consistency-checked.
 * docs/fibsboard.md has the field table and every place we are stricter.
 *
 * Sides: FIBS_X = 1 is "X", the side that must act now (the same index as
 * SIDE_ROLLER), FIBS_O = 0 the other one. While a double is pending X is the
 * side that must answer it, so X is then NOT the player on roll.
 *
 * Threads: a FibsParser holds only compiled, read-only patterns and limits;
 * any number of threads may use one at the same time (each call has its own
 * match data). Nothing here prints; failures fill an Err. */
#ifndef SHESH_FIBSBOARD_H
#define SHESH_FIBSBOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "matchid.h"
#include "posid.h"
#include "position.h"

#define FIBS_NAME_MAX 31          /* bytes of a name: gnubg keeps 31 */
#define FIBS_INTS 50              /* integers after the two names */
#define FIBS_FIELDS 52            /* fields after `board:`, names included */
#define FIBS_MAX_CUBE_DEFAULT 32768 /* 2^15: the most a Match ID can hold */
#define FIBS_LINE_MAX 512         /* room for any line fibs_write() makes */

enum { FIBS_O = 0, FIBS_X = 1 };

/* Field numbers, counted from 1 after `board:` as in the FIBS documentation
 * and the protocol notes ("field 40"). FibsRaw.field[] is indexed by them. */
enum {
    FIBS_F_NAME = 1, FIBS_F_OPP_NAME = 2,
    FIBS_F_MATCH_LENGTH = 3, FIBS_F_SCORE = 4, FIBS_F_OPP_SCORE = 5,
    FIBS_F_BOARD = 6, /* board[0..25] are fields 6..31 */
    FIBS_F_TURN = 32,
    FIBS_F_DICE = 33, FIBS_F_OPP_DICE = 35, /* two fields each */
    FIBS_F_CUBE = 37, FIBS_F_MAY_DOUBLE = 38, FIBS_F_OPP_MAY_DOUBLE = 39,
    FIBS_F_DOUBLED = 40, FIBS_F_COLOUR = 41, FIBS_F_DIRECTION = 42,
    FIBS_F_HOME = 43, FIBS_F_BAR = 44, FIBS_F_OFF = 45, FIBS_F_OPP_OFF = 46,
    FIBS_F_ON_BAR = 47, FIBS_F_OPP_ON_BAR = 48, FIBS_F_CAN_MOVE = 49,
    FIBS_F_FORCED = 50, FIBS_F_POST_CRAWFORD = 51, FIBS_F_NOT_CRAWFORD = 52
};

/* ---- the parser object ---------------------------------------------- */

typedef struct FibsParser FibsParser;

/* Compiles the patterns once. max_cube: the highest cube value accepted
 * (a power of two up to 2^15; 0 = FIBS_MAX_CUBE_DEFAULT). NULL on failure. */
FibsParser *fibs_parser_new(int max_cube, Err *err);
void fibs_parser_free(FibsParser *fp);

/* ---- session options ------------------------------------------------- */

/* The options a board request may carry (`jacobyrule on`, ...). Options are
 * parsed here, not by the protocol layer, because they change how the board
 * is interpreted (Crawford) and what is asked (resignation). The protocol
 * layer's `evaluation fibsboard` mixes them with its own options: it can
 * offer each (keyword, value) pair to fibs_option_set() first. */
typedef struct FibsOptions {
    bool jacoby;        /* jacobyrule: gnubg's default is its own `set jacoby`
                           (on unless changed) */
    bool crawford_rule; /* crawfordrule, default on: off = never Crawford */
    bool beavers;       /* beavers, default on. gnubg ignores it when
                           answering; we report it for the engine to use */
    int resignation;    /* resignation N: O offers to resign N (1 single,
                           2 gammon, 3 backgammon) times the cube; 0 = none */
} FibsOptions;

/* gnubg's defaults: Jacoby on, Crawford rule on, beavers on, no resignation. */
void fibs_options_default(FibsOptions *o);

/* on/yes/true and off/no/false, any case (gnubg's boolean words). */
bool fibs_bool_word(const char *s, size_t len, bool *out);

typedef enum FibsOptionResult {
    FIBS_OPTION_UNKNOWN, /* name is not a session option: o untouched, no error */
    FIBS_OPTION_SET,     /* o updated */
    FIBS_OPTION_BAD      /* a session option with a bad value: err filled */
} FibsOptionResult;

/* One option: name (jacobyrule, crawfordrule, beavers, resignation; any
 * case) and its value word. resignation takes 0..3 (gnubg takes any integer). */
FibsOptionResult fibs_option_set(FibsOptions *o, const char *name, size_t name_len,
                                 const char *value, size_t value_len, Err *err);

/* The words after a board: any number of `keyword value` pairs separated by
 * blanks (space, tab, CR, LF), repeatable, the last one wins. An empty or
 * blank text is fine. Anything else is an error and o may be half updated. */
bool fibs_parse_options(const FibsParser *fp, const char *s, size_t len, FibsOptions *o,
                        Err *err);

/* ---- reading ----------------------------------------------------------- */

/* The board as written: names with escapes decoded, integers unchecked. */
typedef struct FibsRaw {
    char name[2][FIBS_NAME_MAX + 1]; /* [0] = field 1 ("you"), [1] = field 2 */
    int field[FIBS_FIELDS + 1];      /* field[3..52]; [0..2] are unused (0) */
} FibsRaw;

/* Reads the board token at the start of s (blanks before `board:` are
 * skipped; `board:` in any case). It ends at the first blank after the
 * integers or at the end of s; *end (if not NULL) gets that offset. Names:
 * [A-Za-z0-9_]+ with at least one non-digit, or quoted '...' / "..." with
 * gnubg's backslash escapes; decoded, 1..FIBS_NAME_MAX bytes without control
 * characters. Integers: optional sign and decimal digits, exactly 50. */
bool fibs_lex(const FibsParser *fp, const char *s, size_t len, FibsRaw *raw, size_t *end,
              Err *err);

/* What the side that must act (X) is asked, in gnubg's order (section 2.2). */
typedef enum FibsDecision {
    FIBS_DECIDE_TAKE,       /* O doubled: take, drop or beaver */
    FIBS_DECIDE_RESIGNATION,/* O offers to resign options.resignation: accept? */
    FIBS_DECIDE_MOVE,       /* X has rolled dice[]: move */
    FIBS_DECIDE_CUBE        /* X is about to roll: double or roll */
} FibsDecision;

/* A board as gnubg's server understands it (section 4.4), from the side that
 * must act. Index [FIBS_X] / [FIBS_O] for everything per side. */
typedef struct FibsBoard {
    Position pos;                    /* side[FIBS_X] = X. With a double pending
                                        X answers; swap to get the doubler's
                                        view that engine_take() expects */
    char name[2][FIBS_NAME_MAX + 1];
    int score[2];
    int match_length;                /* 0 = money (0 or 9999 in the line);
                                        longer than 64: 64, scores lowered */
    int cube;                        /* value before a pending double */
    int cube_owner;                  /* -1 centred, FIBS_X or FIBS_O */
    bool doubled;                    /* a double is pending: X must answer */
    int dice[2];                     /* X's dice as written (0 0 = none) */
    bool crawford;                   /* this is the Crawford game */
    bool post_crawford;              /* match, someone 1-away and not the
                                        Crawford game (as gnubg's cube
                                        evaluation defines it) */
    FibsDecision decision;
    FibsOptions options;             /* the options in force for this board */
    /* How the line mapped onto X and O, for callers that know more than gnubg
     * (an external player that remembers its own colour, the tests). */
    int x_colour;                    /* sign of X's checkers in the line */
    int x_direction;                 /* -1: X's point k is FIBS index k;
                                        +1: X's point k is FIBS index 25-k */
    bool swapped;                    /* X's name, score and may-double flag
                                        came from the second fields (2, 5, 39) */
    FibsRaw raw;                     /* the fields as written */
} FibsBoard;

/* Checks every field of raw and interprets it with the options in force (the
 * rules are in docs/fibsboard.md). On failure returns false with a message
 * naming the field, and out is undefined. */
bool fibs_interpret(const FibsParser *fp, const FibsRaw *raw, const FibsOptions *opt,
                    FibsBoard *out, Err *err);

/* A whole board request: the board, then session options. defaults are the
 * options before the line's own (NULL = fibs_options_default()). The line is
 * given without its '\n'; trailing blanks (a '\r') are fine. */
bool fibs_read(const FibsParser *fp, const char *line, size_t len, const FibsOptions *defaults,
               FibsBoard *out, Err *err);

/* The Match ID fields gnubg builds for a board (its debug output and
 * fibs.tsv.gz): player 1 = X, dice owner = turn = X, playing, the doubled
 * flag, no resignation, the larger die first, Crawford after crawfordrule,
 * Jacoby from jacobyrule. */
void fibs_matchid(const FibsBoard *b, MatchId *m);

/* The Position ID and Match ID gnubg derives from the board. Cannot fail for
 * a board fibs_interpret() accepted (err is for callers that filled b). */
bool fibs_to_ids(const FibsBoard *b, char posid[POSID_LEN + 1], char matchid[MATCHID_LEN + 1],
                 Err *err);

/* ---- writing ----------------------------------------------------------- */

/* A game as a referee holds it, by player (gnubg's seats 0 and 1), at the
 * moment `acting` must decide: what fibs_write() needs to produce the very
 * bytes gnubg 1.07 sends to an external player. */
typedef struct FibsGame {
    const char *name[2];  /* player 0, player 1 */
    int match_length;     /* 0 = money, else 1..64 */
    int score[2];         /* by player */
    Position pos;         /* side[SIDE_ROLLER] belongs to player on_roll */
    int on_roll;          /* the player on roll: about to roll, has rolled,
                             or has just doubled */
    int acting;           /* the player who must decide now */
    int dice[2];          /* as rolled; 0 0 before rolling */
    int cube;             /* value before a pending double */
    int cube_owner;       /* -1 centred, 0 or 1 */
    bool doubled;         /* a double (or beaver) is pending: acting answers */
    bool crawford;        /* this is the Crawford game (field 52 = 0) */
    bool post_crawford;   /* gnubg's post-Crawford flag (field 51); both
                             flags need a match with somebody 1-away */
} FibsGame;

/* Writes the board line gnubg 1.07 sends (without its "\n\0"): from player
 * 1's side (player 1 positive, colour 1, direction -1), names and scores in
 * player 0's order unless acting != on_roll (an ordinary take request), the
 * turn field naming the player on roll. Names are written as gnubg writes
 * them (':' becomes '_'); a name gnubg would write in a form no board reader
 * accepts (a blank, a quote, digits only...) is quoted instead, and a name
 * that cannot be quoted (control characters, both quote marks) is refused.
 * Returns false (err filled) if g is inconsistent. */
bool fibs_write(const FibsGame *g, char out[FIBS_LINE_MAX], Err *err);

/* The inverse of fibs_write() for a board gnubg wrote as the client: given
 * the player who is asked (the external player's seat), rebuilds the game by
 * player from gnubg's interpretation b (player 1 = the positive colour).
 * g->name points into b. Fails when b cannot have come from gnubg's writer:
 * colour and direction (fields 41, 42) other than 1 and -1, or field 51
 * claiming a post-Crawford game where there can be none. */
bool fibs_game_from_board(const FibsBoard *b, int acting, FibsGame *g, Err *err);

#endif
