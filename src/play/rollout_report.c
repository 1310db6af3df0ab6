/* rollout_report.c - a rollout's report and the merge of shards
 * (rollout_report.h). */
#include "rollout_report.h"

#include <string.h>

bool rollout_report_valid(const RolloutReport *r, Err *err)
{
    if (!memchr(r->input, '\0', sizeof r->input))
        return err_set(err, "the input is too long");
    if (r->count < 1 || r->count > ROLLOUT_MOVES_MAX)
        return err_set(err, "%d rollouts: 1 to %d", r->count, ROLLOUT_MOVES_MAX);
    if ((r->dice[0] == 0) != (r->dice[1] == 0) || r->dice[0] < 0 || r->dice[0] > 6 ||
        r->dice[1] < 0 || r->dice[1] > 6)
        return err_set(err, "bad dice %d-%d", r->dice[0], r->dice[1]);
    if (!r->dice[0] && r->count != 1)
        return err_set(err, "moves without dice");
    if (r->trials < 0 || r->plies < 0 || r->truncate < 0 || r->match_to < 0 || r->cube < 1)
        return err_set(err, "a count is negative");
    if (r->cube_owner < -1 || r->cube_owner > 1)
        return err_set(err, "bad cube owner");
    if (r->shard[1] < 1 || r->shard[0] < 1 || r->shard[0] > r->shard[1])
        return err_set(err, "shard %d of %d", r->shard[0], r->shard[1]);
    for (int i = 0; i < r->count; i++) {
        const RolloutReportMove *m = &r->moves[i];
        if (m->sums.trials < 0 || m->sums.trials > r->trials)
            return err_set(err, "%lld trials of %lld asked", (long long)m->sums.trials,
                           (long long)r->trials);
        if (m->sums.trials != r->moves[0].sums.trials)
            return err_set(err, "the moves have different numbers of trials");
        if (!memchr(m->move, '\0', sizeof m->move) || !memchr(m->position, '\0', sizeof m->position))
            return err_set(err, "a move's text is too long");
    }
    return true;
}

/* The two reports roll out the same thing the same way. */
static bool same_run(const RolloutReport *a, const RolloutReport *b, Err *err)
{
    if (strcmp(a->input, b->input) || a->dice[0] != b->dice[0] || a->dice[1] != b->dice[1])
        return err_set(err, "not the same position and roll");
    if (strcmp(a->rules, b->rules))
        return err_set(err, "not the same rules");
    if (a->match_to != b->match_to || a->score[0] != b->score[0] ||
        a->score[1] != b->score[1] || a->cube != b->cube || a->cube_owner != b->cube_owner)
        return err_set(err, "not the same score and cube");
    if (!a->engine[0] != !b->engine[0])
        return err_set(err, "one shard was made before rollouts named their network");
    if (strcmp(a->engine, b->engine) || strcmp(a->network, b->network))
        return err_set(err, "not the same network ('%s' %s and '%s' %s)", a->engine, a->network,
                       b->engine, b->network);
    if (a->plies != b->plies || a->truncate != b->truncate || a->cubeful != b->cubeful ||
        a->vr != b->vr || a->seed != b->seed || a->trials != b->trials)
        return err_set(err, "not the same settings (plies, truncation, cube, variance "
                            "reduction, seed, trials)");
    if (a->shard[1] != b->shard[1])
        return err_set(err, "not the same number of shards");
    if (a->count != b->count)
        return err_set(err, "not the same moves");
    for (int i = 0; i < a->count; i++)
        if (a->moves[i].rank != b->moves[i].rank || strcmp(a->moves[i].move, b->moves[i].move) ||
            strcmp(a->moves[i].position, b->moves[i].position))
            return err_set(err, "not the same moves");
    return true;
}

bool rollout_report_merge(RolloutReport *into, const RolloutReport *add, Err *err)
{
    if (!same_run(into, add, err))
        return false;
    RolloutReport r = *into;
    for (int i = 0; i < r.count; i++)
        if (!rollout_sums_merge(&r.moves[i].sums, &add->moves[i].sums, err))
            return false;
    if (r.moves[0].sums.trials > r.trials)
        return err_set(err, "more trials than the run asked: a shard counted twice?");
    r.interrupted = r.interrupted || add->interrupted;
    *into = r;
    return true;
}
