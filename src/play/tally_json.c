/* tally_json.c - a Tally read back from JSON (see tally_json.h). */
#include "tally_json.h"

#include <string.h>

static bool read_int(const json_t *obj, const char *where, const char *key, bool any_sign,
                     int64_t *out, Err *err)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        return err_set(err, "%s: \"%s\" is missing or not a whole number", where, key);
    json_int_t x = json_integer_value(v);
    if (!any_sign && x < 0)
        return err_set(err, "%s: \"%s\" is negative", where, key);
    *out = (int64_t)x;
    return true;
}

bool tally_json_read(const json_t *v, Tally *t, Err *err)
{
    Tally r;
    memset(&r, 0, sizeof r);
    if (!json_is_object(v))
        return err_set(err, "the tally is not a JSON object");
    if (!read_int(v, "tally", "games", false, &r.games, err) ||
        !read_int(v, "tally", "matches", false, &r.matches, err))
        return false;
    const json_t *pairs = json_object_get(v, "pairs");
    if (!json_is_object(pairs))
        return err_set(err, "tally: \"pairs\" is missing");
    for (const TallyField *f = tally_pair_fields; f->name; f++) {
        /* Sums of A's net points may be negative; the rest may not. */
        bool signed_ = !strcmp(f->name, "sum") || !strcmp(f->name, "cross");
        if (!read_int(pairs, "tally pairs", f->name, signed_, tally_pairs_field(&r.pairs, f), err))
            return false;
    }
    const json_t *sides = json_object_get(v, "sides");
    if (!json_is_array(sides) || json_array_size(sides) != 2)
        return err_set(err, "tally: \"sides\" is not a list of two");
    for (int s = 0; s < 2; s++) {
        const json_t *side = json_array_get(sides, (size_t)s);
        if (!json_is_object(side))
            return err_set(err, "tally: side %d is not an object", s);
        for (const TallyField *f = tally_side_fields; f->name; f++) {
            bool signed_ = strstr(f->name, "points") != NULL && strcmp(f->name, "points");
            if (!read_int(side, s ? "tally side B" : "tally side A", f->name, signed_,
                          tally_field(&r.side[s], f), err))
                return false;
        }
    }
    *t = r;
    return true;
}
