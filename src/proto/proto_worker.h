/* proto_worker.h - what a ProtoWorker holds (proto_config.h). Private to
 * the proto_*.c files. */
#ifndef SHESH_PROTO_WORKER_H
#define SHESH_PROTO_WORKER_H

#include "answer_json.h"
#include "engine.h"
#include "id_fields.h"
#include "movegen.h"
#include "player.h"
#include "proto_config.h"

struct ProtoWorker {
    Player *player;         /* board decisions: the engine at cfg->plies;
                               NULL when the server has no engine */
    EngineScratch *scratch; /* lent to the player; evaluations, at the plies
                               each one asks */
    MoveList *legal;        /* the legal moves a move answer is checked against,
                               and those /v1/moves lists */
    /* The HTTP API's (http_api.c): the ranked candidates of /v1/move, the
     * order of /v1/moves, what /v1/id says. */
    EngineCandidate *cands; /* ANSWER_MOVES_MAX */
    AnswerRanked *ranked;   /* MOVES_MAX */
    IdItem item;
    Fields *fields;
};

#endif
