/* answer_json.h - the JSON answers of the engine's advice, written once for
 * every place that gives them: `shesh hint`, `shesh eval` and `shesh moves`
 * with --json, and the HTTP API (http_api.h), so that the same question
 * gets the same bytes whichever way it is asked. Each writes one object
 * into a Json writer's buffer, without a newline. */
#ifndef SHESH_ANSWER_JSON_H
#define SHESH_ANSWER_JSON_H

#include <stdbool.h>

#include "buf.h"
#include "cube_state.h"
#include "engine.h"
#include "err.h"
#include "json.h"
#include "movegen.h"
#include "posid.h"
#include "position.h"

/* "centred", "player" (the player to act) or "opponent". */
const char *answer_cube_owner(const CubeState *cs);

/* The right cube action in words, gnubg's way ("double, take", "no double,
 * take", "too good to double, pass"...), for the player on roll under cs;
 * where he may not double, which rule forbids it: a dead cube named apart. */
const char *answer_cube_action(const EngineCubeHint *h, const CubeState *cs);

/* A roll as the commands take it: "31" or "3-1" (dice 1 to 6, in either
 * order). */
bool answer_read_dice(const char *s, int dice[2], Err *err);

/* A Position ID, GNUBG-ID or XGID read as a bare board, as `shesh moves`
 * reads it: p from the side of the player to move, and the roll the ID
 * holds (*has_dice false: none). What has the shape of neither a GNUBG-ID
 * nor an XGID (a Match ID alone included) is read as a Position ID, whose
 * decoder says what is wrong with it. */
bool answer_read_board(const char *id, Position *p, int dice[2], bool *has_dice, Err *err);

/* The members eval and hint answers start with: "input", "plies",
 * "match_to", "cube", "cube_owner". */
void answer_json_position(Json *j, const char *id, int plies, const CubeState *cs);

/* The five chances: "win", "win_gammon", "win_backgammon", "lose_gammon",
 * "lose_backgammon". */
void answer_json_chances(Json *j, const Evaluation *e);

/* The most candidates a hint lists (`shesh hint --max`, /v1/move's max). */
#define ANSWER_MOVES_MAX 1000

/* `shesh hint` with a roll: the n ranked candidates for dice on p. */
void answer_json_hint_moves(Buf *out, const char *id, const Position *p, const CubeState *cs,
                            const int dice[2], int plies, const EngineCandidate *cands, int n);

/* `shesh hint` without a roll: the cube decision. */
void answer_json_hint_cube(Buf *out, const char *id, const CubeState *cs, int plies,
                           const EngineCubeHint *h);

/* `shesh eval`: the cubeless chances and both equities. */
void answer_json_eval(Buf *out, const char *id, const CubeState *cs, int plies,
                      const Evaluation *cubeless, const Evaluation *cubeful);

/* A legal move's place in `shesh moves`' answers: ordered by the Position
 * ID of its result, so the order never depends on the generator's. */
typedef struct AnswerRanked {
    char id[POSID_LEN + 1];
    int index; /* in the MoveList */
} AnswerRanked;

/* Fills ranked[0 .. list->count) with list's moves in that order. */
void answer_rank_moves(const MoveList *list, AnswerRanked *ranked);

/* `shesh moves`: {"position_id", "dice", "moves": [{"move", "result"}...]}. */
void answer_json_moves(Buf *out, const Position *p, int d1, int d2, const MoveList *list,
                       const AnswerRanked *ranked);

#endif
