/* cli_moves.c - `shesh moves`: every legal move of a position for a roll, in
 * gnubg's display notation with the Position ID each one leads to; one
 * request from the arguments or one per line from stdin, as text or JSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "cli_opt.h"
#include "gnubgid.h"
#include "answer_json.h"
#include "json.h"
#include "movegen.h"
#include "movetext.h"
#include "posid.h"

/* Longest stdin line read; longer ones are an error (an XGID is ~70). */
#define MOVES_LINE_MAX 512

static void moves_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh moves [--json] ID DICE\n"
            "       shesh moves [--json] ID DICE --match MOVE\n"
            "       shesh moves [--json] -\n\n"
            "Lists every legal move for the roll DICE, one per line: gnubg's display\n"
            "notation (as its hint shows it), a tab, and the Position ID of the result,\n"
            "still seen by the mover (swap the sides for the next player's view).\n"
            "With no engine to rank them the moves are sorted by result ID, as in\n"
            "positions/gnubg-1.07/moves.tsv.gz. No legal move prints nothing.\n\n"
            "  ID     a Position ID (4HPwATDgc/ABMA), a GNUBG-ID (POSID:MATCHID) or an\n"
            "         XGID; the position is seen by the player on roll\n"
            "  DICE   31, 3-1 or 3 1 (two arguments); may be left out when the\n"
            "         GNUBG-ID or XGID holds a roll\n"
            "  -      read 'ID DICE' lines from stdin (blank and '#' lines skipped) and\n"
            "         answer each with one line: ID, tab, dice (larger first), tab,\n"
            "         count, tab, RESULT=MOVE pairs joined by ';' (the columns of\n"
            "         moves.tsv.gz), or 'error: line N: ...'\n"
            "  --json one JSON object: {\"position_id\": ID, \"dice\": [d1, d2],\n"
            "         \"moves\": [{\"move\": \"8/5 6/5\", \"result\": ID}, ...]}; with '-',\n"
            "         one object per line, {\"line\": N, \"error\": \"...\"} for errors\n"
            "  --match MOVE  read MOVE as gnubg reads a move answer (any order, bar/off\n"
            "         or 25/0, '-' = off, 24 18, 24/18/15, (2), *, commas, any case)\n"
            "         and print only the legal move it means, or say why none\n"
            "  --help this text\n\n"
            "With --json a refused ID, roll or MOVE is answered {\"error\": \"...\"}.\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Exit status: 0 done, 1 a bad ID, roll or MOVE (any line with '-'), 2 usage.\n");
}

/* One request: the position, the roll, and the legal moves sorted by result. */
typedef struct Request {
    Position pos;
    int d1, d2;
    MoveList list;
    AnswerRanked ranked[MOVES_MAX];
} Request;

/* "31", "3-1", or two one-digit words ("3" "1"); each die 1 to 6. */
static bool parse_dice(const char *a, const char *b, int *d1, int *d2, Err *err)
{
    char c1 = 0, c2 = 0;
    size_t len = strlen(a);
    if (b && len == 1 && strlen(b) == 1)
        c1 = a[0], c2 = b[0];
    else if (!b && len == 2)
        c1 = a[0], c2 = a[1];
    else if (!b && len == 3 && a[1] == '-')
        c1 = a[0], c2 = a[2];
    if (c1 < '1' || c1 > '6' || c2 < '1' || c2 > '6')
        return err_set(err, "bad dice '%s%s%s': write two dice 1 to 6 as 31, 3-1 or 3 1", a,
                       b ? " " : "", b ? b : "");
    *d1 = c1 - '0';
    *d2 = c2 - '0';
    return true;
}

/* Reads a Position ID, GNUBG-ID or XGID into r->pos; *has_dice tells
 * whether the ID held a roll, stored in r->d1, r->d2. */
static bool parse_id(const char *id, Request *r, bool *has_dice, Err *err)
{
    int dice[2];
    if (!answer_read_board(id, &r->pos, dice, has_dice, err))
        return false;
    if (*has_dice)
        r->d1 = dice[0], r->d2 = dice[1];
    return true;
}

static void solve(Request *r)
{
    movegen_generate(&r->pos, r->d1, r->d2, &r->list);
    answer_rank_moves(&r->list, r->ranked);
}

/* JSON is built in a Buf, where json_string() writes, then printed. */
static void write_buf(FILE *out, const Buf *b)
{
    if (b->len)
        fwrite(b->data, 1, b->len, out);
}

static void print_json(FILE *out, Request *r)
{
    Buf b;
    buf_init(&b);
    answer_json_moves(&b, &r->pos, r->d1, r->d2, &r->list, r->ranked);
    buf_puts(&b, "\n");
    write_buf(out, &b);
    buf_free(&b);
}

/* A refused stdin line as JSON: the message quotes what it refused, which
 * may be any bytes. */
static void print_json_error(FILE *out, int lineno, const char *msg)
{
    Buf b;
    buf_init(&b);
    Json j;
    json_begin(&j, &b);
    json_object_begin(&j);
    json_key(&j, "line");
    json_int(&j, lineno);
    json_key(&j, "error");
    json_str(&j, msg);
    json_object_end(&j);
    buf_puts(&b, "\n");
    write_buf(out, &b);
    buf_free(&b);
}

static void print_lines(FILE *out, Request *r)
{
    char text[MOVETEXT_MAX];
    for (int k = 0; k < r->list.count; k++) {
        const AnswerRanked *m = &r->ranked[k];
        movetext_display(&r->pos, &r->list.moves[m->index], text);
        fprintf(out, "%s\t%s\n", text, m->id);
    }
}

/* The batch answer: the columns of moves.tsv.gz. */
static void print_row(FILE *out, Request *r)
{
    char id[POSID_LEN + 1], text[MOVETEXT_MAX];
    posid_encode(&r->pos, id);
    int hi = r->d1 > r->d2 ? r->d1 : r->d2, lo = r->d1 + r->d2 - hi;
    fprintf(out, "%s\t%d%d\t%d\t", id, hi, lo, r->list.count);
    for (int k = 0; k < r->list.count; k++) {
        const AnswerRanked *m = &r->ranked[k];
        movetext_display(&r->pos, &r->list.moves[m->index], text);
        fprintf(out, "%s%s=%s", k ? ";" : "", m->id, text);
    }
    fputc('\n', out);
}

/* Keeps only the legal move that text means (see movetext_match()). */
static bool keep_match(Request *r, const char *text, Err *err)
{
    int i = movetext_match_roll(&r->pos, &r->list, r->d1, r->d2, text, err);
    if (i == -1)
        return false;
    int k = 0;
    while (k < r->list.count && r->ranked[k].index != i)
        k++;
    r->ranked[0] = i == MOVETEXT_PASS ? r->ranked[0] : r->ranked[k];
    r->list.count = i == MOVETEXT_PASS ? 0 : 1;
    return true;
}

/* ID and optional dice words to a solved request. */
static bool request(Request *r, char **words, int nwords, Err *err)
{
    bool has_dice;
    if (nwords < 1)
        return err_set(err, "no ID given");
    if (nwords > 3)
        return err_set(err, "too many words: expected ID and DICE");
    if (!parse_id(words[0], r, &has_dice, err))
        return false;
    if (nwords > 1) {
        if (!parse_dice(words[1], nwords == 3 ? words[2] : NULL, &r->d1, &r->d2, err))
            return false;
    } else if (!has_dice) {
        return err_set(err, "no dice: give DICE (such as 31) after the ID");
    }
    solve(r);
    return true;
}

static int run_stdin(Request *r, bool json)
{
    /* getline keeps the bytes after a NUL: a line holding one is refused
     * whole, and the next line is read as the next line. */
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0, status = EXIT_OK;
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        size_t len = (size_t)got;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        Err err = {{0}};
        bool ok;
        if (memchr(line, '\0', len)) {
            ok = err_set(&err, "a NUL byte in the line");
        } else if (len > MOVES_LINE_MAX) {
            ok = err_set(&err, "line longer than %d bytes", MOVES_LINE_MAX);
        } else {
            char *words[4]; /* a fourth word is only there to be refused */
            int n = 0;
            for (char *w = strtok(line, " \t\r\n"); w && n < 4; w = strtok(NULL, " \t\r\n"))
                words[n++] = w;
            if (n == 0 || words[0][0] == '#')
                continue;
            ok = request(r, words, n, &err);
        }
        if (ok) {
            if (json)
                print_json(stdout, r);
            else
                print_row(stdout, r);
        } else {
            status = EXIT_FAIL;
            if (json)
                print_json_error(stdout, lineno, err.text);
            else
                printf("error: line %d: %s\n", lineno, err.text);
        }
    }
    free(line);
    return status;
}

int cli_moves(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"match", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    const char *move = NULL;
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h') {
            moves_usage(stdout);
            return EXIT_OK;
        } else if (c == 'j') {
            json = true;
        } else if (c == 'm') {
            move = optarg;
        } else if (c == ':' && optopt == 'm') {
            return cli_usage_error("moves", "--match needs a MOVE (\"\" for no move)");
        } else {
            return cli_option_error("moves", c, argv, opts);
        }
    }
    char **words = argv + optind;
    int nwords = argc - optind;
    bool from_stdin = nwords == 1 && !strcmp(words[0], "-");
    if (nwords == 0)
        return cli_usage_error("moves", "give an ID and DICE, or '-'");
    if (nwords > 3)
        return cli_usage_error("moves", "too many arguments: expected ID and DICE");
    if (nwords > 1 && !strcmp(words[0], "-"))
        return cli_usage_error("moves", "'-' goes alone");
    if (from_stdin && move)
        return cli_usage_error("moves", "--match does not go with '-'");

    Request *r = malloc(sizeof *r);
    if (!r) {
        fprintf(stderr, "shesh moves: out of memory\n");
        return EXIT_FAIL;
    }
    int status = EXIT_OK;
    Err err = {{0}};
    if (from_stdin) {
        status = run_stdin(r, json);
    } else if (!request(r, words, nwords, &err) || (move && !keep_match(r, move, &err))) {
        fprintf(stderr, "shesh moves: %s\n", err.text);
        status = EXIT_FAIL;
        if (json) {
            Buf b;
            buf_init(&b);
            cli_json_error(&b, NULL, err.text);
            write_buf(stdout, &b);
            buf_free(&b);
        }
    } else if (json) {
        print_json(stdout, r);
    } else {
        print_lines(stdout, r);
    }
    free(r);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "shesh moves: cannot write the output\n");
        status = EXIT_FAIL;
    }
    return status;
}
