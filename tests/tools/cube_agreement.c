/* cube_agreement.c - how often the engine's cube and resignation answers
 * agree with gnubg 1.07's 0-ply answers in positions/gnubg-1.07/fibs.tsv.gz
 * (the synth:cube, synth:take and synth:resign rows), for docs/engine.md.
 *
 * Build and run from the top of the tree:
 *   make build/tools/cube_agreement
 *   build/tools/cube_agreement [ENGINE] [PLIES]
 *
 * Each row's Position ID and Match ID are seen by the side that must act
 * (gnubg's player 1). Cube rows where that side has no access to the cube,
 * or a dead cube, are left out: gnubg answers `double` there too. Take rows
 * are asked from the doubler's side, as engine_take() wants them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube.h"
#include "engine.h"
#include "matchid.h"
#include "posid.h"
#include "tsv.h"

static CubeState cube_state(const MatchId *m, const char *rules)
{
    CubeState cs;
    memset(&cs, 0, sizeof cs);
    cs.cube_in_use = true;
    cs.cube = m->cube;
    cs.owner = m->cube_owner;
    cs.max_cube = MATCHID_MAX_CUBE;
    cs.match_length = m->match_length;
    cs.score[0] = m->score[0];
    cs.score[1] = m->score[1];
    cs.crawford = m->crawford;
    cs.jacoby = m->jacoby;
    cs.beavers = strstr(rules, "with Beavers") ? 1 : 0;
    if (m->match_length > 0 && !m->crawford &&
        (m->match_length - m->score[0] == 1 || m->match_length - m->score[1] == 1))
        cs.post_crawford = true;
    return cs;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "default";
    int plies = argc > 2 ? atoi(argv[2]) : 0;
    Err err = {{0}};
    Engine *e = engine_new(name, &err);
    TsvReader *r = malloc(sizeof *r);
    EngineScratch *sc = engine_scratch_new(&err);
    if (!e || !r || !sc || !tsv_open(r, "positions/gnubg-1.07/fibs.tsv.gz")) {
        fprintf(stderr, "cube_agreement: %s\n", e ? "cannot read the vectors" : err.text);
        return 1;
    }
    static const char *const kinds[3] = {"synth:cube", "synth:take", "synth:resign"};
    static const char *const answers[3][3] = {
        {"roll", "double", NULL}, {"drop", "take", "beaver"}, {"reject", "accept", NULL}};
    int rows[3] = {0}, agree[3] = {0};
    while (tsv_next(r)) {
        int k = 0;
        while (k < 3 && !strstr(r->field[0], kinds[k]))
            k++;
        Position p;
        MatchId m;
        if (k == 3 || !posid_decode(r->field[3], &p, NULL) ||
            !matchid_decode(r->field[4], &m, NULL))
            continue;
        int theirs = -1, ours;
        for (int a = 0; a < 3; a++)
            if (answers[k][a] && !strcmp(r->field[2], answers[k][a]))
                theirs = a;
        if (theirs < 0)
            continue;
        CubeState cs = cube_state(&m, r->field[7]);
        if (k == 0) {
            if (!cubestate_may_double(&cs, SIDE_ROLLER))
                continue;
            CubeDecision d = CUBE_ROLL;
            engine_double(e, sc, &p, &cs, plies, &d, NULL);
            ours = d == CUBE_DOUBLE;
        } else if (k == 1) {
            /* The doubler's side: swap the position and the score. */
            pos_swap(&p);
            int s = cs.score[0];
            cs.score[0] = cs.score[1];
            cs.score[1] = s;
            cs.owner = cs.owner < 0 ? -1 : !cs.owner;
            TakeDecision t = TAKE_TAKE;
            engine_take(e, sc, &p, &cs, plies, &t, NULL);
            ours = t == TAKE_DROP ? 0 : t == TAKE_TAKE ? 1 : 2;
        } else {
            const char *level = strstr(r->field[1], "resignation ");
            bool yes = false;
            engine_accept_resignation(e, sc, &p, &cs, level ? atoi(level + 12) : 1, plies, &yes,
                                      NULL);
            ours = yes;
        }
        rows[k]++;
        agree[k] += ours == theirs;
    }
    for (int k = 0; k < 3; k++)
        printf("%s: %d of %d agree\n", kinds[k], agree[k], rows[k]);
    tsv_close(r);
    free(r);
    engine_scratch_free(sc);
    engine_free(e);
    return 0;
}
