/* rollout_json.h - a rollout's report read back from the JSON line
 * `shesh rollout --json` prints for it, with jansson: what `shesh rollout
 * merge` adds up. Only what the report needs is read (the settings, the
 * moves, the exact sums); the means and errors printed beside the sums
 * are made again from them. A line may also be the error of an item
 * refused ({"input": ..., "error": ...}). */
#ifndef SHESH_ROLLOUT_JSON_H
#define SHESH_ROLLOUT_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "rollout_report.h"

typedef enum RolloutLine {
    ROLLOUT_LINE_BAD,    /* not a rollout's line: err says why */
    ROLLOUT_LINE_REPORT, /* *out filled */
    ROLLOUT_LINE_ERROR   /* an item refused: out->input and *message filled */
} RolloutLine;

#define ROLLOUT_MESSAGE_MAX 256

/* Reads one line of JSON text (len bytes). */
RolloutLine rollout_json_read(const char *text, size_t len, RolloutReport *out,
                              char message[ROLLOUT_MESSAGE_MAX], Err *err);

/* The names of the values in the JSON, indexed by RolloutValue. */
extern const char *const rollout_value_names[ROLLOUT_VALUES];

#endif
