/* record_mat.c - .mat text of a record and compressed record files (see
 * record_mat.h). The layout is chosen for gnubg's reader (import.c):
 *
 * - it tells the right column from the left by the second "DD:" on a line
 *   (the cell starts two characters before it) or else by the first double
 *   space after column 15: so cells hold single spaces only and the left one
 *   is padded with at least two;
 * - a line starting " Game " starts a game, so nothing else does;
 * - "Wins N" while the game is still on is a resignation (its level from N
 *   and the cube), after the last checker is off or a drop it is ignored;
 * - a roll with no move is a pass when no move is legal, the forced move
 *   when one is, and otherwise a roll followed by a resignation;
 * - "Beavers" leaves a flag set (a static in ParseMatMove; seen in gnubg
 *   1.07 and in its import.c of 2013) that makes the next roll line take the beaver first, and
 *   that only a roll line whose take succeeds, or another cube word,
 *   clears: an explicit "Takes", a drop or a resignation after "Beavers"
 *   leaves it set, and from then on every roll line is refused with "Take
 *   record found but doesn't follow a double" -- in later games too. */
#include "record_mat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the right column starts, counted from the first cell: gnubg's own
 * export and most files in the wild put it about 30 characters on. */
#define MAT_COLUMN 31
#define MAT_CELL_MAX 96

/* --- header --- */

static const char *on_off(bool b)
{
    return b ? "On" : "Off";
}

/* What gnubg's .mat reading cannot carry of the rules, for the header. */
static void lost_rules(const Record *r, Buf *out)
{
    const Rules *u = &r->rules;
    const char *sep = "";
#define LOST(cond, text)                                                                     \
    do {                                                                                     \
        if (cond) {                                                                          \
            buf_printf(out, "%s%s", sep, text);                                              \
            sep = "; ";                                                                      \
        }                                                                                    \
    } while (0)
    LOST(r->length > 0 && u->cube && !u->crawford,
         "no Crawford rule (gnubg imports every match with it)");
    LOST(r->length > 0 && u->cube && u->holland,
         "Holland rule (gnubg does not know it; the games kept it)");
    LOST(!u->backgammons, "backgammons count as gammons (gnubg scores them 3)");
    LOST(u->star_mars, "star mars scores 4 (gnubg scores a backgammon)");
    LOST(u->opening == OPENING_REROLL,
         "the opening roll's winner rolls again: his first roll is the one shown");
    LOST(u->later_games == LATER_WINNER_STARTS, "the previous winner starts a game");
    LOST(r->length == 0 && u->cube && u->auto_doubles,
         "automatic doubles on opening ties (gnubg starts every game at cube 1)");
    LOST(u->backgammons && u->backgammon_zone == BG_ZONE_HOME,
         "a checker on the bar alone makes no backgammon (gnubg counts the bar)");
    LOST(u->closed_out == CLOSED_OUT_NO_ROLL,
         "a closed-out player passes without rolling: an empty cell (gnubg cannot read it)");
#undef LOST
}

void record_mat_header(const Record *r, Buf *out)
{
    char rules[256];
    rules_describe(&r->rules, r->length, rules, sizeof rules);
    buf_printf(out, "; [Player 1 \"%s\"]\n; [Player 2 \"%s\"]\n", r->names[0], r->names[1]);
    if (r->date[0])
        buf_printf(out, "; [EventDate \"%s\"]\n", r->date);
    buf_puts(out, "; [Variation \"Backgammon\"]\n");
    if (r->length > 0) {
        buf_printf(out, "; [Crawford \"%s\"]\n", on_off(r->rules.cube && r->rules.crawford));
    } else {
        buf_printf(out, "; [Jacoby \"%s\"]\n", on_off(r->rules.cube && r->rules.jacoby));
        buf_printf(out, "; [Beaver \"%s\"]\n", on_off(r->rules.cube && r->rules.beavers > 0));
    }
    if (!r->rules.cube)
        buf_puts(out, "; [CubeLimit \"1\"]\n");
    buf_printf(out, "; [Rules \"%s\"]\n", rules);
    Buf lost;
    buf_init(&lost);
    lost_rules(r, &lost);
    if (lost.len)
        buf_printf(out, "; [Not in .mat \"%s\"]\n", lost.data);
    buf_free(&lost);
    buf_printf(out, "\n %d point match\n\n", r->length);
}

/* --- games --- */

/* One numbered line being filled: player 0's cell left, player 1's right. */
typedef struct Line {
    Buf *out;
    int number;    /* of the next numbered line */
    bool numbered; /* this line has a number (a "Wins" alone has none) */
    char cell[2][MAT_CELL_MAX];
    bool used[2];
} Line;

static void line_flush(Line *l)
{
    if (!l->used[0] && !l->used[1])
        return;
    if (l->numbered)
        buf_printf(l->out, "%3d) ", l->number++);
    else
        buf_puts(l->out, "     ");
    const char *left = l->used[0] ? l->cell[0] : "";
    if (l->used[1]) {
        int width = (int)strlen(left) + 2 > MAT_COLUMN ? (int)strlen(left) + 2 : MAT_COLUMN;
        buf_printf(l->out, "%-*s%s\n", width, left, l->cell[1]);
    } else {
        buf_printf(l->out, "%s\n", left);
    }
    l->used[0] = l->used[1] = false;
}

/* Puts a cell in player p's column: a new line when that column is taken,
 * or (left column) when the line already has anything. */
static void line_put(Line *l, int p, bool numbered, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void line_put(Line *l, int p, bool numbered, const char *fmt, ...)
{
    if (l->used[p] || (p == 0 && l->used[1]))
        line_flush(l);
    if (!l->used[0] && !l->used[1])
        l->numbered = numbered;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->cell[p], sizeof l->cell[p], fmt, ap);
    va_end(ap);
    l->used[p] = true;
}

/* True when the beaver or raccoon at event i is taken by the player who
 * then plays a roll (the first doubler: after a beaver, or a second
 * raccoon). Only then may the text say "Beavers" and leave the take to the
 * roll line, as Jellyfish files do: the roll line takes it for its own
 * player. */
static bool take_implied(const RecordEvent *e, size_t n, size_t i)
{
    if (i + 1 >= n || e[i + 1].kind != REC_TAKE)
        return false;
    for (size_t j = i + 2; j < n; j++) {
        switch (e[j].kind) {
        case REC_ROLL:
        case REC_RESIGN:
        case REC_REJECT: continue;
        case REC_MOVE:
        case REC_PASS: return e[j].player == e[i + 1].player;
        default: return false;
        }
    }
    return false;
}

/* The word for the beaver or raccoon at event i. gnubg reads "Doubles",
 * "Beavers" and "Raccoons" after a pending double alike, as a redouble,
 * except for the flag "Beavers" sets (see the top of the file): so
 * "Beavers" only where its take is left to the roll line or another cube
 * word follows, and otherwise "Doubles" for a beaver (as gnubg's own
 * export of 1.06 wrote beavers) and "Raccoons" for a raccoon. Tried on
 * gnubg 1.07: an explicit "Takes" after a second raccoon loses the take,
 * the implied one does not. */
static const char *animal_word(const RecordEvent *e, size_t n, size_t i)
{
    if (take_implied(e, n, i))
        return "Beavers";
    if (i + 1 < n && e[i + 1].kind == REC_RACCOON)
        return e[i].kind == REC_BEAVER ? "Beavers" : "Raccoons";
    return e[i].kind == REC_BEAVER ? "Doubles" : "Raccoons";
}

/* The dice with the higher first, as .mat files write them. */
static int dice_code(const int d[2])
{
    return d[0] >= d[1] ? d[0] * 10 + d[1] : d[1] * 10 + d[0];
}

bool record_mat_game(const Record *r, int game, Buf *out, Err *err)
{
    const RecordGame *g = record_game(r, game);
    if (!g)
        return err_set(err, "no game %d in the record (it has %d)", game + 1, record_games(r));
    return record_mat_game_as(r, game, game + 1, g->score, out, err);
}

bool record_mat_game_as(const Record *r, int game, int number, const int score[2], Buf *out,
                        Err *err)
{
    const RecordGame *g = record_game(r, game);
    if (!g)
        return err_set(err, "no game %d in the record (it has %d)", game + 1, record_games(r));
    if (g->winner < 0)
        return err_set(err, "game %d is not finished", game + 1);
    const RecordEvent *e = record_game_events(r, game);
    buf_printf(out, " Game %d\n", number);
    char left[64];
    snprintf(left, sizeof left, "%s : %d", r->names[0], score[0]);
    int width = (int)strlen(left) + 2 > MAT_COLUMN + 4 ? (int)strlen(left) + 2 : MAT_COLUMN + 4;
    buf_printf(out, " %-*s%s : %d\n", width, left, r->names[1], score[1]);

    Line l = {out, 1, true, {"", ""}, {false, false}};
    size_t implied_take = (size_t)-1; /* a take the next roll line implies */
    for (size_t i = 0; i < g->events; i++) {
        const RecordEvent *v = &e[i];
        switch (v->kind) {
        case REC_MOVE:
            line_put(&l, v->player, true, "%d: %s", dice_code(v->dice), v->move);
            break;
        case REC_PASS:
            line_put(&l, v->player, true, "%d:", dice_code(v->dice));
            break;
        case REC_SKIP: /* .mat has no turn without a roll: an empty cell */
            line_put(&l, v->player, true, "%s", "");
            break;
        case REC_DOUBLE:
            line_put(&l, v->player, true, " Doubles => %d", v->value);
            break;
        case REC_BEAVER:
        case REC_RACCOON:
            line_put(&l, v->player, true, " %s => %d", animal_word(e, g->events, i), v->value);
            if (take_implied(e, g->events, i))
                implied_take = i + 1;
            break;
        case REC_TAKE:
            if (i != implied_take)
                line_put(&l, v->player, true, " Takes");
            break;
        case REC_DROP:
            line_put(&l, v->player, true, " Drops");
            break;
        case REC_ROLL:
            /* The dice are written with the move or pass that follows. A
             * roll its player resigned on instead is left out: gnubg would
             * play it if it had one legal move, which might end the game. */
        case REC_OPENING: /* who starts shows in the columns */
        case REC_RESIGN:  /* an accepted resignation shows as "Wins" */
        case REC_ACCEPT:
        case REC_REJECT:
        case REC_FORFEIT: /* reads as a resignation: "Wins" */
            break;
        }
    }
    line_put(&l, g->winner, false, "Wins %d point%s", g->points, g->points == 1 ? "" : "s");
    line_flush(&l);
    buf_puts(out, "\n");
    return true;
}

void record_mat(const Record *r, Buf *out)
{
    record_mat_header(r, out);
    for (int i = 0; i < record_games(r); i++)
        if (record_game(r, i)->winner >= 0)
            record_mat_game(r, i, out, NULL);
}

/* --- record files --- */

struct RecordFile {
    int fd;
    int games; /* finished games written */
    GzMember *zip;
    Buf text;
    char path[];
};

RecordFile *record_file_create(const char *path, const Record *r, Err *err)
{
    size_t n = strlen(path) + 1;
    RecordFile *f = calloc(1, sizeof *f + n);
    if (!f) {
        err_set(err, "out of memory for record '%s'", path);
        return NULL;
    }
    memcpy(f->path, path, n);
    buf_init(&f->text);
    if (!(f->zip = gzmember_new(err))) {
        free(f);
        return NULL;
    }
    f->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (f->fd < 0) {
        err_set(err, "record '%s': %s", path, strerror(errno));
        gzmember_free(f->zip);
        free(f);
        return NULL;
    }
    record_mat_header(r, &f->text);
    char what[4200];
    snprintf(what, sizeof what, "record '%s'", path);
    if (!gzmember_write(f->zip, f->fd, f->text.data, f->text.len, what, err)) {
        record_file_close(f, NULL);
        unlink(path);
        return NULL;
    }
    return f;
}

bool record_file_sync(RecordFile *f, const Record *r, Err *err)
{
    char what[4200];
    snprintf(what, sizeof what, "record '%s'", f->path);
    for (int i = f->games; i < record_games(r) && record_game(r, i)->winner >= 0; i++) {
        buf_clear(&f->text);
        if (!record_mat_game(r, i, &f->text, err) ||
            !gzmember_write(f->zip, f->fd, f->text.data, f->text.len, what, err))
            return false;
        f->games = i + 1;
    }
    return true;
}

int record_file_games(const RecordFile *f)
{
    return f->games;
}

bool record_file_close(RecordFile *f, Err *err)
{
    if (!f)
        return true;
    bool ok = true;
    if (close(f->fd) != 0)
        ok = err_set(err, "record '%s': %s", f->path, strerror(errno));
    gzmember_free(f->zip);
    buf_free(&f->text);
    free(f);
    return ok;
}

GzStatus record_file_read(const char *path, Buf *out, Err *err)
{
    size_t start = out->len;
    GzStatus st = gzmember_read_file(path, out, err);
    if (st == GZ_BAD)
        return st;
    /* A record starts with its header, which ends in the match line. */
    const char *text = out->data ? out->data + start : "";
    const char *line = strstr(text, " point match\n");
    if (!line && st == GZ_END) {
        err_set(err, "'%s' is gzip but not a game record (no \"N point match\" line)", path);
        return GZ_BAD;
    }
    return st;
}
