/* json.h - JSON text for the commands that print it (`shesh id`, `shesh
 * moves`): strings escaped so that whatever bytes come in, what goes out is
 * valid JSON and valid UTF-8.
 *
 * Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF) is copied as it is, so names and messages stay readable.
 * Every byte that does not start a well-formed sequence becomes one \ufffd
 * (the replacement character): input such as a Latin-1 name is shown, not
 * refused, and never makes a line a JSON reader would reject. */
#ifndef SHESH_JSON_H
#define SHESH_JSON_H

#include "buf.h"

/* Appends the contents of a JSON string for s (no quotes around it):
 * '"' and '\' escaped, control characters and DEL as \u00XX. */
void json_escape(Buf *b, const char *s);

/* Appends s as a whole JSON string, quotes included. */
void json_string(Buf *b, const char *s);

#endif
