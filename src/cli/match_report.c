/* match_report.c - a run's summary as text or JSON (see match_report.h). */
#include "match_report.h"

#include <math.h>
#include <stddef.h>

#include "buf.h"
#include "json.h"

/* NaN (null in JSON) when no decision was timed: a run read back from its
 * records has no times. */
static double ms_per(const TallySide *s)
{
    return s->decisions ? (double)s->decision_us / 1e3 / (double)s->decisions : NAN;
}

static void json_pair(Json *j, const char *key, long long a, long long b)
{
    json_key(j, key);
    json_array_begin(j);
    json_int(j, a);
    json_int(j, b);
    json_array_end(j);
}

static void json_side_counts(Json *j, const char *key, const Tally *t, size_t offset)
{
    const int64_t *a = (const int64_t *)(const void *)((const char *)&t->side[0] + offset);
    const int64_t *b = (const int64_t *)(const void *)((const char *)&t->side[1] + offset);
    json_pair(j, key, (long long)*a, (long long)*b);
}

#define SIDE(j, key, t, field) json_side_counts(j, key, t, offsetof(TallySide, field))

void match_report_json(const MatchReport *m, FILE *out)
{
    const Tally *t = m->tally;
    StatsSummary sum, *s = &sum;
    stats_pairs_summary(&t->pairs, s);
    double wall = m->seconds;
    Buf b;
    buf_init(&b);
    Json j;
    json_begin(&j, &b);
    json_object_begin(&j);
    json_key(&j, "players");
    json_array_begin(&j);
    json_str(&j, m->players[0]);
    json_str(&j, m->players[1]);
    json_array_end(&j);
    json_key(&j, "names");
    json_array_begin(&j);
    json_str(&j, m->names[0]);
    json_str(&j, m->names[1]);
    json_array_end(&j);
    json_key(&j, "games");
    json_int(&j, t->games);
    json_key(&j, "pairs");
    json_int(&j, t->pairs.n);
    json_key(&j, "ppg");
    json_num(&j, s->ppg);
    json_key(&j, "se");
    json_num(&j, s->se);
    json_key(&j, "ci95");
    json_array_begin(&j);
    json_num(&j, s->ci95[0]);
    json_num(&j, s->ci95[1]);
    json_array_end(&j);
    SIDE(&j, "points", t, points);
    SIDE(&j, "wins", t, wins);
    SIDE(&j, "gammons", t, gammons);
    SIDE(&j, "backgammons", t, backgammons);
    SIDE(&j, "star_mars", t, star_mars);
    SIDE(&j, "forfeits", t, forfeits);
    json_key(&j, "cube");
    json_object_begin(&j);
    SIDE(&j, "doubles", t, doubles);
    SIDE(&j, "takes", t, takes);
    SIDE(&j, "drops", t, drops);
    SIDE(&j, "beavers", t, beavers);
    SIDE(&j, "raccoons", t, raccoons);
    SIDE(&j, "beavers_as_takes", t, beavers_as_takes);
    json_object_end(&j);
    json_key(&j, "resignations");
    json_object_begin(&j);
    SIDE(&j, "offered", t, resigns);
    SIDE(&j, "accepted", t, resigns_accepted);
    json_object_end(&j);
    json_key(&j, "seats");
    json_object_begin(&j);
    json_pair(&j, "a_games", (long long)t->side[0].seat_games[0],
              (long long)t->side[0].seat_games[1]);
    json_pair(&j, "a_points", (long long)t->side[0].seat_points[0],
              (long long)t->side[0].seat_points[1]);
    json_object_end(&j);
    json_key(&j, "decision_ms");
    json_array_begin(&j);
    json_num(&j, ms_per(&t->side[0]));
    json_num(&j, ms_per(&t->side[1]));
    json_array_end(&j);
    json_key(&j, "games_per_second");
    json_num(&j, wall > 0 ? (double)t->games / wall : NAN);
    json_key(&j, "seconds");
    json_num(&j, wall >= 0 ? wall : NAN);
    json_key(&j, "concurrency");
    if (m->concurrency > 0)
        json_int(&j, m->concurrency);
    else
        json_null(&j);
    if (m->shard[1] > 0) {
        json_key(&j, "shard");
        json_array_begin(&j);
        json_int(&j, m->shard[0]);
        json_int(&j, m->shard[1]);
        json_array_end(&j);
    }
    json_key(&j, "seed");
    /* A seed above 2^63 stays exact as text. */
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seed);
    json_str(&j, seed);
    json_key(&j, "rules");
    json_str(&j, m->rules);
    json_key(&j, "match_to");
    json_int(&j, m->match_to);
    if (m->match_to > 0) {
        double w[2];
        stats_wilson95(t->side[0].matches_won, t->matches, w);
        json_key(&j, "matches");
        json_object_begin(&j);
        json_key(&j, "played");
        json_int(&j, t->matches);
        SIDE(&j, "won", t, matches_won);
        json_key(&j, "a_rate");
        json_num(&j, t->matches ? (double)t->side[0].matches_won / (double)t->matches : NAN);
        json_key(&j, "ci95");
        json_array_begin(&j);
        json_num(&j, w[0]);
        json_num(&j, w[1]);
        json_array_end(&j);
        json_object_end(&j);
    }
    json_key(&j, "faults");
    json_int(&j, m->faults);
    if (m->sprt_on) {
        json_key(&j, "sprt");
        json_object_begin(&j);
        json_key(&j, "llr");
        json_num(&j, m->sprt_state.llr);
        json_key(&j, "bounds");
        json_array_begin(&j);
        json_num(&j, m->sprt_state.lower);
        json_num(&j, m->sprt_state.upper);
        json_array_end(&j);
        json_key(&j, "decision");
        json_str(&j, m->sprt_state.decision == SPRT_H0   ? "H0"
                     : m->sprt_state.decision == SPRT_H1 ? "H1"
                                                   : "none");
        json_object_end(&j);
    }
    json_key(&j, "interrupted");
    json_bool(&j, m->interrupted);
    /* Every sum as an integer, for `shesh stats merge`. */
    json_key(&j, "tally");
    tally_write_json(&j, t);
    if (m->paths[0]) {
        json_key(&j, "records");
        json_object_begin(&j);
        for (int i = 0; i < 2; i++) {
            char hex[16];
            snprintf(hex, sizeof hex, "%08x", m->crc[i]);
            json_key(&j, i ? "jsonl" : "mat");
            json_str(&j, m->paths[i]);
            json_key(&j, i ? "jsonl_crc32" : "mat_crc32");
            json_str(&j, hex);
        }
        json_object_end(&j);
    }
    json_object_end(&j);
    fprintf(out, "%s\n", b.data);
    buf_free(&b);
}

static double pct(int64_t a, int64_t n)
{
    return n ? 100.0 * (double)a / (double)n : 0.0;
}

void match_report_text(const MatchReport *m, FILE *out)
{
    const Tally *t = m->tally;
    StatsSummary sum, *s = &sum;
    stats_pairs_summary(&t->pairs, s);
    double wall = m->seconds;
    const char *na = m->names[0], *nb = m->names[1];
    const char *rules = m->rules;
    fprintf(out, "%s (A) vs %s (B): %lld games in %lld duplicate pairs, seed %llu%s\n", na, nb,
           (long long)t->games, (long long)t->pairs.n, (unsigned long long)m->seed,
           m->interrupted ? " (interrupted)" : "");
    fprintf(out, "  rules: %s\n", rules);
    if (t->pairs.n >= 2)
        fprintf(out, "  A points per game: %+.3f +- %.3f (SE), 95 %% interval [%+.3f, %+.3f]\n",
               s->ppg, s->se, s->ci95[0], s->ci95[1]);
    else
        fprintf(out, "  A points per game: %+.3f (too few pairs for an interval)\n", s->ppg);
    for (int k = 0; k < 2; k++) {
        const TallySide *x = &t->side[k];
        fprintf(out, "  %s: %lld points, %lld wins (%.1f %%): %lld gammons, %lld backgammons, "
               "%lld star mars; forfeits %lld\n",
               k ? "B" : "A", (long long)x->points, (long long)x->wins, pct(x->wins, t->games),
               (long long)x->gammons, (long long)x->backgammons, (long long)x->star_mars,
               (long long)x->forfeits);
    }
    for (int k = 0; k < 2; k++) {
        const TallySide *x = &t->side[k];
        fprintf(out, "  %s cube: %lld doubles, %lld takes, %lld drops, %lld beavers, %lld raccoons",
               k ? "B" : "A", (long long)x->doubles, (long long)x->takes, (long long)x->drops,
               (long long)x->beavers, (long long)x->raccoons);
        if (x->beavers_as_takes)
            fprintf(out, " (%lld beavers not allowed, taken)", (long long)x->beavers_as_takes);
        fprintf(out, "; resigned %lld (%lld accepted)\n", (long long)x->resigns,
               (long long)x->resigns_accepted);
    }
    const TallySide *a = &t->side[0];
    fprintf(out, "  A by seat: seat 0 %+.3f ppg (%lld games), seat 1 %+.3f ppg (%lld games)\n",
           a->seat_games[0] ? (double)a->seat_points[0] / (double)a->seat_games[0] : 0.0,
           (long long)a->seat_games[0],
           a->seat_games[1] ? (double)a->seat_points[1] / (double)a->seat_games[1] : 0.0,
           (long long)a->seat_games[1]);
    if (m->match_to > 0) {
        double w[2];
        stats_wilson95(a->matches_won, t->matches, w);
        fprintf(out, "  matches to %d: A won %lld of %lld (%.1f %%, 95 %% interval %.1f-%.1f %%)\n",
               m->match_to, (long long)a->matches_won, (long long)t->matches,
               pct(a->matches_won, t->matches), 100 * w[0], 100 * w[1]);
    }
    if (m->sprt_on)
        fprintf(out, "  SPRT ppg %g vs %g: LLR %.3f, bounds [%.3f, %.3f]: %s\n", m->sprt.ppg0,
               m->sprt.ppg1, m->sprt_state.llr, m->sprt_state.lower, m->sprt_state.upper,
               m->sprt_state.decision == SPRT_H0   ? "H0 accepted"
               : m->sprt_state.decision == SPRT_H1 ? "H1 accepted"
                                             : "undecided");
    if (t->side[0].decisions && t->side[1].decisions)
        fprintf(out, "  time per decision: A %.3f ms, B %.3f ms\n", ms_per(&t->side[0]),
                ms_per(&t->side[1]));
    if (wall > 0 && m->concurrency > 0)
        fprintf(out, "  %.1f games/s on %d threads\n", (double)t->games / wall,
                m->concurrency);
    if (m->shard[1] > 0)
        fprintf(out, "  shard %d of %d\n", m->shard[0], m->shard[1]);
    if (m->faults)
        fprintf(out, "  faults: %lld (each above on stderr)\n", (long long)m->faults);
    if (m->paths[0])
        fprintf(out, "  records: %s (crc32 %08x), %s (crc32 %08x)\n", m->paths[0], m->crc[0], m->paths[1],
               m->crc[1]);
}

/* --- records' names ------------------------------------------------------ */

