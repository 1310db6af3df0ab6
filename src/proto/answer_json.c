/* answer_json.c - the JSON answers of the engine's advice (answer_json.h). */
#include "answer_json.h"

#include <stdlib.h>
#include <string.h>

#include "gnubgid.h"
#include "movetext.h"
#include "posid.h"

const char *answer_cube_owner(const CubeState *cs)
{
    return cs->owner < 0 ? "centred" : cs->owner == SIDE_ROLLER ? "player" : "opponent";
}

const char *answer_cube_action(const EngineCubeHint *h, const CubeState *cs)
{
    /* Of the reasons the rules forbid the double, a dead cube (his score
     * plus the cube reaches the match length) is the one a player does not
     * see on the cube itself: name it. */
    if (!h->may_double)
        return cubestate_double_bars(cs, SIDE_ROLLER) == CUBE_BAR_DEAD
                   ? "no double (the cube is dead)"
                   : "no double (the rules allow none)";
    if (h->action == CUBE_DOUBLE)
        return h->answer == TAKE_DROP     ? "double, pass"
               : h->answer == TAKE_BEAVER ? "double, beaver"
                                          : "double, take";
    if (h->answer == TAKE_DROP && h->no_double > h->double_pass)
        return "too good to double, pass";
    return h->answer == TAKE_DROP     ? "no double, pass"
           : h->answer == TAKE_BEAVER ? "no double, beaver"
                                      : "no double, take";
}

bool answer_read_dice(const char *s, int dice[2], Err *err)
{
    size_t n = strlen(s);
    bool ok = (n == 2 || (n == 3 && s[1] == '-')) && s[0] >= '1' && s[0] <= '6' &&
              s[n - 1] >= '1' && s[n - 1] <= '6';
    if (!ok)
        return err_set(err, "bad dice '%.20s': two dice 1 to 6, as 31 or 3-1", s);
    dice[0] = s[0] - '0';
    dice[1] = s[n - 1] - '0';
    return true;
}

bool answer_read_board(const char *id, Position *p, int dice[2], bool *has_dice, Err *err)
{
    *has_dice = false;
    IdKind kind = gnubgid_kind(id);
    if (kind != ID_GNUBG && kind != ID_XGID)
        return posid_decode(id, p, err);
    AnyId any;
    if (!gnubgid_read_any(id, &any, err))
        return false;
    *p = any.pos;
    *has_dice = any.match.dice[0] > 0;
    dice[0] = any.match.dice[0];
    dice[1] = any.match.dice[1];
    return true;
}

void answer_json_position(Json *j, const char *id, int plies, const CubeState *cs)
{
    json_key(j, "input");
    json_str(j, id);
    json_key(j, "plies");
    json_int(j, plies);
    json_key(j, "match_to");
    json_int(j, cs->match_length);
    json_key(j, "cube");
    json_int(j, cs->cube);
    json_key(j, "cube_owner");
    json_str(j, answer_cube_owner(cs));
}

void answer_json_chances(Json *j, const Evaluation *e)
{
    static const char *const keys[5] = {"win", "win_gammon", "win_backgammon", "lose_gammon",
                                        "lose_backgammon"};
    const double v[5] = {e->p_win, e->p_win_gammon, e->p_win_bg, e->p_lose_gammon,
                         e->p_lose_bg};
    for (int i = 0; i < 5; i++) {
        json_key(j, keys[i]);
        json_num(j, v[i]);
    }
}

/* What a hint answer starts with; the roll only when there is one. */
static void hint_head(Json *j, const char *id, const int dice[2], const CubeState *cs, int plies)
{
    answer_json_position(j, id, plies, cs);
    json_key(j, "equity_kind");
    json_str(j, cs->match_length ? "match_winning_chance" : "money");
    if (dice && dice[0]) {
        json_key(j, "dice");
        json_array_begin(j);
        json_int(j, dice[0]);
        json_int(j, dice[1]);
        json_array_end(j);
    }
}

void answer_json_hint_moves(Buf *out, const char *id, const Position *p, const CubeState *cs,
                            const int dice[2], int plies, const EngineCandidate *cands, int n)
{
    char text[MOVETEXT_MAX], rid[POSID_LEN + 1];
    double best = n > 0 ? cands[0].cubeful : 0;
    Json j;
    json_begin(&j, out);
    json_object_begin(&j);
    hint_head(&j, id, dice, cs, plies);
    json_key(&j, "moves");
    json_array_begin(&j);
    for (int i = 0; i < n; i++) {
        const EngineCandidate *c = &cands[i];
        movetext_display(p, &c->move, text);
        posid_encode(&c->move.result, rid);
        json_object_begin(&j);
        json_key(&j, "move");
        json_str(&j, text);
        json_key(&j, "position");
        json_str(&j, rid);
        json_key(&j, "plies");
        json_int(&j, c->plies);
        answer_json_chances(&j, &c->ev);
        json_key(&j, "cubeless");
        json_num(&j, c->ev.equity);
        json_key(&j, "cubeful");
        json_num(&j, c->cubeful);
        json_key(&j, "diff");
        json_num(&j, c->cubeful - best);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
}

void answer_json_hint_cube(Buf *out, const char *id, const CubeState *cs, int plies,
                           const EngineCubeHint *h)
{
    Json j;
    json_begin(&j, out);
    json_object_begin(&j);
    hint_head(&j, id, NULL, cs, plies);
    answer_json_chances(&j, &h->ev);
    json_key(&j, "cubeless");
    json_num(&j, h->ev.equity);
    json_key(&j, "no_double");
    json_num(&j, h->no_double);
    json_key(&j, "double_take");
    json_num(&j, h->double_take);
    json_key(&j, "double_pass");
    json_num(&j, h->double_pass);
    json_key(&j, "may_double");
    json_bool(&j, h->may_double);
    json_key(&j, "action");
    json_str(&j, answer_cube_action(h, cs));
    json_object_end(&j);
}

void answer_json_eval(Buf *out, const char *id, const CubeState *cs, int plies,
                      const Evaluation *cubeless, const Evaluation *cubeful)
{
    Json j;
    json_begin(&j, out);
    json_object_begin(&j);
    answer_json_position(&j, id, plies, cs);
    answer_json_chances(&j, cubeless);
    /* Money: equity per cube unit; match play: match winning chance. */
    json_key(&j, "equity_kind");
    json_str(&j, cs->match_length ? "match_winning_chance" : "money");
    json_key(&j, "cubeless");
    json_num(&j, cubeless->equity);
    json_key(&j, "cubeful");
    json_num(&j, cubeful->equity);
    json_object_end(&j);
}

static int cmp_ranked(const void *a, const void *b)
{
    return strcmp(((const AnswerRanked *)a)->id, ((const AnswerRanked *)b)->id);
}

void answer_rank_moves(const MoveList *list, AnswerRanked *ranked)
{
    for (int i = 0; i < list->count; i++) {
        posid_encode(&list->moves[i].result, ranked[i].id);
        ranked[i].index = i;
    }
    qsort(ranked, (size_t)list->count, sizeof ranked[0], cmp_ranked);
}

void answer_json_moves(Buf *out, const Position *p, int d1, int d2, const MoveList *list,
                       const AnswerRanked *ranked)
{
    char id[POSID_LEN + 1], text[MOVETEXT_MAX];
    posid_encode(p, id);
    Json j;
    json_begin(&j, out);
    json_object_begin(&j);
    json_key(&j, "position_id");
    json_str(&j, id);
    json_key(&j, "dice");
    json_array_begin(&j);
    json_int(&j, d1);
    json_int(&j, d2);
    json_array_end(&j);
    json_key(&j, "moves");
    json_array_begin(&j);
    for (int k = 0; k < list->count; k++) {
        const AnswerRanked *m = &ranked[k];
        movetext_display(p, &list->moves[m->index], text);
        json_object_begin(&j);
        json_key(&j, "move");
        json_str(&j, text);
        json_key(&j, "result");
        json_str(&j, m->id);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
}
