/* json.h - JSON text for the commands that print it (`shesh id`, `shesh
 * moves`, `shesh rules`): strings escaped so that whatever bytes come in,
 * what goes out is valid JSON and valid UTF-8, and one writer that puts the
 * commas, colons and brackets where they go, so no command writes them by
 * hand.
 *
 * Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF) is copied as it is, so names and messages stay readable.
 * Every byte that does not start a well-formed sequence becomes one \ufffd
 * (the replacement character): input such as a Latin-1 name is shown, not
 * refused, and never makes a line a JSON reader would reject. */
#ifndef SHESH_JSON_H
#define SHESH_JSON_H

#include <stdbool.h>

#include "buf.h"

/* Appends the contents of a JSON string for s (no quotes around it):
 * '"' and '\' escaped, control characters and DEL as \u00XX. */
void json_escape(Buf *b, const char *s);

/* Appends s as a whole JSON string, quotes included. */
void json_string(Buf *b, const char *s);

/* How deep objects and arrays may nest; deeper ones are still written, but
 * their commas are no longer tracked (no command comes near it). */
#define JSON_DEPTH_MAX 16

/* A writer of one JSON value into a Buf, on one line, in the spacing the
 * commands have always printed: {"key": 1, "list": [1, 2]}. A value inside
 * an object follows json_key(); the writer puts ", " before every member or
 * element but the first. */
typedef struct Json {
    Buf *out;
    int depth;
    bool has_items[JSON_DEPTH_MAX]; /* something written at this depth yet */
    bool after_key;                 /* the next value is a member's */
} Json;

void json_begin(Json *j, Buf *out);
void json_object_begin(Json *j);
void json_object_end(Json *j);
void json_array_begin(Json *j);
void json_array_end(Json *j);
void json_key(Json *j, const char *key);
void json_str(Json *j, const char *s);
void json_int(Json *j, long long v);
/* The shortest text that reads back as v; NaN and infinities as null. */
void json_num(Json *j, double v);
void json_bool(Json *j, bool v);
void json_null(Json *j);

/* A refusal as one JSON object: {"input": input, "error": message}, or
 * {"error": message} when input is NULL; no newline. The commands' --json
 * errors and the HTTP API's answer so. */
void json_error(Buf *b, const char *input, const char *message);

#endif
