/* rollout_print.c - a rollout's report as text or JSON (rollout_print.h). */
#include "rollout_print.h"

#include "buf.h"
#include "eval_outputs.h"
#include "json.h"
#include "rollout_json.h"

static const char *owner_name(int owner)
{
    return owner < 0 ? "centred" : owner == 1 ? "player" : "opponent";
}

/* The five chances as printed: with the luck taken out, a mean may stray
 * a little past 0 or past the chance it is part of (a backgammon rate of
 * -0.001 where few happen), so they are kept chances; the equities and
 * the exact sums stay as measured. */
static void chances(const RolloutSums *s, double c[OUT_COUNT])
{
    for (int k = 0; k < OUT_COUNT; k++)
        c[k] = rollout_sums_mean(s, k);
    eval_clamp(c);
}

/* The value moves are ranked by: the cubeful equity, or the cubeless one. */
static int rank_value(const RolloutReport *r)
{
    return r->cubeful ? ROLLOUT_CUBEFUL : ROLLOUT_CUBELESS;
}

/* The order moves are printed in: best by the rollout first, ties in the
 * engine's order. */
static void ranked(const RolloutReport *r, int order[ROLLOUT_MOVES_MAX])
{
    int k = rank_value(r);
    for (int i = 0; i < r->count; i++) {
        int at = i;
        double v = rollout_sums_mean(&r->moves[i].sums, k);
        while (at > 0 && rollout_sums_mean(&r->moves[order[at - 1]].sums, k) < v) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
}

static void print_heading(const RolloutReport *r, FILE *out)
{
    fprintf(out, "%s", r->input);
    if (r->dice[0])
        fprintf(out, " %d%d", r->dice[0], r->dice[1]);
    if (r->match_to)
        fprintf(out, ": %d-point match, score %d-%d", r->match_to, r->score[0], r->score[1]);
    else
        fprintf(out, ": money");
    fprintf(out, ", cube %d %s\n", r->cube, owner_name(r->cube_owner));
    long long done = (long long)r->moves[0].sums.trials;
    fprintf(out, "  rollout: ");
    if (done == r->trials)
        fprintf(out, "%lld trials", done);
    else
        fprintf(out, "%lld of %lld trials", done, (long long)r->trials);
    fprintf(out, "%s%s, %d %s, %s", r->dice[0] ? " each" : "", r->interrupted ? " (interrupted)" : "",
           r->plies, r->plies == 1 ? "ply" : "plies", r->cubeful ? "cubeful" : "cubeless");
    if (r->truncate)
        fprintf(out, ", truncated after %d turns", r->truncate);
    fprintf(out, ", %s, seed %llu", r->vr ? "variance reduction" : "no variance reduction",
           (unsigned long long)r->seed);
    if (r->shard[1] > 1)
        fprintf(out, ", shard %d of %d", r->shard[0], r->shard[1]);
    fprintf(out, "\n");
}

static void print_text(const RolloutReport *r, FILE *out)
{
    print_heading(r, out);
    const char *unit = r->match_to ? " (match winning chances)" : "";
    if (!r->dice[0]) {
        const RolloutSums *s = &r->moves[0].sums;
        fprintf(out, "            win      wg     wbg      lg     lbg   cubeless%s%s\n",
               r->cubeful ? "    cubeful" : "", unit);
        double c[OUT_COUNT];
        chances(s, c);
        fprintf(out, "  mean ");
        for (int k = 0; k < OUT_COUNT; k++)
            fprintf(out, "  %.4f", c[k]);
        fprintf(out, "    %+.4f", rollout_sums_mean(s, ROLLOUT_CUBELESS));
        if (r->cubeful)
            fprintf(out, "    %+.4f", rollout_sums_mean(s, ROLLOUT_CUBEFUL));
        fprintf(out, "\n  se   ");
        for (int k = 0; k < OUT_COUNT; k++)
            fprintf(out, "  %.4f", rollout_sums_se(s, k));
        fprintf(out, "     %.4f", rollout_sums_se(s, ROLLOUT_CUBELESS));
        if (r->cubeful)
            fprintf(out, "     %.4f", rollout_sums_se(s, ROLLOUT_CUBEFUL));
        fprintf(out, "\n");
        return;
    }
    int order[ROLLOUT_MOVES_MAX], k = rank_value(r);
    ranked(r, order);
    double best = rollout_sums_mean(&r->moves[order[0]].sums, k);
    fprintf(out, "     %-24s hint  %-8s     se     diff%s    win     wg    wbg     lg    lbg%s\n",
           "move", r->cubeful ? "cubeful" : "cubeless", r->cubeful ? "  cubeless     se" : "",
           unit);
    for (int i = 0; i < r->count; i++) {
        const RolloutReportMove *m = &r->moves[order[i]];
        const RolloutSums *s = &m->sums;
        char diff[16] = "";
        if (i > 0)
            snprintf(diff, sizeof diff, "%+.4f", rollout_sums_mean(s, k) - best);
        fprintf(out, "  %2d %-24s %4d  %+8.4f  %.4f  %7s", i + 1, m->move, m->rank,
               rollout_sums_mean(s, k), rollout_sums_se(s, k), diff);
        if (r->cubeful)
            fprintf(out, "   %+.4f %.4f", rollout_sums_mean(s, ROLLOUT_CUBELESS),
                   rollout_sums_se(s, ROLLOUT_CUBELESS));
        double c[OUT_COUNT];
        chances(s, c);
        for (int j = 0; j < OUT_COUNT; j++)
            fprintf(out, "  %.3f", c[j]);
        fprintf(out, "\n");
    }
}

/* The values of the mode: no cubeful one in a cubeless rollout. */
static int values_of(const RolloutReport *r)
{
    return r->cubeful ? ROLLOUT_VALUES : ROLLOUT_CUBEFUL;
}

static void json_values(Json *j, const RolloutReport *r, const RolloutSums *s)
{
    int n = values_of(r);
    double c[OUT_COUNT];
    chances(s, c);
    for (int k = 0; k < n; k++) {
        json_key(j, rollout_value_names[k]);
        json_num(j, k < OUT_COUNT ? c[k] : rollout_sums_mean(s, k));
    }
    json_key(j, "se");
    json_object_begin(j);
    for (int k = 0; k < n; k++) {
        json_key(j, rollout_value_names[k]);
        json_num(j, rollout_sums_se(s, k));
    }
    json_object_end(j);
    /* The exact sums, in units of 1e-9 (squares: 1e-18), as decimal
     * strings: what rollout merge adds up. */
    json_key(j, "sums");
    json_object_begin(j);
    json_key(j, "trials");
    json_int(j, (long long)s->trials);
    char a[ROLLOUT_WIDE_TEXT], b[ROLLOUT_WIDE_TEXT];
    for (int k = 0; k < n; k++) {
        json_key(j, rollout_value_names[k]);
        json_array_begin(j);
        json_str(j, rollout_wide_text(s->sum[k], a));
        json_str(j, rollout_wide_text(s->sum_sq[k], b));
        json_array_end(j);
    }
    json_object_end(j);
}

static void print_json(const RolloutReport *r, FILE *out)
{
    Buf b;
    buf_init(&b);
    Json j;
    json_begin(&j, &b);
    json_object_begin(&j);
    json_key(&j, "input");
    json_str(&j, r->input);
    json_key(&j, "plies");
    json_int(&j, r->plies);
    json_key(&j, "engine");
    json_str(&j, r->engine);
    json_key(&j, "network");
    json_str(&j, r->network);
    json_key(&j, "match_to");
    json_int(&j, r->match_to);
    if (r->match_to) {
        json_key(&j, "score");
        json_array_begin(&j);
        json_int(&j, r->score[0]);
        json_int(&j, r->score[1]);
        json_array_end(&j);
    }
    json_key(&j, "cube");
    json_int(&j, r->cube);
    json_key(&j, "cube_owner");
    json_str(&j, owner_name(r->cube_owner));
    json_key(&j, "equity_kind");
    json_str(&j, r->match_to ? "match_winning_chance" : "money");
    json_key(&j, "rules");
    json_str(&j, r->rules);
    json_key(&j, "mode");
    json_str(&j, r->cubeful ? "cubeful" : "cubeless");
    json_key(&j, "trials");
    json_int(&j, (long long)r->trials);
    json_key(&j, "seed");
    json_int(&j, (long long)r->seed);
    json_key(&j, "truncate");
    json_int(&j, r->truncate);
    json_key(&j, "variance_reduction");
    json_bool(&j, r->vr);
    if (r->shard[1] > 1) {
        json_key(&j, "shard");
        json_array_begin(&j);
        json_int(&j, r->shard[0]);
        json_int(&j, r->shard[1]);
        json_array_end(&j);
    }
    json_key(&j, "interrupted");
    json_bool(&j, r->interrupted);
    if (!r->dice[0]) {
        json_values(&j, r, &r->moves[0].sums);
    } else {
        json_key(&j, "dice");
        json_array_begin(&j);
        json_int(&j, r->dice[0]);
        json_int(&j, r->dice[1]);
        json_array_end(&j);
        int order[ROLLOUT_MOVES_MAX], k = rank_value(r);
        ranked(r, order);
        double best = rollout_sums_mean(&r->moves[order[0]].sums, k);
        json_key(&j, "moves");
        json_array_begin(&j);
        for (int i = 0; i < r->count; i++) {
            const RolloutReportMove *m = &r->moves[order[i]];
            json_object_begin(&j);
            json_key(&j, "move");
            json_str(&j, m->move);
            json_key(&j, "position");
            json_str(&j, m->position);
            json_key(&j, "rank");
            json_int(&j, m->rank);
            json_key(&j, "diff");
            json_num(&j, rollout_sums_mean(&m->sums, k) - best);
            json_values(&j, r, &m->sums);
            json_object_end(&j);
        }
        json_array_end(&j);
    }
    json_object_end(&j);
    fprintf(out, "%s\n", b.data);
    buf_free(&b);
}

void rollout_print(const RolloutReport *r, bool json, FILE *out)
{
    if (json)
        print_json(r, out);
    else
        print_text(r, out);
}

