/* id_fields.c - what an ID holds, as named fields (id_fields.h). */
#include "id_fields.h"

#include <stdio.h>
#include <string.h>

#include "matchid.h"
#include "posid.h"
#include "xgid.h"

static Field *field_add(Fields *fs, const char *key, FieldType type, const char *note)
{
    Field *f = &fs->f[fs->n++]; /* FIELDS_MAX is above what describe() adds */
    memset(f, 0, sizeof *f);
    f->key = key;
    f->type = type;
    snprintf(f->note, sizeof f->note, "%s", note ? note : "");
    return f;
}

static void field_int(Fields *fs, const char *key, int v, const char *note)
{
    Field *f = field_add(fs, key, FIELD_INT, note);
    f->v = v;
    snprintf(f->text, sizeof f->text, "%d", v);
}

static void field_bool(Fields *fs, const char *key, bool v)
{
    Field *f = field_add(fs, key, FIELD_BOOL, NULL);
    f->v = v;
    snprintf(f->text, sizeof f->text, "%s", v ? "yes" : "no");
}

static void field_str(Fields *fs, const char *key, const char *v, const char *note)
{
    Field *f = field_add(fs, key, FIELD_STR, note);
    snprintf(f->text, sizeof f->text, "%s", v);
}

static void field_list(Fields *fs, const char *key, const int *v, int n, const char *note)
{
    Field *f = field_add(fs, key, FIELD_LIST, note);
    size_t t = 0;
    f->n = n;
    for (int i = 0; i < n; i++) {
        f->list[i] = v[i];
        t += (size_t)snprintf(f->text + t, sizeof f->text - t, "%s%d", i ? "," : "", v[i]);
    }
}

static void field_json(Json *j, const Field *f)
{
    json_key(j, f->key);
    switch (f->type) {
    case FIELD_INT: json_int(j, f->v); break;
    case FIELD_BOOL: json_bool(j, f->v); break;
    case FIELD_STR: json_str(j, f->text); break;
    case FIELD_NULL: json_null(j); break;
    case FIELD_LIST:
        json_array_begin(j);
        for (int i = 0; i < f->n; i++)
            json_int(j, f->list[i]);
        json_array_end(j);
        break;
    }
}

static const char *seat_note(int p)
{
    return p == 0 ? "(O)" : p == 1 ? "(X)" : "(centred)";
}

void id_fields_describe(const IdItem *it, Fields *fs)
{
    const AnyId *a = &it->id;
    const MatchId *m = &a->match;
    fs->n = 0;
    field_str(fs, "kind", it->kind, NULL);
    char pid[POSID_LEN + 1], mid[MATCHID_LEN + 1], gid[GNUBGID_LEN + 1], xg[XGID_MAX];
    if (a->has_position) {
        posid_encode(&a->pos, pid);
        field_str(fs, "position_id", pid, NULL);
    }
    if (a->has_match && matchid_encode(m, mid, NULL))
        field_str(fs, "match_id", mid, NULL);
    if (a->has_position && a->has_match) {
        if (gnubgid_encode(&a->pos, m, gid, NULL))
            field_str(fs, "gnubg_id", gid, NULL);
        Xgid x = {a->pos, *m, a->beavers, a->max_cube};
        Err err = {{0}};
        if (xgid_encode(&x, xg, &err)) {
            field_str(fs, "xgid", xg, NULL);
        } else {
            Field *f = field_add(fs, "xgid", FIELD_NULL, NULL);
            snprintf(f->text, sizeof f->text, "none");
            field_str(fs, "xgid_error", err.text, NULL);
        }
    }
    if (a->has_position) {
        int counts[POS_SLOTS];
        char note[48];
        for (int s = SIDE_ROLLER; s >= SIDE_OPPONENT; s--) {
            for (int i = 0; i < POS_SLOTS; i++)
                counts[i] = a->pos.side[s][i];
            int seat = s == SIDE_ROLLER ? m->dice_owner : !m->dice_owner;
            if (a->has_match)
                snprintf(note, sizeof note, "(%c, player %d%s)", seat ? 'X' : 'O', seat,
                         s == SIDE_ROLLER ? ", on roll" : "");
            else
                snprintf(note, sizeof note, "%s", s == SIDE_ROLLER ? "(on roll)" : "");
            field_list(fs, s == SIDE_ROLLER ? "player" : "opponent", counts, POS_SLOTS, note);
        }
        field_int(fs, "player_pips", pos_pips(&a->pos, SIDE_ROLLER), NULL);
        field_int(fs, "opponent_pips", pos_pips(&a->pos, SIDE_OPPONENT), NULL);
    }
    if (!a->has_match)
        return;
    field_int(fs, "cube", m->cube, NULL);
    field_int(fs, "cube_owner", m->cube_owner, seat_note(m->cube_owner));
    field_int(fs, "dice_owner", m->dice_owner, seat_note(m->dice_owner));
    field_bool(fs, "crawford", m->crawford);
    char note[48];
    snprintf(note, sizeof note, "(%s)", matchid_game_state_name(m->game_state));
    field_int(fs, "game_state", m->game_state, note);
    field_int(fs, "turn", m->turn, seat_note(m->turn));
    field_bool(fs, "doubled", m->doubled);
    snprintf(note, sizeof note, "(%s)", matchid_resign_name(m->resigned));
    field_int(fs, "resigned", m->resigned, note);
    field_list(fs, "dice", m->dice, 2, m->dice[0] ? NULL : "(not rolled)");
    field_int(fs, "match_length", m->match_length, m->match_length ? NULL : "(money)");
    field_list(fs, "score", m->score, 2, "(player 0, player 1)");
    field_bool(fs, "jacoby", m->jacoby);
    if (a->has_position) { /* the XGID-only fields */
        /* the XGID's rule bit; "beavers" is a count in `shesh rules` */
        field_bool(fs, "beaver_rule", a->beavers);
        /* the value, as everywhere else; the XGID stores its log2 */
        snprintf(note, sizeof note, "(2^%d, XGID field 10)", a->max_cube);
        field_int(fs, "max_cube", 1 << a->max_cube, note);
    }
}

void id_fields_json(Json *j, const Fields *fs)
{
    for (int i = 0; i < fs->n; i++)
        field_json(j, &fs->f[i]);
}

const char *id_fields_kind_key(IdKind k)
{
    switch (k) {
    case ID_POSITION: return "position_id";
    case ID_MATCH: return "match_id";
    case ID_GNUBG: return "gnubg_id";
    case ID_XGID: return "xgid";
    case ID_UNKNOWN: break;
    }
    return "unknown";
}
