/* gnubgid.h - the GNUBG-ID (gnubg's "POSID:MATCHID" pair, as `show gnubgid`
 * prints it and `set gnubgid` reads it) and telling the kinds of ID apart.
 *
 * Any ID a user may paste is recognised by its shape alone, never by trying
 * decoders in turn (a string of the wrong kind can decode to a legal but
 * wrong position): an "XGID=" prefix or several ':'-separated fields is an
 * XGID, one ':' a GNUBG-ID, 14 characters a Position ID, 12 a Match ID. */
#ifndef SHESH_GNUBGID_H
#define SHESH_GNUBGID_H

#include <stdbool.h>

#include "err.h"
#include "matchid.h"
#include "posid.h"
#include "position.h"

#define GNUBGID_LEN (POSID_LEN + 1 + MATCHID_LEN)

typedef enum IdKind {
    ID_UNKNOWN = 0,
    ID_POSITION, /* Position ID alone */
    ID_MATCH,    /* Match ID alone */
    ID_GNUBG,    /* POSID:MATCHID */
    ID_XGID
} IdKind;

/* Whatever an ID said. The position (when there is one) is seen from the
 * player on roll: match.dice_owner when there is a match, else simply the
 * side that is to play. */
typedef struct AnyId {
    IdKind kind;
    bool has_position;
    bool has_match;
    Position pos;
    MatchId match;
    bool beavers; /* XGID only (money rules bit 1); false otherwise */
    int max_cube; /* XGID field 10; other kinds: gnubgid_max_cube_for() */
} AnyId;

/* The max cube field to write in an XGID for a match that came without one
 * (a GNUBG-ID, options): XG's usual 10, or the cube's own
 * log2 when the cube is already higher. */
int gnubgid_max_cube_for(const MatchId *m);

/* The kind of ID s looks like (by shape only; it may still be malformed). */
IdKind gnubgid_kind(const char *s);

/* "Position ID", "Match ID", "GNUBG-ID", "XGID" or "unknown". */
const char *gnubgid_kind_name(IdKind k);

/* Writes "POSID:MATCHID". Fails if the match fields are invalid. */
bool gnubgid_encode(const Position *p, const MatchId *m, char out[GNUBGID_LEN + 1],
                    Err *err);

/* Reads "POSID:MATCHID" (that order, exactly one ':'), each part strictly.
 * On failure returns false and leaves p and m unchanged. */
bool gnubgid_decode(const char *s, Position *p, MatchId *m, Err *err);

/* Reads an ID of any kind, as told by gnubgid_kind(). On failure returns
 * false with a message and leaves out unchanged. */
bool gnubgid_read_any(const char *s, AnyId *out, Err *err);

#endif
