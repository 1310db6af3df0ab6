/* id_fields.h - what an ID holds, as one list of named fields: `shesh id
 * decode` shows it three ways (a text block, a batch line, JSON) and the
 * HTTP API's /v1/id answers it as the same JSON. */
#ifndef SHESH_ID_FIELDS_H
#define SHESH_ID_FIELDS_H

#include <stdbool.h>

#include "err.h"
#include "gnubgid.h"
#include "json.h"
#include "position.h"

#define FIELDS_MAX 32

/* What a field's value is, for the JSON writer. */
typedef enum FieldType { FIELD_INT, FIELD_BOOL, FIELD_STR, FIELD_LIST, FIELD_NULL } FieldType;

typedef struct Field {
    const char *key;
    FieldType type;
    int v;                  /* FIELD_INT, FIELD_BOOL */
    int list[POS_SLOTS];    /* FIELD_LIST */
    int n;
    char text[ERR_TEXT_MAX]; /* the plain value, and a FIELD_STR's string */
    char note[48];           /* shown after the value in the text block */
} Field;

typedef struct Fields {
    int n;
    Field f[FIELDS_MAX];
} Fields;

/* One input read: what it holds, and what kind of input it was. */
typedef struct IdItem {
    AnyId id;
    const char *kind; /* of the input: "position_id" ... "fibs_board", "counts" */
} IdItem;

/* Fills fs with what it holds: its kind, its IDs in every form, the
 * checkers, pips, and (with a match) the cube, turn, dice and score. */
void id_fields_describe(const IdItem *it, Fields *fs);

/* The fields as members of the JSON object j is inside. */
void id_fields_json(Json *j, const Fields *fs);

/* The key of `shesh id decode`'s "kind" for an ID's kind: "position_id",
 * "match_id", "gnubg_id", "xgid". */
const char *id_fields_kind_key(IdKind k);

#endif
