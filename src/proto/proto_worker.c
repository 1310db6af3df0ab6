/* proto_worker.c - the per-thread part of the protocol layer (see
 * proto_config.h): made once, so that answering a request allocates no
 * scratch memory. */
#include "proto_worker.h"

#include <stdlib.h>

#include "player_engine.h"

ProtoWorker *proto_worker_new(const ProtoConfig *cfg, Err *err)
{
    ProtoWorker *w = calloc(1, sizeof *w);
    if (!w || !(w->legal = malloc(sizeof *w->legal)) ||
        !(w->cands = malloc(ANSWER_MOVES_MAX * sizeof *w->cands)) ||
        !(w->ranked = malloc(MOVES_MAX * sizeof *w->ranked)) ||
        !(w->fields = malloc(sizeof *w->fields))) {
        proto_worker_free(w);
        err_set(err, "out of memory for a request worker");
        return NULL;
    }
    if (!cfg->engine)
        return w; /* every board request is answered with an error */
    w->scratch = cfg->table ? engine_scratch_new_sharing(cfg->table, err) : engine_scratch_new(err);
    if (w->scratch)
        w->player = player_engine_new_on(cfg->engine, cfg->plies, NULL, w->scratch, err);
    if (!w->player) {
        proto_worker_free(w);
        return NULL;
    }
    return w;
}

void proto_worker_free(ProtoWorker *w)
{
    if (!w)
        return;
    player_close(w->player);
    engine_scratch_free(w->scratch);
    free(w->legal);
    free(w->cands);
    free(w->ranked);
    free(w->fields);
    free(w);
}

void proto_worker_set_stop(ProtoWorker *w, const atomic_bool *stop)
{
    if (w->scratch)
        engine_scratch_set_stop(w->scratch, stop);
    if (w->player)
        player_engine_set_stop(w->player, stop);
}
