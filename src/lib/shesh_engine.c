/* shesh_engine.c - the library's handles and version (shesh.h): thin
 * wrappers round engine.h that never abort. */
#include <stdlib.h>

#include "lib_status.h"
#include "version.h"

const char *shesh_version(void)
{
    return SHESH_VERSION;
}

shesh_engine *shesh_engine_new(const char *name, shesh_error *err)
{
    Err why = {""};
    /* engine_new takes NULL for the default; an unknown name is the
     * caller's mistake, anything else is memory. */
    if (name && !engine_known(name)) {
        lib_failf(err, SHESH_ERR_ENGINE, "unknown engine '%.40s' (known: default, calibrated)",
                    name);
        return NULL;
    }
    shesh_engine *h = calloc(1, sizeof *h);
    if (!h) {
        lib_failf(err, SHESH_ERR_MEMORY, "out of memory making an engine");
        return NULL;
    }
    h->engine = engine_new(name, &why);
    if (!h->engine) {
        free(h);
        lib_fail(err, SHESH_ERR_MEMORY, &why);
        return NULL;
    }
    return h;
}

void shesh_engine_free(shesh_engine *engine)
{
    if (!engine)
        return;
    engine_free(engine->engine);
    free(engine);
}

const char *shesh_engine_id(const shesh_engine *engine)
{
    return engine ? engine_id(engine->engine) : "";
}

shesh_scratch *shesh_scratch_new(shesh_error *err)
{
    Err why = {""};
    shesh_scratch *h = calloc(1, sizeof *h);
    if (h)
        h->scratch = engine_scratch_new(&why);
    if (!h || !h->scratch) {
        free(h);
        lib_fail(err, SHESH_ERR_MEMORY, &why);
        return NULL;
    }
    return h;
}

void shesh_scratch_free(shesh_scratch *scratch)
{
    if (!scratch)
        return;
    engine_scratch_free(scratch->scratch);
    free(scratch);
}
