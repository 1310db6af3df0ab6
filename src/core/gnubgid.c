/* gnubgid.c - GNUBG-ID pairs and ID kind detection (see gnubgid.h). */
#include "gnubgid.h"

#include <string.h>
#include <strings.h>

#include "xgid.h"

#define XGID_PREFIX "XGID="

IdKind gnubgid_kind(const char *s)
{
    if (!s)
        return ID_UNKNOWN;
    if (!strncasecmp(s, XGID_PREFIX, strlen(XGID_PREFIX)))
        return ID_XGID;
    int colons = 0;
    for (const char *p = s; *p; p++)
        colons += *p == ':';
    /* a string with several fields can only be meant as an XGID: its reader
     * then says which field is missing or extra */
    if (colons >= 2)
        return ID_XGID;
    if (colons == 1)
        return ID_GNUBG;
    size_t len = strlen(s);
    return len == POSID_LEN ? ID_POSITION : len == MATCHID_LEN ? ID_MATCH : ID_UNKNOWN;
}

const char *gnubgid_kind_name(IdKind k)
{
    switch (k) {
    case ID_POSITION: return "Position ID";
    case ID_MATCH: return "Match ID";
    case ID_GNUBG: return "GNUBG-ID";
    case ID_XGID: return "XGID";
    case ID_UNKNOWN: break;
    }
    return "unknown";
}

bool gnubgid_encode(const Position *p, const MatchId *m, char out[GNUBGID_LEN + 1], Err *err)
{
    char mid[MATCHID_LEN + 1];
    if (!pos_valid(p, err) || !matchid_encode(m, mid, err))
        return false;
    posid_encode(p, out);
    out[POSID_LEN] = ':';
    memcpy(out + POSID_LEN + 1, mid, MATCHID_LEN + 1);
    return true;
}

bool gnubgid_decode(const char *s, Position *p, MatchId *m, Err *err)
{
    if (!s)
        return err_set(err, "no GNUBG-ID given");
    const char *colon = strchr(s, ':');
    if (!colon || strchr(colon + 1, ':'))
        return err_set(err, "a GNUBG-ID is a Position ID and a Match ID joined by one ':'");
    size_t plen = (size_t)(colon - s);
    if (plen != POSID_LEN)
        return err_set(err, "the GNUBG-ID starts with %zu characters before ':'; it must "
                            "start with the %d-character Position ID",
                       plen, POSID_LEN);
    char pid[POSID_LEN + 1];
    memcpy(pid, s, POSID_LEN);
    pid[POSID_LEN] = '\0';
    Position q;
    MatchId n;
    if (!posid_decode(pid, &q, err) || !matchid_decode(colon + 1, &n, err))
        return false;
    *p = q;
    *m = n;
    return true;
}

int gnubgid_max_cube_for(const MatchId *m)
{
    int log2 = 0;
    while ((1 << log2) < m->cube)
        log2++;
    return log2 > XGID_DEFAULT_MAX_CUBE ? log2 : XGID_DEFAULT_MAX_CUBE;
}

bool gnubgid_read_any(const char *s, AnyId *out, Err *err)
{
    AnyId r;
    memset(&r, 0, sizeof r);
    r.kind = gnubgid_kind(s);
    r.max_cube = XGID_DEFAULT_MAX_CUBE;
    switch (r.kind) {
    case ID_POSITION:
        r.has_position = true;
        if (!posid_decode(s, &r.pos, err))
            return false;
        break;
    case ID_MATCH:
        r.has_match = true;
        if (!matchid_decode(s, &r.match, err))
            return false;
        r.max_cube = gnubgid_max_cube_for(&r.match);
        break;
    case ID_GNUBG:
        r.has_position = r.has_match = true;
        if (!gnubgid_decode(s, &r.pos, &r.match, err))
            return false;
        r.max_cube = gnubgid_max_cube_for(&r.match);
        break;
    case ID_XGID: {
        Xgid x;
        if (!xgid_decode(s, &x, err))
            return false;
        r.has_position = r.has_match = true;
        r.pos = x.pos;
        r.match = x.match;
        r.beavers = x.beavers;
        r.max_cube = x.max_cube;
        break;
    }
    case ID_UNKNOWN:
    default:
        return err_set(err, "not an ID: a Position ID has 14 characters, a Match ID 12, a "
                            "GNUBG-ID is POSID:MATCHID and an XGID starts with XGID= (%zu "
                            "characters given)",
                       s ? strlen(s) : (size_t)0);
    }
    *out = r;
    return true;
}
