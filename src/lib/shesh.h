/* shesh.h - the Shesh backgammon engine as a C library (docs/library.md).
 *
 * Handles are opaque and there is no global mutable state: an engine is
 * immutable once made, so any number of threads may share one; a scratch
 * holds what one decision writes, so each thread (or caller deciding at the
 * same time) uses its own. Passing NULL for a scratch makes one for that
 * call only: correct, but slower.
 *
 * Every call that can fail returns a shesh_status and, when err is not
 * NULL, fills it with the same code and one line of English; out-parameters
 * are left untouched on a failure. Nothing prints and nothing aborts.
 *
 * IDs are gnubg's 14-character Position ID (a money game, cube centred,
 * the player it shows on roll), a GNUBG-ID ("PositionID:MatchID") or an
 * eXtreme Gammon XGID. A Position ID is read under the standard rules; a
 * GNUBG-ID or XGID brings its own score, cube, Jacoby rule and beavers.
 * Equities are the player on roll's: money per cube unit, or in match play
 * his match winning chance (0..1). */
#ifndef SHESH_H
#define SHESH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum shesh_status {
    SHESH_OK = 0,
    SHESH_ERR_ARG = 1,    /* a NULL pointer, dice outside 1..6, bad plies */
    SHESH_ERR_ID = 2,     /* the ID is not one, or nobody is to act in it */
    SHESH_ERR_SIZE = 3,   /* the caller's buffer is too small */
    SHESH_ERR_MEMORY = 4, /* out of memory */
    SHESH_ERR_ENGINE = 5  /* no such engine, or it refused the question */
} shesh_status;

typedef struct shesh_error {
    int code;        /* a shesh_status */
    char text[256];  /* what was wrong, one line, NUL-terminated */
} shesh_error;

typedef struct shesh_engine shesh_engine;
typedef struct shesh_scratch shesh_scratch;

/* Room for any move text and any Position ID, NUL included. */
#define SHESH_MOVE_MAX 64
#define SHESH_POSITION_ID_MAX 15

/* The release, such as "0.1.0". */
const char *shesh_version(void);

/* name: "default" (the strongest, also for NULL) or "calibrated". NULL on a
 * failure, with err filled. */
shesh_engine *shesh_engine_new(const char *name, shesh_error *err);
void shesh_engine_free(shesh_engine *engine);

/* The evaluator's identifier, such as "shesh-feat-19+shesh-race-2+shesh-cube-1"
 * (contact+race+cube networks). */
const char *shesh_engine_id(const shesh_engine *engine);

shesh_scratch *shesh_scratch_new(shesh_error *err);
void shesh_scratch_free(shesh_scratch *scratch);

/* The best move for the roll d1-d2 of the player to act in id, searched
 * `plies` deep (0 = static, up to 4), in gnubg's notation as `shesh hint`
 * shows it ("8/5 6/5", "24/18(2) 13/7(2)", "bar/22*"). d1 = d2 = 0 takes
 * the dice of a GNUBG-ID or XGID that has them. No legal move writes "". */
shesh_status shesh_move(const shesh_engine *engine, shesh_scratch *scratch, const char *id,
                        int d1, int d2, int plies, char *move, size_t size, shesh_error *err);

typedef enum shesh_cube_action {
    SHESH_NO_DOUBLE,      /* roll; the answer to a double would be a take */
    SHESH_DOUBLE_TAKE,
    SHESH_DOUBLE_PASS,
    SHESH_DOUBLE_BEAVER,  /* money, beavers allowed */
    SHESH_TOO_GOOD,       /* roll for a gammon; a double would be passed */
    SHESH_NO_DOUBLE_ALLOWED /* the rules forbid it (owner, Crawford, ...) */
} shesh_cube_action;

typedef struct shesh_cube_decision {
    shesh_cube_action action;
    /* The cubeful equities of the player to act for each choice. */
    double no_double, double_take, double_pass;
} shesh_cube_decision;

/* The cube decision of the player to act in id, before he rolls (dice the
 * ID shows are not used). */
shesh_status shesh_cube(const shesh_engine *engine, shesh_scratch *scratch, const char *id,
                        int plies, shesh_cube_decision *out, shesh_error *err);

typedef struct shesh_evaluation {
    /* Chances of the player to act, about to roll; cumulative: a
     * backgammon is also a gammon, a gammon also a win. */
    double win, win_gammon, win_backgammon, lose_gammon, lose_backgammon;
    double cubeless, cubeful;
} shesh_evaluation;

shesh_status shesh_evaluate(const shesh_engine *engine, shesh_scratch *scratch, const char *id,
                            int plies, shesh_evaluation *out, shesh_error *err);

/* The state an ID stands for, seen from the player to act. */
typedef struct shesh_position {
    /* checkers[1]: the player to act, checkers[0]: his opponent. Index
     * 0..23 is that player's own point 1..24, index 24 his bar; borne-off
     * checkers are 15 minus the rest. */
    int checkers[2][25];
    int dice[2];        /* his roll, 0 0 when he has not rolled */
    int cube;           /* 1, 2, 4, ... */
    int cube_owner;     /* -1 centred, 1 the player to act, 0 the opponent */
    int match_length;   /* 0: money */
    int score[2];       /* by side, as checkers */
    int crawford;       /* 1 in the Crawford game */
} shesh_position;

shesh_status shesh_decode_id(const char *id, shesh_position *out, shesh_error *err);

/* The Position ID of out->checkers (the other fields are not used), in
 * id, which holds `size` bytes (SHESH_POSITION_ID_MAX suffices). */
shesh_status shesh_encode_position_id(const shesh_position *pos, char *id, size_t size,
                                      shesh_error *err);

#ifdef __cplusplus
}
#endif

#endif
