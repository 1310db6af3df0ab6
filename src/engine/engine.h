/* engine.h - deciding: one entry point per decision, behind one interface.
 *
 * Every call sees the position in gnubg's layout with side[SIDE_ROLLER] = the
 * player ON ROLL (the one who rolls, moves or has just doubled) and
 * side[SIDE_OPPONENT] = the other one. CubeState (cube_state.h) uses the
 * same side indices.
 * An Engine is immutable once made: any number of threads may use one Engine
 * at the same time. What a decision writes to is an EngineScratch (move
 * lists, a race cache): the caller's, made once per thread or player and
 * passed into every decision, so that deciding allocates nothing.
 *
 * Every decision returns how it ended (EngineResult) and its answer through
 * an out-parameter; on a failure err (may be NULL) says why and the answer
 * is left untouched. */
#ifndef SHESH_ENGINE_H
#define SHESH_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "cube_state.h"
#include "err.h"
#include "movegen.h"
#include "position.h"

typedef struct Engine Engine;

/* Outputs of an evaluation, from the view of the player on roll, as if he
 * were about to roll: win, win gammon, win backgammon, lose gammon, lose
 * backgammon (cumulative: a backgammon is also a gammon), and an equity. */
typedef struct Evaluation {
    double p_win, p_win_gammon, p_win_bg, p_lose_gammon, p_lose_bg;
    double equity; /* money: cubeless or cubeful equity per cube unit;
                      match: match winning chance (0..1) */
} Evaluation;

typedef struct EvalOptions {
    int plies;    /* 0 = static evaluation, 1, 2 ... = lookahead */
    bool cubeful; /* equity cubeful (true) or cubeless */
} EvalOptions;

typedef enum CubeDecision { CUBE_ROLL, CUBE_DOUBLE } CubeDecision;
typedef enum TakeDecision { TAKE_DROP, TAKE_TAKE, TAKE_BEAVER } TakeDecision;

/* How a decision ended. */
typedef enum EngineResult {
    ENGINE_OK,        /* answered */
    ENGINE_NO_MOVE,   /* engine_move only: no legal move for the roll; the
                         turn passes. Not a failure. */
    ENGINE_BAD_INPUT, /* the question makes no sense (dice outside 1..6) */
    ENGINE_NO_MEMORY  /* sc was NULL and no scratch could be made */
} EngineResult;

typedef struct EngineScratch EngineScratch;

/* Makes an engine by name ("default" = the strongest available). */
Engine *engine_new(const char *name, Err *err);

/* The same with a network read from the network file at weights (nn_file.h;
 * NULL: those compiled in): a contact network takes the compiled-in contact
 * network's place, and the compiled-in cube network's too (it chooses the
 * moves and values positions, as one network was trained and measured); a
 * race network (inputs race-198 or race-218) the compiled-in race
 * network's, or the race model's where there is none.
 * The cube network (Makefile NN_CUBE_DEFAULT) is a contact network that
 * values positions where the contact network chooses moves:
 * engine_double, engine_take, engine_accept_resignation, engine_hint_cube
 * and engine_evaluate search by it; engine_move, engine_hint_moves and
 * engine_roll_choices by the contact network.
 * Refused, err saying why, when the file is, or when the engine has no
 * network ("calibrated"). */
Engine *engine_new_with(const char *name, const char *weights, Err *err);
void engine_free(Engine *e);

/* Makes e evaluate with its networks in floats, as training does, rather
 * than with their first layer in integers (nn_quantize: faster, within
 * about 0.001 of the equity). `shesh label` does unless told --integers,
 * so that the label sets made before the integers are made again to the
 * bit. Before e is shared between threads. */
void engine_use_floats(Engine *e);

/* True when engine_new knows the name (without making the engine). */
bool engine_known(const char *name);

/* True when the engine of that name evaluates with a network (and so takes
 * a network file). */
bool engine_has_network(const char *name);

/* Short identifier of the evaluator, shown as "Engine:" by `version`: the
 * network's id (its file's "id" line), CONTACT+RACE with a race network,
 * then +CUBE with a cube network, or the calibrated engine's. */
const char *engine_id(const Engine *e);

/* The fnv64 hash of the engine's network file, as 16 hex digits, or ""
 * without a network: what tells two networks of the same id apart. With a
 * race or cube network, the FNV-1a hash of the text of the files' hashes,
 * 16 hex digits each in the order of engine_id. */
const char *engine_network(const Engine *e);

/* Scratch memory for decisions of any engine, one decision at a time (one
 * per thread). Made whole at once: NULL (err filled) if memory is short.
 * It keeps the values its searches compute in a table of 65,536 entries
 * (5 MB, mapped as it fills), which later decisions of any engine made
 * with it look up: the same answers, sooner when a position comes back. */
EngineScratch *engine_scratch_new(Err *err);

/* The same with a table of about cache_entries entries (0: none, every
 * value computed afresh: what a measure of evaluation speed wants). */
EngineScratch *engine_scratch_new_cached(size_t cache_entries, Err *err);
void engine_scratch_free(EngineScratch *sc);

/* A table of values for the scratches of several threads at once (a
 * server's workers): a position one of them valued is found by all of
 * them, which a table of each thread's own misses when the next request
 * of a board goes to another thread. As large as `threads` scratches'
 * own tables together; NULL (err filled) if memory is short. Free it
 * after every scratch that uses it. */
typedef struct EvalCache EngineTable;
EngineTable *engine_table_new(int threads, Err *err);
void engine_table_free(EngineTable *t);

/* A scratch like engine_scratch_new's that keeps its values in t (which
 * other threads' scratches may use at the same time) instead of a table
 * of its own. */
EngineScratch *engine_scratch_new_sharing(EngineTable *t, Err *err);

/* A flag another thread sets when the answers of the decisions made with
 * sc are no longer wanted (a server's client left, a time budget ran out):
 * a decision under way then ends within a node of its search, with an
 * answer that is legal but worthless. NULL (the default): never stop. */
void engine_scratch_set_stop(EngineScratch *sc, const atomic_bool *stop);

/* In every decision below sc is the caller's scratch; NULL makes one for
 * this call only (and fails with ENGINE_NO_MEMORY if it cannot), which is
 * slower: a tool's or a test's convenience. */

/* The best move of the player on roll for dice d1, d2: ENGINE_OK with *best
 * set, or ENGINE_NO_MOVE. With the cube in use (cs->cube_in_use) the best
 * by his cubeful equity after it (match: cubeful match winning chance) at
 * the search's deepest ply, as gnubg chooses; without it, by the cubeless
 * one. */
EngineResult engine_move(const Engine *e, EngineScratch *sc, const Position *p, int d1,
                         int d2, const CubeState *cs, int plies, Move *best, Err *err);

/* engine_move's choice among legal, the caller's list of the legal moves
 * for dice d1, d2 (movegen_generate of p): ENGINE_OK with *index its place
 * there, or ENGINE_NO_MOVE for an empty list. Spares a caller that has the
 * list already, to check or write the answer, a second one. */
EngineResult engine_move_among(const Engine *e, EngineScratch *sc, const Position *p,
                               const MoveList *legal, const CubeState *cs, int plies,
                               int *index, Err *err);

/* The player on roll, before rolling: double or roll? Rolls wherever the
 * rules forbid the double (cubestate_may_double: no cube, Crawford, owner,
 * max cube, dead cube, Holland). */
EngineResult engine_double(const Engine *e, EngineScratch *sc, const Position *p,
                           const CubeState *cs, int plies, CubeDecision *out, Err *err);

/* The player on roll has doubled (cube in cs is the value before the double);
 * side 0 must answer: drop, take, or beaver (only where cubestate_may_beaver:
 * money, beavers allowed and not all made, room under max_cube). */
EngineResult engine_take(const Engine *e, EngineScratch *sc, const Position *p,
                         const CubeState *cs, int plies, TakeDecision *out, Err *err);

/* Side 0 (not on roll) offers to resign `level` (1 single, 2 gammon,
 * 3 backgammon) times the cube; should the player on roll accept? */
EngineResult engine_accept_resignation(const Engine *e, EngineScratch *sc, const Position *p,
                                       const CubeState *cs, int level, int plies, bool *accept,
                                       Err *err);

/* Evaluates the position (player on roll about to roll). */
EngineResult engine_evaluate(const Engine *e, EngineScratch *sc, const Position *p,
                             const CubeState *cs, const EvalOptions *opt, Evaluation *out,
                             Err *err);

/* --- hints: the numbers behind the decisions, for `shesh hint` --- */

/* A legal move as the engine values it. */
typedef struct EngineCandidate {
    Move move;
    int plies;       /* the depth it was valued at */
    Evaluation ev;   /* chances after it from the mover's view; equity:
                        cubeless (money per cube unit, or match winning
                        chance) */
    double cubeful;  /* the same, cubeful: the other side then on roll */
} EngineCandidate;

/* Every legal move (at most max) for dice d1, d2, ranked as engine_move
 * ranks them at `plies`: its choice first, then those it valued deeper,
 * then the rest at 0 ply. *n = 0 when no move is legal. */
EngineResult engine_hint_moves(const Engine *e, EngineScratch *sc, const Position *p, int d1,
                               int d2, const CubeState *cs, int plies, EngineCandidate *out,
                               int max, int *n, Err *err);

/* The cube decision of the player on roll, before rolling, with its
 * cubeful equities (his, per cube unit in money play; his match winning
 * chance in match play). */
typedef struct EngineCubeHint {
    Evaluation ev;       /* cubeless chances and equity */
    double no_double, double_take, double_pass;
    bool may_double;     /* the rules let him double now */
    CubeDecision action; /* what engine_double answers */
    TakeDecision answer; /* what engine_take answers to his double */
} EngineCubeHint;

EngineResult engine_hint_cube(const Engine *e, EngineScratch *sc, const Position *p,
                              const CubeState *cs, int plies, EngineCubeHint *out, Err *err);

/* --- the 21 rolls, for a rollout's luck --- */

/* The distinct rolls: 1-1, 1-2 .. 1-6, 2-2, 2-3 .. 6-6 (d1 <= d2). */
#define ENGINE_ROLLS 21

/* For each of the 21 rolls, in that order, the move of the player on roll
 * as the search picks them inside its lookahead (pubeval's few best moves,
 * then the evaluator: a third of the cost of engine_move's), valued as
 * engine_hint_moves values a candidate at 0 plies. A roll without a legal
 * move passes: move.parts is 0, move.result the board as it was, and the
 * values are those of the other side on roll. What a rollout measures the
 * luck of a roll against: any fixed choice will do, a good one cancels
 * more of the luck. */
EngineResult engine_roll_choices(const Engine *e, EngineScratch *sc, const Position *p,
                                 const CubeState *cs, EngineCandidate out[ENGINE_ROLLS],
                                 Err *err);

#endif
