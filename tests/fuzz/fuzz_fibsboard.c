/* fuzz_fibsboard.c - libFuzzer harness for the FIBS board reader and writer.
 *
 * An input whose first byte is even is a request line as it stands. An odd
 * first byte edits a valid board instead (so that most inputs get past the
 * syntax and exercise the field checks and the interpretation): the next
 * byte picks a template, then byte pairs set fields to small values, and a
 * last byte may append session options.
 *
 * Whatever is read must fail with a one-line message, or give a position
 * gnubg would accept whose Position ID and Match ID decode back to it; a
 * board in gnubg's client convention must also write back to a line that
 * reads as the same game. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fibsboard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const templates[] = {
    /* protocol section 3.1, and boards gnubg sent (client_capture.tsv.gz) */
    "board:You:Opp:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:"
    "1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0",
    "board:extbot:alice:5:0:0:0:3:1:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:-2:-1:0:-1:0:0:0:"
    "0:2:0:1:1:1:-1:0:25:11:12:0:0:0:0:0:1",
    "board:gnubg:root:0:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:"
    "0:0:2:0:1:1:1:-1:0:25:0:0:0:0:0:0:0:1",
    /* from fibs.tsv.gz: other colour and direction, quoted names, 99 points */
    "board:'Jo Ann':\"Mr X\":7:5:5:0:6:2:0:0:-1:-1:0:0:1:1:-1:1:-1:0:0:2:0:0:-1:1:0:0:-3:-7:"
    "1:1:6:6:0:0:2:1:1:0:-1:1:25:0:0:0:0:0:0:0:0:0",
    "board:alice:bob:99:98:20:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:"
    "0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0",
};

static const char *const option_texts[] = {
    "", " jacobyrule off", " crawfordrule off", " beavers off", " resignation 2",
    " resignation 3 crawfordrule on jacobyrule off", " JacobyRule YES",
};

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n'))
        abort(); /* a failure always says why, on one line */
}

/* The line of the template with field f (3..52) set to v. */
static void edit_field(char *line, size_t size, int f, int v)
{
    char copy[FIBS_LINE_MAX];
    snprintf(copy, sizeof copy, "%s", line);
    /* Fields are counted from the last one back, so quoted names with
     * colons inside cannot shift them. */
    char *p = copy + strlen(copy);
    for (int i = FIBS_FIELDS; i >= f; i--) {
        char *c = p - 1;
        while (c > copy && *c != ':')
            c--;
        if (i == f) {
            *c = '\0';
            snprintf(line, size, "%s:%d%s", copy, v, p);
            return;
        }
        p = c;
    }
}

static void same_name(const char *a, const char *b)
{
    /* The writer spells ':' as '_', as gnubg does. */
    for (; *a && *b; a++, b++)
        if (*a != *b && !(*a == ':' && *b == '_'))
            abort();
    if (*a || *b)
        abort();
}

/* Writes b back in gnubg's client convention and reads it again. */
static void write_back(const FibsParser *fp, const FibsBoard *b)
{
    FibsGame g;
    Err err = {{0}};
    int x_player = b->x_colour > 0 ? 1 : 0;
    if (!fibs_game_from_board(b, x_player, &g, &err)) {
        check_err(&err);
        return;
    }
    char out[FIBS_LINE_MAX];
    if (!fibs_write(&g, out, &err))
        abort(); /* every board we accept can be written */
    FibsBoard again;
    if (!fibs_read(fp, out, strlen(out), &b->options, &again, &err))
        abort();
    if (!pos_equal(&again.pos, &b->pos) || again.cube != b->cube ||
        again.cube_owner != b->cube_owner || again.doubled != b->doubled ||
        again.dice[0] != b->dice[0] || again.dice[1] != b->dice[1] ||
        again.match_length != b->match_length || again.crawford != b->crawford ||
        again.post_crawford != b->post_crawford || again.decision != b->decision ||
        again.score[FIBS_X] != b->score[FIBS_X] || again.score[FIBS_O] != b->score[FIBS_O])
        abort();
    same_name(b->name[FIBS_X], again.name[FIBS_X]);
    same_name(b->name[FIBS_O], again.name[FIBS_O]);
}

static void check_board(const FibsParser *fp, const FibsBoard *b)
{
    Err err = {{0}};
    if (!pos_valid(&b->pos, &err))
        abort();
    for (int s = 0; s < 2; s++) {
        size_t n = strlen(b->name[s]);
        if (n < 1 || n > FIBS_NAME_MAX)
            abort();
        for (size_t i = 0; i < n; i++)
            if (b->name[s][i] < 0x20 || b->name[s][i] >= 0x7f)
                abort();
    }
    if ((b->dice[0] == 0) != (b->dice[1] == 0) || b->dice[0] < 0 || b->dice[0] > 6 ||
        b->dice[1] < 0 || b->dice[1] > 6)
        abort();
    char posid[POSID_LEN + 1], matchid[MATCHID_LEN + 1];
    if (!fibs_to_ids(b, posid, matchid, &err))
        abort();
    Position p;
    MatchId m, want;
    fibs_matchid(b, &want);
    if (!posid_decode(posid, &p, &err) || !pos_equal(&p, &b->pos))
        abort();
    if (!matchid_decode(matchid, &m, &err) || !matchid_equal(&m, &want))
        abort();
    if (b->raw.field[FIBS_F_COLOUR] == 1 && b->raw.field[FIBS_F_DIRECTION] == -1)
        write_back(fp, b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FibsParser *fp; /* the harness's own, made once */
    if (!fp && !(fp = fibs_parser_new(0, NULL)))
        abort();
    char line[2 * FIBS_LINE_MAX];
    size_t len;
    if (size == 0 || !(data[0] & 1)) {
        len = size ? size - 1 : 0;
        if (len > sizeof line)
            len = sizeof line;
        if (len)
            memcpy(line, data + 1, len);
    } else {
        size_t t = size > 1 ? data[1] % (sizeof templates / sizeof templates[0]) : 0;
        snprintf(line, FIBS_LINE_MAX, "%s", templates[t]);
        size_t i = 2;
        for (; i + 1 < size && i < 2 + 2 * 12; i += 2) {
            int f = FIBS_F_MATCH_LENGTH + data[i] % FIBS_INTS;
            int v = (int8_t)data[i + 1];
            /* Now and then a value only the cube, scores or length take. */
            if (data[i] >= 200)
                v = data[i] >= 250 ? 9999 : 1 << (data[i + 1] % 17);
            edit_field(line, FIBS_LINE_MAX, f, v);
        }
        if (i < size)
            strncat(line, option_texts[data[i] % (sizeof option_texts / sizeof option_texts[0])],
                    FIBS_LINE_MAX - strlen(line) - 1);
        len = strlen(line);
    }
    FibsBoard b;
    Err err = {{0}};
    if (fibs_read(fp, line, len, NULL, &b, &err))
        check_board(fp, &b);
    else
        check_err(&err);
    return 0;
}
