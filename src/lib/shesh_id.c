/* shesh_id.c - IDs to a plain struct and back (shesh.h), by the readers
 * the command line uses (id_state.h), so that both accept the same IDs. */
#include <string.h>

#include "id_state.h"
#include "posid.h"
#include "lib_status.h"

shesh_status lib_read_id(const char *id, Position *p, CubeState *cs, int dice[2],
                           shesh_error *err)
{
    if (!id)
        return lib_failf(err, SHESH_ERR_ARG, "no ID (NULL)");
    Err why = {""};
    if (!id_state_position(id, NULL, p, cs, dice, &why))
        return lib_fail(err, SHESH_ERR_ID, &why);
    return SHESH_OK;
}

shesh_status shesh_decode_id(const char *id, shesh_position *out, shesh_error *err)
{
    if (!out)
        return lib_failf(err, SHESH_ERR_ARG, "no position to decode into (NULL)");
    Position p;
    CubeState cs;
    int dice[2];
    shesh_status rc = lib_read_id(id, &p, &cs, dice, err);
    if (rc != SHESH_OK)
        return rc;
    memset(out, 0, sizeof *out);
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < POS_SLOTS; i++)
            out->checkers[s][i] = p.side[s][i];
        out->dice[s] = dice[s];
        out->score[s] = cs.score[s];
    }
    out->cube = cs.cube;
    out->cube_owner = cs.owner;
    out->match_length = cs.match_length;
    out->crawford = cs.crawford;
    return SHESH_OK;
}

shesh_status shesh_encode_position_id(const shesh_position *pos, char *id, size_t size,
                                      shesh_error *err)
{
    if (!pos || !id)
        return lib_failf(err, SHESH_ERR_ARG, "no %s (NULL)", pos ? "ID buffer" : "position");
    if (size < POSID_LEN + 1)
        return lib_failf(err, SHESH_ERR_SIZE, "a Position ID needs %d bytes, the buffer has %zu",
                           POSID_LEN + 1, size);
    Position p;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < POS_SLOTS; i++) {
            int n = pos->checkers[s][i];
            /* Checked before narrowing: 256 must not pass as 0. */
            if (n < 0 || n > POS_CHECKERS)
                return lib_failf(err, SHESH_ERR_ARG, "side %d slot %d holds %d checkers", s, i,
                                   n);
            p.side[s][i] = (uint8_t)n;
        }
    Err why = {""};
    if (!pos_valid(&p, &why))
        return lib_fail(err, SHESH_ERR_ARG, &why);
    char text[POSID_LEN + 1];
    posid_encode(&p, text);
    memcpy(id, text, sizeof text);
    return SHESH_OK;
}
