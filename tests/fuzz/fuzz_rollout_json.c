/* fuzz_rollout_json.c - libFuzzer harness for a rollout's report read
 * back from its JSON line (rollout_json.h), as `shesh rollout merge` reads
 * each shard's.
 *
 * A refusal must say why on one line. A report read must pass
 * rollout_report_valid, read the same twice, print as text without fault,
 * and come back the same from the JSON line the command prints of it
 * (rollout_print: util/json.h's names clash with jansson's, so the writer
 * is reached through the printer, in the library). Merged with itself (two
 * shards with the same sums) it doubles every sum, or says why not and is
 * left as it was. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rollout_json.h"
#include "rollout_print.h"
#include "rollout_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n'))
        abort();
}

/* r printed (JSON or text) in memory; the caller frees it. */
static char *printed(const RolloutReport *r, bool json, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        abort();
    rollout_print(r, json, f);
    if (fclose(f) != 0 || !text)
        abort();
    return text;
}

static RolloutReport r, again, back, twice;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char message[ROLLOUT_MESSAGE_MAX];
    Err err;
    memset(&err, 'x', sizeof err);
    RolloutLine kind = rollout_json_read((const char *)data, size, &r, message, &err);
    if (kind == ROLLOUT_LINE_BAD) {
        check_err(&err);
        return 0;
    }
    if (kind == ROLLOUT_LINE_ERROR) {
        if (!memchr(message, '\0', ROLLOUT_MESSAGE_MAX))
            abort();
        return 0;
    }
    if (!rollout_report_valid(&r, NULL))
        abort();
    if (rollout_json_read((const char *)data, size, &again, message, NULL) != ROLLOUT_LINE_REPORT ||
        memcmp(&r, &again, sizeof r))
        abort();
    size_t len;
    char *text = printed(&r, false, &len);
    free(text);
    text = printed(&r, true, &len);
    if (rollout_json_read(text, len, &back, message, &err) != ROLLOUT_LINE_REPORT ||
        memcmp(&r, &back, sizeof r))
        abort(); /* what the command prints reads back as what it printed */
    free(text);
    twice = r;
    memset(&err, 'x', sizeof err);
    if (rollout_report_merge(&twice, &r, &err)) {
        for (int i = 0; i < r.count; i++)
            for (int k = 0; k < ROLLOUT_VALUES; k++)
                if (twice.moves[i].sums.sum[k] != 2 * r.moves[i].sums.sum[k] ||
                    twice.moves[i].sums.trials != 2 * r.moves[i].sums.trials)
                    abort();
    } else {
        check_err(&err);
        if (memcmp(&twice, &r, sizeof r))
            abort(); /* a merge that fails leaves the report as it was */
    }
    return 0;
}
