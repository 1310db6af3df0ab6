/* cli_lines.h - what `shesh eval -` and `shesh hint -` share: reading one
 * item a line from standard input, and reporting an item refused.
 *
 * getline keeps the bytes after a NUL, so a line holding one is refused
 * whole instead of being read up to it, and an over-long line is refused
 * as one error, never split into several items. */
#ifndef SHESH_CLI_LINES_H
#define SHESH_CLI_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Calls fn with each line of in: its newline and the blanks at its ends
 * taken off; blank lines and lines starting with '#' skipped. A line with
 * a NUL byte or longer than max bytes is reported instead (on stderr as
 * "shesh CMD: line N: ...", and with json as {"line": N, "error": ...} on
 * stdout). fn returns false for an item it refused (having reported it).
 * Returns EXIT_OK, or EXIT_FAIL when any line failed. */
int cli_each_line(FILE *in, const char *cmd, size_t max, bool json,
                  bool (*fn)(void *ctx, char *line), void *ctx);

/* An item refused: "shesh CMD: INPUT: MESSAGE" on stderr (the input
 * quoted: one line, printable) and, with json, {"input": ..., "error":
 * ...} on stdout. */
void cli_item_error(const char *cmd, const char *input, const char *message, bool json);

#endif
