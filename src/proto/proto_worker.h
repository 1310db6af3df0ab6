/* proto_worker.h - what a ProtoWorker holds (proto_config.h). Private to
 * the proto_*.c files. */
#ifndef SHESH_PROTO_WORKER_H
#define SHESH_PROTO_WORKER_H

#include "engine.h"
#include "movegen.h"
#include "player.h"
#include "proto_config.h"

struct ProtoWorker {
    Player *player;         /* board decisions: the engine at cfg->plies;
                               NULL when the server has no engine */
    EngineScratch *scratch; /* evaluations, at the plies each one asks */
    MoveList *legal;        /* the legal moves a move answer is checked against */
};

#endif
