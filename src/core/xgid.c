/* xgid.c - XGID reader and writer (see xgid.h).
 *
 * The fields are split by hand rather than matched with one regular
 * expression: each refusal names the field at fault, which a whole-string
 * match cannot tell. */
#include "xgid.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define FIELDS 10
#define POS_CHARS 26
#define PREFIX "XGID="
/* Longer than any XGID (about 70 characters): refused before splitting. */
#define INPUT_MAX 128

enum { F_POS, F_CUBE, F_CUBEPOS, F_TURN, F_DICE, F_SCORE_BOTTOM, F_SCORE_TOP, F_RULES,
       F_LENGTH, F_MAX_CUBE };

static const char *const field_name[FIELDS] = {
    "position", "cube", "cube position", "turn", "dice",
    "bottom score", "top score", "rules", "match length", "max cube",
};

/* XG's seats in gnubg's numbering (see xgid.h). */
enum { BOTTOM = 1, TOP = 0 };

/* How much of a field messages quote (err_quote: one printable line). */
#define QUOTE_MAX 20

/* A whole number in [lo, hi]: an optional '-' and 1..6 digits, nothing else. */
static bool field_int(const char *s, int field, int lo, int hi, int *out, Err *err)
{
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    const char *p = s;
    if (*p == '-')
        p++;
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || p[digits] != '\0' || digits > 6)
        return err_set(err, "XGID field %d (%s) is '%s', not a whole number", field + 1,
                       field_name[field], err_quote(s, QUOTE_MAX, q));
    int v = 0;
    for (size_t i = 0; i < digits; i++)
        v = v * 10 + (p[i] - '0');
    if (*s == '-')
        v = -v;
    if (v < lo || v > hi)
        return err_set(err, "XGID field %d (%s) is %d, not %d to %d", field + 1,
                       field_name[field], v, lo, hi);
    *out = v;
    return true;
}

/* Fills bottom/top (indices = each player's own points 0..23, bar 24). */
static bool read_position(const char *s, uint8_t bottom[POS_SLOTS], uint8_t top[POS_SLOTS],
                          Err *err)
{
    if (strlen(s) != POS_CHARS)
        return err_set(err, "the XGID position has %zu characters instead of %d", strlen(s),
                       POS_CHARS);
    for (int k = 0; k < POS_CHARS; k++) {
        char c = s[k];
        int n = 0, is_bottom = 0;
        if (c >= 'A' && c <= 'P')
            n = c - 'A' + 1, is_bottom = 1;
        else if (c >= 'a' && c <= 'p')
            n = c - 'a' + 1;
        else if (c != '-')
            return err_set(err, "XGID position character %d ('%c') is not '-', A-P (bottom "
                                "player) or a-p (top player)",
                           k + 1, c >= 0x20 && c < 0x7f ? c : '?');
        if (!n)
            continue;
        /* char 0 = top's bar, 1..24 = bottom's points 1..24, 25 = bottom's bar */
        if (k == 0 && is_bottom)
            return err_set(err, "XGID position character 1 is the top player's bar but "
                                "holds bottom player checkers ('%c')",
                           c);
        if (k == POS_CHARS - 1 && !is_bottom)
            return err_set(err, "XGID position character 26 is the bottom player's bar but "
                                "holds top player checkers ('%c')",
                           c);
        if (k == 0)
            top[POS_BAR] = (uint8_t)n;
        else if (k == POS_CHARS - 1)
            bottom[POS_BAR] = (uint8_t)n;
        else if (is_bottom)
            bottom[k - 1] = (uint8_t)n;
        else
            top[24 - k] = (uint8_t)n;
    }
    const uint8_t *sides[2] = {top, bottom};
    for (int s2 = 0; s2 < 2; s2++) {
        int total = 0;
        for (int i = 0; i < POS_SLOTS; i++)
            total += sides[s2][i];
        if (total > POS_CHECKERS)
            return err_set(err, "the XGID position gives the %s player %d checkers, more "
                                "than %d",
                           s2 == BOTTOM ? "bottom" : "top", total, POS_CHECKERS);
    }
    return true;
}

static bool read_dice(const char *s, Xgid *x, Err *err)
{
    MatchId *m = &x->match;
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    if (!strcmp(s, "00"))
        return true;
    if (!strcmp(s, "D")) {
        m->doubled = true; /* <turn> names the doubler; the other must answer */
        m->turn = !m->dice_owner;
        return true;
    }
    if (!strcmp(s, "B") || !strcmp(s, "R"))
        return err_set(err, "XGID dice field '%s': a pending beaver or raccoon has no "
                            "Match ID form (gnubg refuses it too)",
                       s);
    if (strlen(s) != 2 || s[0] < '1' || s[0] > '6' || s[1] < '1' || s[1] > '6')
        return err_set(err, "XGID field 5 (dice) is '%s', not 00, D or two dice 1-6",
                       err_quote(s, QUOTE_MAX, q));
    int a = s[0] - '0', b = s[1] - '0';
    m->dice[0] = a > b ? a : b; /* gnubg keeps the larger die first */
    m->dice[1] = a > b ? b : a;
    return true;
}

static bool read_match(int v[FIELDS], Xgid *x, Err *err)
{
    MatchId *m = &x->match;
    int len = v[F_LENGTH];
    m->match_length = len;
    m->score[BOTTOM] = v[F_SCORE_BOTTOM];
    m->score[TOP] = v[F_SCORE_TOP];
    if (len == 0) {
        if (v[F_RULES] > 3)
            return err_set(err, "XGID rules field %d: in money play it is 0 to 3 (1 = Jacoby, "
                                "2 = beavers)",
                           v[F_RULES]);
        m->jacoby = v[F_RULES] & 1;
        x->beavers = v[F_RULES] >> 1 & 1;
        return true;
    }
    if (v[F_RULES] > 1)
        return err_set(err, "XGID rules field %d: in a match it is 0 or 1 (Crawford game)",
                       v[F_RULES]);
    for (int p = 0; p < 2; p++)
        if (m->score[p] >= len)
            return err_set(err, "XGID %s score %d is not below the match length %d",
                           p == BOTTOM ? "bottom" : "top", m->score[p], len);
    m->crawford = v[F_RULES];
    int at_match_point = (m->score[0] == len - 1) + (m->score[1] == len - 1);
    if (m->crawford && at_match_point != 1)
        return err_set(err, "XGID says Crawford game at %d-%d in a %d-point match: the "
                            "Crawford game needs exactly one player a point from winning",
                       m->score[BOTTOM], m->score[TOP], len);
    if (m->crawford && m->doubled)
        return err_set(err, "XGID has a double offered (D) in the Crawford game");
    return true;
}

bool xgid_decode(const char *s, Xgid *x, Err *err)
{
    if (!s)
        return err_set(err, "no XGID given");
    if (!strncasecmp(s, PREFIX, strlen(PREFIX)))
        s += strlen(PREFIX);
    if (strlen(s) > INPUT_MAX)
        return err_set(err, "the XGID is %zu characters long, far more than any XGID",
                       strlen(s));
    char buf[INPUT_MAX + 1];
    strcpy(buf, s);
    char *f[FIELDS];
    int n = 0;
    for (char *p = buf;; p++) {
        if (n < FIELDS)
            f[n] = p;
        n++;
        p = strchr(p, ':');
        if (!p)
            break;
        *p = '\0';
    }
    if (n != FIELDS)
        return err_set(err, "an XGID has %d fields separated by ':', this one has %d", FIELDS,
                       n);

    int v[FIELDS] = {0};
    static const int lo[FIELDS] = {0, 0, -1, -1, 0, 0, 0, 0, 0, 0};
    static const int hi[FIELDS] = {0, 15, 1, 1, 0, 0x7fff, 0x7fff, 3, MATCHID_MAX_LENGTH, 15};
    for (int i = F_CUBE; i < FIELDS; i++)
        if (i != F_DICE && !field_int(f[i], i, lo[i], hi[i], &v[i], err))
            return false;
    if (v[F_TURN] == 0)
        return err_set(err, "XGID field 4 (turn) is 0, not 1 (bottom) or -1 (top)");

    Xgid r;
    memset(&r, 0, sizeof r);
    uint8_t seat[2][POS_SLOTS] = {{0}};
    if (!read_position(f[F_POS], seat[BOTTOM], seat[TOP], err))
        return false;

    MatchId *m = &r.match;
    matchid_init(m);
    m->jacoby = false; /* as gnubg during a match; money reads the rules field */
    m->cube = 1 << v[F_CUBE];
    m->cube_owner = v[F_CUBEPOS] == 1 ? BOTTOM : v[F_CUBEPOS] == -1 ? TOP : -1;
    m->dice_owner = v[F_TURN] == 1 ? BOTTOM : TOP;
    m->turn = m->dice_owner;
    if (!read_dice(f[F_DICE], &r, err) || !read_match(v, &r, err))
        return false;
    r.max_cube = v[F_MAX_CUBE];
    if (r.max_cube > 0 && v[F_CUBE] > r.max_cube)
        return err_set(err, "XGID cube %d (2^%d) is above the max cube 2^%d (field 10)",
                       m->cube, v[F_CUBE], r.max_cube);

    memcpy(r.pos.side[SIDE_ROLLER], seat[m->dice_owner], POS_SLOTS);
    memcpy(r.pos.side[SIDE_OPPONENT], seat[!m->dice_owner], POS_SLOTS);
    if (!pos_valid(&r.pos, err) || !matchid_valid(m, err))
        return false;
    *x = r;
    return true;
}

static char seat_char(int n, char one)
{
    return n ? (char)(one + n - 1) : '-';
}

bool xgid_encode(const Xgid *x, char out[XGID_MAX], Err *err)
{
    const MatchId *m = &x->match;
    if (!matchid_valid(m, err) || !pos_valid(&x->pos, err))
        return false;
    if (m->game_state != MATCHID_GAME_PLAYING)
        return err_set(err, "an XGID shows a game in play; the game state is %d (%s)",
                       m->game_state, matchid_game_state_name(m->game_state));
    if (m->resigned)
        return err_set(err, "an XGID cannot show a resignation offer (%s)",
                       matchid_resign_name(m->resigned));
    if (m->doubled && (m->dice[0] || m->turn == m->dice_owner))
        return err_set(err, "a double is offered, so the dice must be unrolled and the turn "
                            "must be the doubler's opponent; an XGID cannot show otherwise");
    if (!m->doubled && m->turn != m->dice_owner)
        return err_set(err, "player %d must act but player %d is on roll, with no double "
                            "pending; an XGID cannot show that",
                       m->turn, m->dice_owner);
    if (x->max_cube < 0 || x->max_cube > 15)
        return err_set(err, "max cube %d is not 0 to 15 (log2 of the cube limit)",
                       x->max_cube);

    int log2 = 0;
    while ((1 << log2) < m->cube)
        log2++;
    if (x->max_cube > 0 && log2 > x->max_cube)
        return err_set(err, "cube %d is above the max cube 2^%d", m->cube, x->max_cube);

    const uint8_t *seat[2];
    seat[m->dice_owner] = x->pos.side[SIDE_ROLLER];
    seat[!m->dice_owner] = x->pos.side[SIDE_OPPONENT];
    char pos[POS_CHARS + 1];
    pos[0] = seat_char(seat[TOP][POS_BAR], 'a');
    for (int k = 1; k <= 24; k++)
        pos[k] = seat[BOTTOM][k - 1] ? seat_char(seat[BOTTOM][k - 1], 'A')
                                     : seat_char(seat[TOP][24 - k], 'a');
    pos[POS_CHARS - 1] = seat_char(seat[BOTTOM][POS_BAR], 'A');
    pos[POS_CHARS] = '\0';

    int cubepos = m->cube_owner < 0 ? 0 : m->cube_owner == BOTTOM ? 1 : -1;
    char dice[3] = "00";
    if (m->doubled)
        strcpy(dice, "D");
    else if (m->dice[0])
        dice[0] = (char)('0' + m->dice[0]), dice[1] = (char)('0' + m->dice[1]);
    int rules = m->match_length ? m->crawford : (m->jacoby | x->beavers << 1);
    snprintf(out, XGID_MAX, PREFIX "%s:%d:%d:%d:%s:%d:%d:%d:%d:%d", pos, log2, cubepos,
             m->dice_owner == BOTTOM ? 1 : -1, dice, m->score[BOTTOM], m->score[TOP], rules,
             m->match_length, x->max_cube);
    return true;
}
