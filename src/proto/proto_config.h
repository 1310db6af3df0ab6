/* proto_config.h - what every part of the protocol layer is handed: the
 * server-wide settings, the per-thread worker and the per-connection
 * session (a leaf, so that
 * proto.c and the parts it calls do not include each other). */
#ifndef SHESH_PROTO_CONFIG_H
#define SHESH_PROTO_CONFIG_H

#include "engine.h"
#include "err.h"

/* Server-wide settings, read-only while serving. */
typedef struct ProtoConfig {
    const Engine *engine;
    int plies;     /* depth of move and cube decisions for board lines */
    int max_plies; /* cap on `plies N` a client may ask for */
    /* The table of values every worker's scratch uses (engine_table_new),
     * so that a board any worker answered is found by all; NULL: each
     * worker keeps a table of its own. */
    EngineTable *table;
} ProtoConfig;

/* What one thread that answers requests owns (proto_worker_new): the player
 * that makes the board decisions (the engine at cfg->plies) and the scratch
 * memory it decides with, which evaluations use too. Made once per thread,
 * used by one request at a time. */
typedef struct ProtoWorker ProtoWorker;

/* A worker for cfg (which must outlive it); NULL with err filled when
 * memory is short. */
ProtoWorker *proto_worker_new(const ProtoConfig *cfg, Err *err);
void proto_worker_free(ProtoWorker *w);

/* The flag that stops w's decisions and evaluations under way when set by
 * another thread (engine_scratch_set_stop); NULL clears it. */
void proto_worker_set_stop(ProtoWorker *w, const atomic_bool *stop);

/* Per-connection state: only what lives across lines (debug flag, interface
 * flag, board convention, the colour gnubg's client has us play: see
 * proto/README.md); never a previous board. */
typedef struct ProtoSession ProtoSession;

#endif
