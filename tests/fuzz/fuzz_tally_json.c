/* fuzz_tally_json.c - libFuzzer harness for a run's tally read back from
 * its JSON summary (tally_json.h), as `shesh stats merge` reads the
 * "tally" of each shard's summary.
 *
 * The input is the JSON text of the tally itself (jansson's json_loadb).
 * A refusal must say why on one line. A tally read must have its counts
 * not negative (only the sums of net points, "sum", "cross" and the seat
 * points, may be), read the same twice, and come back field for field
 * from the summary the reports write of it (match_report_json, whose
 * "tally" is tally_write_json's: util/json.h's names clash with
 * jansson's, so the writer is reached through the report, in the
 * library). Merged with itself (two shards with the same sums) it doubles
 * every sum, or says it overflowed without undefined behaviour; the text
 * report of any tally read is printed without fault. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_report.h"
#include "tally_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n'))
        abort();
}

static void check_signs(const Tally *t)
{
    if (t->games < 0 || t->matches < 0)
        abort();
    StatsPairs p = t->pairs;
    for (const TallyField *f = tally_pair_fields; f->name; f++)
        if (*tally_pairs_field(&p, f) < 0 && strcmp(f->name, "sum") && strcmp(f->name, "cross"))
            abort();
    for (int s = 0; s < 2; s++) {
        TallySide side = t->side[s];
        for (const TallyField *f = tally_side_fields; f->name; f++)
            if (*tally_field(&side, f) < 0 && strcmp(f->name, "seat0_points") &&
                strcmp(f->name, "seat1_points"))
                abort();
    }
}

/* The report of t in memory; the caller frees it. */
static char *report(const Tally *t, bool json, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        abort();
    MatchReport m;
    memset(&m, 0, sizeof m);
    m.tally = t;
    m.players[0] = "shesh";
    m.players[1] = "pubeval";
    m.names[0] = "shesh-0";
    m.names[1] = "pubeval";
    m.seed = 1;
    m.rules = "money";
    m.match_to = t->matches ? 3 : 0;
    m.seconds = -1;
    if (json)
        match_report_json(&m, f);
    else
        match_report_text(&m, f);
    if (fclose(f) != 0 || !text)
        abort();
    return text;
}

/* What the summary's "tally" reads back as must be t. */
static void round_trip(const Tally *t)
{
    size_t len;
    char *text = report(t, true, &len);
    json_error_t je;
    json_t *j = json_loadb(text, len, 0, &je);
    if (!j)
        abort(); /* the report is JSON */
    Tally back;
    Err err;
    if (!tally_json_read(json_object_get(j, "tally"), &back, &err) ||
        memcmp(&back, t, sizeof back))
        abort();
    json_decref(j);
    free(text);
    text = report(t, false, &len);
    free(text);
}

static bool add_overflows(int64_t a, int64_t b)
{
    return (b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b);
}

/* t merged with itself: twice every sum, or false if one overflows. */
static void merge_twice(const Tally *t)
{
    Tally twice = *t;
    bool ok = tally_merge(&twice, t);
    const int64_t *x = (const int64_t *)(const void *)t;
    const int64_t *y = (const int64_t *)(const void *)&twice;
    bool overflow = false;
    for (size_t i = 0; i < sizeof *t / sizeof *x; i++)
        overflow = overflow || add_overflows(x[i], x[i]);
    if (ok == overflow)
        abort();
    for (size_t i = 0; i < sizeof *t / sizeof *x; i++)
        if (ok ? y[i] != 2 * x[i] : y[i] != x[i])
            abort(); /* a merge that fails leaves the tally as it was */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *j = json_loadb((const char *)data, size, 0, &je);
    if (!j)
        return 0;
    Tally t, again;
    Err err;
    memset(&err, 'x', sizeof err);
    if (!tally_json_read(j, &t, &err)) {
        check_err(&err);
    } else {
        check_signs(&t);
        if (!tally_json_read(j, &again, NULL) || memcmp(&t, &again, sizeof t))
            abort();
        round_trip(&t);
        merge_twice(&t);
    }
    json_decref(j);
    return 0;
}
