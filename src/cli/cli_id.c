/* cli_id.c - `shesh id decode` and `shesh id encode`: Position IDs, Match
 * IDs, GNUBG-IDs, XGIDs and FIBS board lines, read and written; an ASCII
 * board in the shape of gnubg's `show board`; one answer line per stdin line
 * in batch mode; JSON on request. docs/ids.md is the manual. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cli.h"
#include "fibsboard.h"
#include "gnubgid.h"
#include "id_fields.h"
#include "cli_opt.h"
#include "json.h"
#include "matchid.h"
#include "num.h"
#include "posid.h"
#include "xgid.h"

/* Longest stdin line read in batch mode (a FIBS board line is ~200). */
#define ID_LINE_MAX 4096

/* The help, in parts: `shesh id --help` prints them all, `shesh id decode
 * --help` and `shesh id encode --help` their own and the common part. */
static const char id_decode_usage[] =
    "usage: shesh id decode [--json] ID...\n"
    "       shesh id decode [--json] -\n\n"
    "decode shows what an ID holds: gnubg's ASCII board, pip counts and every\n"
    "field. The kind of ID is told by its shape: 14 characters = Position ID,\n"
    "12 = Match ID, POSID:MATCHID = GNUBG-ID, XGID=... = XGID (an XGID without\n"
    "its XGID= prefix starts with '-': put it after --).\n\n";

static const char id_encode_usage[] =
    "usage: shesh id encode [--json] --player N,...,N --opponent N,...,N [MATCH OPTIONS]\n"
    "       shesh id encode [--json] POSITION-ID [MATCH OPTIONS]\n"
    "       shesh id encode [--json] XGID | GNUBG-ID | 'board:...'\n"
    "       shesh id encode [--json] -\n\n"
    "encode writes the Position ID, Match ID, GNUBG-ID and XGID of a position\n"
    "with its match fields, given as counts and options, as a Position ID and\n"
    "options, or as an XGID, a GNUBG-ID or a FIBS board line (board:...).\n\n"
    "  --player N,..,N    25 checker counts of the player on roll: his points\n"
    "                     1..24, then his bar\n"
    "  --opponent N,..,N  the same for the other player (his own numbering)\n"
    "Match options (with --player/--opponent or a Position ID):\n"
    "  --on-roll P        the seat (0 or 1) of the player on roll (default 1)\n"
    "  --length N         match length, 0 = money (default), at most 64\n"
    "  --score S0-S1      player 0's score, then player 1's (default 0-0)\n"
    "  --cube N           cube value 1, 2, 4 ... 32768 (default 1)\n"
    "  --owner O          centred (default), 0 or 1\n"
    "  --dice D1D2        the roll, as 52 or 5-2 (stored larger first, as gnubg)\n"
    "  --doubled          the player on roll has doubled; the other must answer\n"
    "  --resign N         the player on roll offers to resign 1 single,\n"
    "                     2 gammon, 3 backgammon; the other must answer\n"
    "  --crawford         this is the Crawford game\n"
    "  --jacoby           money: the Jacoby rule is in use\n"
    "  --beavers          money: beavers allowed (XGID only)\n"
    "  --max-cube N       the highest cube value, a power of two 1 ... 32768\n"
    "                     (XGID only, which stores its log2; default 1024,\n"
    "                     or the cube if higher)\n"
    "  --state S          game state 0 none, 1 playing (default), 2 over,\n"
    "                     3 resigned, 4 dropped\n";

static const char id_common_usage[] =
    "  -                  read one item per line from stdin (blank and '#' lines\n"
    "                     skipped) and answer each with one line of key=value\n"
    "                     words, or 'error: line N: ...'\n"
    "  --json             one JSON object per item and line; a refused item is\n"
    "                     {\"input\": ..., \"error\": ...}\n"
    "  --help             this text\n\n"
    "Long options may be abbreviated; a value follows as the next word or after =.\n"
    "Exit status: 0 done, 1 bad input (with '-': any line), 2 usage (an unknown\n"
    "option, a malformed option value). docs/ids.md describes every format and field.\n";

/* action: "decode", "encode", or NULL for both. */
static void id_usage(FILE *out, const char *action)
{
    if (!action || !strcmp(action, "decode"))
        fputs(id_decode_usage, out);
    if (!action || !strcmp(action, "encode"))
        fputs(id_encode_usage, out);
    fputs(action ? "Options:\n" : "Both actions:\n", out);
    fputs(id_common_usage, out);
}

/* ---- gnubg's board ------------------------------------------------------ */

/* Checker counts of 5 and more show in the fifth row as gnubg shows them. */
static char stack_char(int n, char who)
{
    static const char more[] = "6789ABCDEF";
    return n < 5 ? ' ' : n == 5 ? who : more[n - 6];
}

/* Point x of the board (X's own index 0..23): who sits there and how many. */
static void point_at(const uint8_t *xs, const uint8_t *os, int x, int *n, char *who)
{
    if (xs[x])
        *n = xs[x], *who = 'X';
    else
        *n = os[23 - x], *who = 'O';
}

/* One row of a half board: points from..to (step) around the bar. row 0..3
 * draws a checker where the stack is higher than row; row 4 (the fifth)
 * draws the stack height from 5 on. */
static void board_row(Buf *b, const uint8_t *xs, const uint8_t *os, int from, int step,
                      int row, int bar, char bar_who, int off, char off_who)
{
    buf_puts(b, " |");
    for (int k = 0; k < 12; k++) {
        if (k == 6) {
            char c = row < 4 ? (bar > row ? bar_who : ' ') : stack_char(bar, bar_who);
            buf_printf(b, "| %c |", c);
        }
        int n;
        char who;
        point_at(xs, os, from + step * k, &n, &who);
        char c = row < 4 ? (n > row ? who : ' ') : stack_char(n, who);
        buf_printf(b, " %c ", c);
    }
    buf_puts(b, "| ");
    int lim = row < 4 ? row : 4;
    for (int k = 0; k < 3; k++)
        buf_printf(b, "%c", off > 5 * k + lim ? off_who : ' ');
}

/* The seven texts beside the board, as gnubg places them: [0] O's name,
 * [1] O's score, [2] O's status, [3] the middle line, [4] X's status,
 * [5] X's score, [6] X's name. */
typedef struct Side {
    char line[7][64];
} Side;

static void side_texts(const AnyId *a, Side *sd)
{
    memset(sd, 0, sizeof *sd);
    if (!a->has_match) {
        snprintf(sd->line[0], 64, "O: opponent");
        snprintf(sd->line[6], 64, "X: on roll");
        return;
    }
    const MatchId *m = &a->match;
    snprintf(sd->line[0], 64, "O: player 0");
    snprintf(sd->line[6], 64, "X: player 1");
    for (int p = 0; p < 2; p++)
        snprintf(sd->line[p ? 5 : 1], 64, "%d point%s", m->score[p],
                 m->score[p] == 1 ? "" : "s");
    if (m->doubled) {
        snprintf(sd->line[m->turn ? 4 : 2], 64, "Cube offered at %d", m->cube * 2);
        return;
    }
    char *status = sd->line[m->dice_owner ? 4 : 2];
    bool over = pos_checkers(&a->pos, 0) == 0 || pos_checkers(&a->pos, 1) == 0;
    if (m->dice[0])
        snprintf(status, 64, "Rolled %d%d", m->dice[0], m->dice[1]);
    else if (!over)
        snprintf(status, 64, "On roll");
    if (m->resigned)
        snprintf(status + strlen(status), 40, ", resigns %s",
                 matchid_resign_name(m->resigned));
    int len = m->match_length;
    const char *pl = len == 1 ? "" : "s";
    if (m->cube_owner < 0) {
        if (len == 1)
            snprintf(sd->line[3], 64, "1 point match");
        else if (len && m->crawford)
            snprintf(sd->line[3], 64, "%d point%s match (Crawford game)", len, pl);
        else if (len)
            snprintf(sd->line[3], 64, "%d point%s match (Cube: %d)", len, pl, m->cube);
        else
            snprintf(sd->line[3], 64, "(Cube: %d)", m->cube);
    } else {
        char *name = sd->line[m->cube_owner ? 6 : 0];
        snprintf(name + strlen(name), 24, " (Cube: %d)", m->cube);
        if (len)
            snprintf(sd->line[3], 64, "%d point%s match", len, pl);
    }
}

/* gnubg's tty board (drawboard.c's standard layout): X is player 1 at the
 * bottom moving to the bottom right, O at the top; the point numbers and the
 * Position ID are those of the player on roll. */
static void draw_board(Buf *b, const AnyId *a)
{
    int on_roll = a->has_match ? a->match.dice_owner : 1;
    const uint8_t *xs = a->pos.side[on_roll ? SIDE_ROLLER : SIDE_OPPONENT];
    const uint8_t *os = a->pos.side[on_roll ? SIDE_OPPONENT : SIDE_ROLLER];
    int off_x = POS_CHECKERS, off_o = POS_CHECKERS;
    for (int i = 0; i < POS_SLOTS; i++)
        off_x -= xs[i], off_o -= os[i];
    Side sd;
    side_texts(a, &sd);
    static const char low[] = " +12-11-10--9--8--7-------6--5--4--3--2--1-+";
    static const char high[] = " +13-14-15-16-17-18------19-20-21-22-23-24-+";

    char pid[POSID_LEN + 1], mid[MATCHID_LEN + 1];
    posid_encode(&a->pos, pid);
    buf_printf(b, " GNU Backgammon  Position ID: %s\n", pid);
    if (a->has_match && matchid_encode(&a->match, mid, NULL))
        buf_printf(b, "                 Match ID   : %s\n", mid);
    buf_printf(b, "%s     %s\n", on_roll ? high : low, sd.line[0]);
    for (int row = 0; row < 5; row++) {
        board_row(b, xs, os, 12, 1, row, os[POS_BAR], 'O', off_o, 'O');
        if (row < 4)
            buf_printf(b, " %s", row < 2 ? sd.line[row + 1] : "");
        buf_puts(b, "\n");
    }
    buf_printf(b, "%c|                  |BAR|                  |     %s\n", on_roll ? 'v' : '^',
               sd.line[3]);
    for (int row = 4; row >= 0; row--) {
        board_row(b, xs, os, 11, -1, row, xs[POS_BAR], 'X', off_x, 'X');
        if (row < 4)
            buf_printf(b, " %s", row < 2 ? sd.line[5 - row] : "");
        buf_puts(b, "\n");
    }
    buf_printf(b, "%s     %s\n", on_roll ? low : high, sd.line[6]);
}

/* ---- output ---------------------------------------------------------- */

/* How answers are written: a text block (decode: board and every field;
 * encode: the four IDs), one key=value line per item (batch), or JSON. */
typedef struct Out {
    bool json;
    bool batch;
    bool encode;
} Out;

static bool is_id_key(const char *k)
{
    return !strcmp(k, "position_id") || !strcmp(k, "match_id") || !strcmp(k, "gnubg_id") ||
           !strcmp(k, "xgid");
}

static void emit_text(const IdItem *it, const Fields *fs, const Out *o, Buf *out)
{
    const AnyId *a = &it->id;
    if (!o->encode && a->has_position) {
        /* O is player 0: the opponent unless player 0 is on roll */
        int o_side = a->has_match && a->match.dice_owner == 0 ? SIDE_ROLLER : SIDE_OPPONENT;
        draw_board(out, a);
        buf_printf(out, "\nPip counts: O %d, X %d\n", pos_pips(&a->pos, o_side),
                   pos_pips(&a->pos, !o_side));
    }
    for (int i = 0; i < fs->n; i++) {
        const Field *f = &fs->f[i];
        if (!strcmp(f->key, "xgid_error") || (o->encode && !is_id_key(f->key)))
            continue;
        const char *note = f->note;
        if (!strcmp(f->key, "xgid") && i + 1 < fs->n && !strcmp(fs->f[i + 1].key, "xgid_error"))
            note = fs->f[i + 1].text; /* why there is no XGID */
        buf_printf(out, "%-14s%s%s%s\n", f->key, f->text, note[0] ? "  " : "", note);
    }
}

static void emit(const IdItem *it, const char *input, const Out *o, Buf *out)
{
    Fields *fs = malloc(sizeof *fs);
    if (!fs) {
        fputs("shesh id: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    id_fields_describe(it, fs);
    if (o->json) {
        Json j;
        json_begin(&j, out);
        json_object_begin(&j);
        json_key(&j, "input");
        json_str(&j, input);
        id_fields_json(&j, fs);
        json_object_end(&j);
        buf_puts(out, "\n");
    } else if (o->batch) {
        for (int i = 0, first = 1; i < fs->n; i++) {
            const Field *f = &fs->f[i];
            if (!strcmp(f->key, "xgid_error") || (o->encode && !is_id_key(f->key)))
                continue;
            buf_printf(out, "%s%s=%s", first ? "" : " ", f->key, f->text);
            first = 0;
        }
        buf_puts(out, "\n");
    } else {
        emit_text(it, fs, o, out);
    }
    free(fs);
}

static void flush_buf(Buf *out)
{
    if (out->len)
        fwrite(out->data, 1, out->len, stdout);
    buf_clear(out);
}

/* ---- reading the inputs --------------------------------------------- */

static bool is_fibs_line(const char *s)
{
    s += strspn(s, " \t");
    return !strncasecmp(s, "board:", 6);
}

/* A FIBS board as gnubg's server reads it, with two corrections so that all
 * four IDs agree: a pending double or resignation puts the player who made
 * the offer (O) on roll and X, who must answer, in the turn field (gnubg's
 * own debug IDs leave X on roll). */
static bool read_fibs(const FibsParser *fp, const char *line, IdItem *it, Err *err)
{
    FibsBoard *bd = malloc(sizeof *bd);
    if (!bd)
        return err_set(err, "out of memory");
    bool ok = fibs_read(fp, line, strlen(line), NULL, bd, err);
    if (ok) {
        memset(&it->id, 0, sizeof it->id);
        it->kind = "fibs_board";
        it->id.kind = ID_UNKNOWN;
        it->id.has_position = it->id.has_match = true;
        it->id.pos = bd->pos;
        fibs_matchid(bd, &it->id.match);
        MatchId *m = &it->id.match;
        m->resigned = bd->options.resignation;
        if (m->doubled || m->resigned) {
            pos_swap(&it->id.pos);
            m->dice_owner = FIBS_O;
            m->turn = FIBS_X;
        }
        it->id.beavers = bd->options.beavers && !m->match_length;
        it->id.max_cube = gnubgid_max_cube_for(m);
        ok = matchid_valid(m, err);
    }
    free(bd);
    return ok;
}

static bool read_item(const char *s, bool encode, const FibsParser *fp, IdItem *it, Err *err)
{
    if (encode && is_fibs_line(s)) {
        if (!fp)
            return err_set(err, "FIBS board lines cannot be read (pattern compilation failed)");
        return read_fibs(fp, s, it, err);
    }
    if (!gnubgid_read_any(s, &it->id, err))
        return false;
    it->kind = id_fields_kind_key(it->id.kind);
    if (encode && !(it->id.has_position && it->id.has_match))
        return err_set(err, "a %s alone does not make all four IDs: encode takes an XGID, "
                            "a GNUBG-ID, a FIBS board line, or a Position ID with match "
                            "options",
                       gnubgid_kind_name(it->id.kind));
    return true;
}

/* Strips the line end and surrounding blanks in place. */
static char *trim(char *s)
{
    s += strspn(s, " \t");
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
}

typedef struct EncodeOpts EncodeOpts;
static bool encode_item(const EncodeOpts *e, const char *input, const FibsParser *fp, IdItem *it,
                        Err *err);

/* Batch mode: one item per stdin line, one answer line each. e is the
 * encode options, NULL to decode. */
static int run_batch(const EncodeOpts *e, const Out *o, const FibsParser *fp)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0, status = EXIT_OK;
    Buf out;
    buf_init(&out);
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        /* getline keeps the bytes after a NUL: the line is refused whole
         * rather than read up to it. */
        bool nul = memchr(line, '\0', (size_t)got) != NULL;
        char *s = trim(line);
        if (!nul && (!*s || *s == '#'))
            continue;
        IdItem it;
        Err err = {{0}};
        bool ok;
        if (nul)
            ok = err_set(&err, "a NUL byte in the line");
        else if ((size_t)got > ID_LINE_MAX)
            ok = err_set(&err, "line longer than %d bytes", ID_LINE_MAX);
        else if (e)
            ok = encode_item(e, s, fp, &it, &err);
        else
            ok = read_item(s, false, NULL, &it, &err);
        if (ok) {
            emit(&it, s, o, &out);
        } else {
            status = EXIT_FAIL;
            fprintf(stderr, "shesh id: line %d: %s\n", lineno, err.text);
            if (o->json) {
                Json j;
                json_begin(&j, &out);
                json_object_begin(&j);
                json_key(&j, "line");
                json_int(&j, lineno);
                json_key(&j, "input");
                json_str(&j, s);
                json_key(&j, "error");
                json_str(&j, err.text);
                json_object_end(&j);
                buf_puts(&out, "\n");
            } else {
                buf_printf(&out, "error: line %d: %s\n", lineno, err.text);
            }
        }
        flush_buf(&out);
    }
    free(line);
    buf_free(&out);
    return status;
}

/* getopt_long's '?' or ':'. A bad short option is most often an XGID
 * without its XGID= prefix, which starts with '-': say where it goes. */
static int bad_option(const char *cmd, int c, char **argv, const struct option *opts)
{
    if (c == '?' && optopt && strncmp(argv[optind > 0 ? optind - 1 : 0], "--", 2) != 0)
        return cli_usage_error(cmd, "unknown option '-%c' (an XGID without its XGID= prefix "
                                    "goes after --)", optopt);
    return cli_option_error(cmd, c, argv, opts);
}

/* ---- shesh id decode --------------------------------------------------- */

static int id_decode(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    Out o = {false, false, false};
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'j') {
            o.json = true;
        } else if (c == 'h') {
            id_usage(stdout, "decode");
            return EXIT_OK;
        } else {
            return bad_option("id decode", c, argv, opts);
        }
    }
    int n = argc - optind;
    if (n == 0 || (n > 1 && !strcmp(argv[optind], "-")))
        return cli_usage_error("id decode", "give one or more IDs, or '-' alone");
    if (n == 1 && !strcmp(argv[optind], "-")) {
        o.batch = true;
        return run_batch(NULL, &o, NULL);
    }
    int status = EXIT_OK;
    Buf out;
    buf_init(&out);
    for (int i = optind; i < argc; i++) {
        IdItem it;
        Err err = {{0}};
        if (!read_item(argv[i], false, NULL, &it, &err)) {
            fprintf(stderr, "shesh id decode: %s\n", err.text);
            status = EXIT_FAIL;
            if (o.json) {
                cli_json_error(&out, argv[i], err.text);
                flush_buf(&out);
            }
            continue;
        }
        if (i > optind && !o.json)
            buf_puts(&out, "\n");
        emit(&it, argv[i], &o, &out);
        flush_buf(&out);
    }
    buf_free(&out);
    return status;
}

/* ---- shesh id encode --------------------------------------------------- */

enum {
    OPT_JSON = 256, OPT_PLAYER, OPT_OPPONENT, OPT_ON_ROLL, OPT_LENGTH, OPT_SCORE, OPT_CUBE,
    OPT_OWNER, OPT_DICE, OPT_DOUBLED, OPT_RESIGN, OPT_CRAWFORD, OPT_JACOBY, OPT_BEAVERS,
    OPT_MAX_CUBE, OPT_STATE
};

/* The match as options build it; seats as in the Match ID. */
struct EncodeOpts {
    const char *counts[2]; /* --opponent, --player (SIDE_ indices) */
    MatchId m;
    bool beavers;
    int max_cube; /* log2 of the value, -1: gnubgid_max_cube_for() */
    bool match_opts; /* any option of the match was given */
};

/* A whole number in [lo, hi], nothing else (num.h), for option --name. */
static bool opt_int(const char *name, const char *s, int lo, int hi, int *out, Err *err)
{
    char opt[32];
    snprintf(opt, sizeof opt, "--%s", name);
    return num_int(opt, s, lo, hi, out, err);
}

/* "a-b" (or a,b): two whole numbers. */
static bool opt_pair(const char *name, const char *s, int lo, int hi, int out[2], Err *err)
{
    char a[16], b[16];
    size_t n = strcspn(s, "-,");
    if (!s[n] || n >= sizeof a || strlen(s + n + 1) >= sizeof b)
        return err_set(err, "--%s: '%.40s': write two numbers as A-B", name, s);
    memcpy(a, s, n);
    a[n] = '\0';
    strcpy(b, s + n + 1);
    return opt_int(name, a, lo, hi, &out[0], err) && opt_int(name, b, lo, hi, &out[1], err);
}

static bool opt_dice(const char *s, int dice[2], Err *err)
{
    int d[2];
    if (strlen(s) == 2 && s[0] >= '1' && s[0] <= '6' && s[1] >= '1' && s[1] <= '6')
        d[0] = s[0] - '0', d[1] = s[1] - '0';
    else if (!opt_pair("dice", s, 1, 6, d, err))
        return false;
    dice[0] = d[0] > d[1] ? d[0] : d[1]; /* gnubg writes the larger die first */
    dice[1] = d[0] > d[1] ? d[1] : d[0];
    return true;
}

static bool opt_owner(const char *s, int *owner, Err *err)
{
    static const char *const centred[] = {"centred", "centered", "centre", "center", "-1"};
    for (size_t i = 0; i < sizeof centred / sizeof centred[0]; i++)
        if (!strcasecmp(s, centred[i])) {
            *owner = -1;
            return true;
        }
    if (!strcmp(s, "0") || !strcmp(s, "1")) {
        *owner = s[0] - '0';
        return true;
    }
    return err_set(err, "--owner: '%.40s' is not centred, 0 or 1", s);
}

static bool opt_counts(const char *name, const char *s, uint8_t out[POS_SLOTS], Err *err)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        size_t len = strcspn(p, ",");
        char word[8];
        if (len == 0 || len >= sizeof word)
            return err_set(err, "--%s: count %d is '%.*s', not a number 0 to 15", name, n + 1,
                           (int)(len < 20 ? len : 20), p);
        memcpy(word, p, len);
        word[len] = '\0';
        int v;
        if (n == POS_SLOTS)
            return err_set(err, "--%s has more than %d counts (points 1-24, then the bar)",
                           name, POS_SLOTS);
        if (!opt_int(name, word, 0, POS_CHECKERS, &v, err))
            return false;
        out[n++] = (uint8_t)v;
        if (!p[len])
            break;
        p += len + 1;
    }
    if (n != POS_SLOTS)
        return err_set(err, "--%s has %d counts; give %d: points 1-24, then the bar", name, n,
                       POS_SLOTS);
    return true;
}

/* Applies one match option. */
static bool encode_option(EncodeOpts *e, int c, const char *arg, Err *err)
{
    MatchId *m = &e->m;
    int v;
    e->match_opts = true;
    switch (c) {
    case OPT_ON_ROLL:
        if (!opt_int("on-roll", arg, 0, 1, &v, err))
            return false;
        m->dice_owner = v;
        return true;
    case OPT_LENGTH: return opt_int("length", arg, 0, MATCHID_MAX_LENGTH, &m->match_length, err);
    case OPT_SCORE: return opt_pair("score", arg, 0, 0x7fff, m->score, err);
    case OPT_CUBE: return opt_int("cube", arg, 1, MATCHID_MAX_CUBE, &m->cube, err);
    case OPT_OWNER: return opt_owner(arg, &m->cube_owner, err);
    case OPT_DICE: return opt_dice(arg, m->dice, err);
    case OPT_DOUBLED: m->doubled = true; return true;
    case OPT_RESIGN: return opt_int("resign", arg, 1, 3, &m->resigned, err);
    case OPT_CRAWFORD: m->crawford = true; return true;
    case OPT_JACOBY: m->jacoby = true; return true;
    case OPT_BEAVERS: e->beavers = true; return true;
    case OPT_MAX_CUBE: /* a value, as in `shesh rules`; the XGID keeps its log2 */
        if (!opt_int("max-cube", arg, 1, 1 << 15, &v, err))
            return false;
        if (v & (v - 1))
            return err_set(err, "--max-cube: %d is not a power of two", v);
        for (e->max_cube = 0; (1 << e->max_cube) < v; e->max_cube++)
            ;
        return true;
    case OPT_STATE: return opt_int("state", arg, 0, 4, &m->game_state, err);
    default: return err_set(err, "internal: option %d", c);
    }
}

/* The item of a position (from counts or a Position ID) and the options. */
static bool encode_from_options(const EncodeOpts *e, const Position *pos, const char *kind,
                                IdItem *it, Err *err)
{
    memset(it, 0, sizeof *it);
    it->kind = kind;
    AnyId *a = &it->id;
    a->has_position = a->has_match = true;
    a->pos = *pos;
    a->match = e->m;
    /* someone must answer a double or a resignation: the other seat */
    a->match.turn = e->m.doubled || e->m.resigned ? !e->m.dice_owner : e->m.dice_owner;
    a->beavers = e->beavers;
    a->max_cube = e->max_cube >= 0 ? e->max_cube : gnubgid_max_cube_for(&a->match);
    if (!pos_valid(pos, err))
        return false;
    if (!matchid_valid(&a->match, err))
        return false;
    if (e->beavers && a->match.match_length)
        return err_set(err, "--beavers is for money play, not a %d-point match",
                       a->match.match_length);
    if (a->match.jacoby && a->match.match_length)
        return err_set(err, "--jacoby is for money play, not a %d-point match",
                       a->match.match_length);
    return true;
}

/* One encode input: NULL = the --player/--opponent counts. */
static bool encode_item(const EncodeOpts *e, const char *input, const FibsParser *fp, IdItem *it,
                        Err *err)
{
    if (!input) {
        Position pos;
        memset(&pos, 0, sizeof pos);
        if (!opt_counts("opponent", e->counts[SIDE_OPPONENT], pos.side[SIDE_OPPONENT], err) ||
            !opt_counts("player", e->counts[SIDE_ROLLER], pos.side[SIDE_ROLLER], err))
            return false;
        return encode_from_options(e, &pos, "counts", it, err);
    }
    if (!is_fibs_line(input) && gnubgid_kind(input) == ID_POSITION) {
        Position pos;
        return posid_decode(input, &pos, err) &&
               encode_from_options(e, &pos, "position_id", it, err);
    }
    if (e->match_opts)
        return err_set(err, "match options go with --player/--opponent or a Position ID; "
                            "this input carries its own match fields");
    return read_item(input, true, fp, it, err);
}

static int id_encode(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {"player", required_argument, NULL, OPT_PLAYER},
        {"opponent", required_argument, NULL, OPT_OPPONENT},
        {"on-roll", required_argument, NULL, OPT_ON_ROLL},
        {"length", required_argument, NULL, OPT_LENGTH},
        {"score", required_argument, NULL, OPT_SCORE},
        {"cube", required_argument, NULL, OPT_CUBE},
        {"owner", required_argument, NULL, OPT_OWNER},
        {"dice", required_argument, NULL, OPT_DICE},
        {"doubled", no_argument, NULL, OPT_DOUBLED},
        {"resign", required_argument, NULL, OPT_RESIGN},
        {"crawford", no_argument, NULL, OPT_CRAWFORD},
        {"jacoby", no_argument, NULL, OPT_JACOBY},
        {"beavers", no_argument, NULL, OPT_BEAVERS},
        {"max-cube", required_argument, NULL, OPT_MAX_CUBE},
        {"state", required_argument, NULL, OPT_STATE},
        {NULL, 0, NULL, 0},
    };
    Out o = {false, false, true};
    EncodeOpts e;
    memset(&e, 0, sizeof e);
    matchid_init(&e.m);
    e.max_cube = -1;
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        Err err = {{0}};
        uint8_t counts[POS_SLOTS];
        if (c == 'h') {
            id_usage(stdout, "encode");
            return EXIT_OK;
        } else if (c == OPT_JSON) {
            o.json = true;
        } else if (c == OPT_PLAYER || c == OPT_OPPONENT) {
            /* read now so that a malformed list is a usage error, as any
             * malformed option value; encode_item reads it again */
            const char *name = c == OPT_PLAYER ? "player" : "opponent";
            if (!opt_counts(name, optarg, counts, &err))
                return cli_usage_error("id encode", "%s", err.text);
            e.counts[c == OPT_PLAYER ? SIDE_ROLLER : SIDE_OPPONENT] = optarg;
        } else if (c == ':' || c == '?') {
            return bad_option("id encode", c, argv, opts);
        } else if (!encode_option(&e, c, optarg, &err)) {
            return cli_usage_error("id encode", "%s", err.text);
        }
    }
    int n = argc - optind;
    bool counts = e.counts[0] || e.counts[1];
    const char *why = NULL;
    if (counts && !(e.counts[0] && e.counts[1]))
        why = "--player and --opponent go together";
    else if (counts && n)
        why = "give the position as --player/--opponent or as an argument, not both";
    else if (!counts && n != 1)
        why = n ? "give one input (or '-' to read them from stdin)"
                : "nothing to encode: give --player/--opponent, an ID or a board line";
    else if (n == 1 && e.match_opts && strcmp(argv[optind], "-") &&
             gnubgid_kind(argv[optind]) != ID_POSITION)
        why = "match options go with --player/--opponent or a Position ID";
    if (why)
        return cli_usage_error("id encode", "%s", why);

    Err err = {{0}};
    FibsParser *fp = fibs_parser_new(0, &err);
    if (!fp)
        fprintf(stderr, "shesh id encode: %s\n", err.text); /* only board lines fail */
    int status = EXIT_OK;
    if (n == 1 && !strcmp(argv[optind], "-")) {
        o.batch = true;
        status = run_batch(&e, &o, fp);
    } else {
        IdItem it;
        const char *input = counts ? NULL : argv[optind];
        Buf out;
        buf_init(&out);
        if (!encode_item(&e, input, fp, &it, &err)) {
            fprintf(stderr, "shesh id encode: %s\n", err.text);
            status = EXIT_FAIL;
            if (o.json)
                cli_json_error(&out, input ? input : "", err.text);
        } else {
            emit(&it, input ? input : "", &o, &out);
        }
        flush_buf(&out);
        buf_free(&out);
    }
    fibs_parser_free(fp);
    return status;
}

int cli_id(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("id", "give an action: decode or encode");
    const char *sub = argv[1];
    int status;
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        id_usage(stdout, NULL);
        return EXIT_OK;
    } else if (!strcmp(sub, "decode")) {
        status = id_decode(argc - 1, argv + 1);
    } else if (!strcmp(sub, "encode")) {
        status = id_encode(argc - 1, argv + 1);
    } else if (sub[0] == '-') {
        return cli_usage_error("id", "unknown option '%s' (give decode or encode first)", sub);
    } else {
        return cli_usage_error("id", "unknown action '%s' (decode or encode)", sub);
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "shesh id: cannot write the output\n");
        status = EXIT_FAIL;
    }
    return status;
}
