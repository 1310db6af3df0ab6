/* rollout_print.h - a rollout's report as `shesh rollout` prints it: the
 * text, or one line of JSON with the exact sums that `shesh rollout merge`
 * reads back (src/play/rollout_json.h). Made from the report alone, so
 * that a merge of shards prints what one run prints. */
#ifndef SHESH_ROLLOUT_PRINT_H
#define SHESH_ROLLOUT_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "rollout_report.h"

/* Prints r on out: a roll's moves best first by the rollout (cubeful
 * equity, or cubeless in a cubeless rollout), ties in the engine's
 * order. */
void rollout_print(const RolloutReport *r, bool json, FILE *out);

#endif
