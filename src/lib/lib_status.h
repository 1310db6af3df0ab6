/* lib_status.h - what the files of the library share and do not export:
 * the handles' insides and the one way a failure is reported. */
#ifndef SHESH_LIB_STATUS_H
#define SHESH_LIB_STATUS_H

#include "cube_state.h"
#include "engine.h"
#include "err.h"
#include "position.h"
#include "shesh.h"

struct shesh_engine {
    Engine *engine;
};

struct shesh_scratch {
    EngineScratch *scratch;
};

/* Fills err (when not NULL) with code and the text of why, and returns
 * code, so a failing call can say `return lib_fail(err, code, &why);`.
 * why may be NULL: the code's generic text then. */
shesh_status lib_fail(shesh_error *err, shesh_status code, const Err *why);

/* The same with a message of the library's own. */
shesh_status lib_failf(shesh_error *err, shesh_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The position, cube and dice of the player to act in id (shesh.h says
 * which IDs), under the standard rules for a Position ID. */
shesh_status lib_read_id(const char *id, Position *p, CubeState *cs, int dice[2],
                           shesh_error *err);

#endif
