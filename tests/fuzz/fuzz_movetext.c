/* fuzz_movetext.c - libFuzzer harness for the move parser and the two
 * printers. An input whose first byte is even is a move text: it must parse
 * into parts in range (or fail with a message), its plain form must parse
 * back to the same parts, and matching it against a position chosen by the
 * input must give a legal index, MOVETEXT_PASS or -1 with a message. An odd
 * first byte builds a position and a roll from the bytes: every legal move's
 * display and plain text must read back as that very move. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "movetext.h"
#include "posid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static MoveList list; /* 240 KB: too big for the fuzzer's stack */

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0])
        abort(); /* a failure always says why */
}

static bool same_parts(const Move *a, const Move *b)
{
    if (a->parts != b->parts)
        return false;
    for (int i = 0; i < a->parts; i++)
        if (a->from[i] != b->from[i] || a->to[i] != b->to[i])
            return false;
    return true;
}

/* A few positions to match texts against: the start, one with blots to hit
 * and one with a checker on the bar in front of a closed board. */
static void pick_position(unsigned k, Position *p)
{
    static const char *const ids[] = {"4HPwATDgc/ABMA", "4HPwATCwZ/ABMA", "n/MCEQD/TQAASQ",
                                       "LQBWOg2/DwRRAA", "/9cEAAD7XwAAAA"};
    if (!posid_decode(ids[k % (sizeof ids / sizeof ids[0])], p, NULL))
        abort();
}

static void fuzz_text(const uint8_t *data, size_t size)
{
    char text[512];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';

    Move m;
    Err err = {{0}};
    if (!movetext_parse(text, &m, &err)) {
        check_err(&err);
        return;
    }
    if (m.parts > MOVE_PARTS_MAX)
        abort();
    for (int i = 0; i < m.parts; i++)
        if (m.from[i] < 0 || m.from[i] > POS_BAR || m.to[i] < POS_OFF || m.to[i] >= POS_BAR)
            abort();

    Position p;
    pick_position(data[0] >> 1, &p);
    char plain[MOVETEXT_MAX], display[MOVETEXT_MAX];
    movetext_plain(&p, &m, plain);
    movetext_display(&p, &m, display);
    if (strlen(plain) >= MOVETEXT_MAX - 1 || strlen(display) >= MOVETEXT_MAX - 1)
        abort(); /* nothing may come near the limit */
    Move back;
    if (!movetext_parse(plain, &back, NULL) || !same_parts(&m, &back))
        abort();

    unsigned r = size > 1 ? data[1] : 0;
    int d1 = 1 + (int)(r % 6), d2 = 1 + (int)(r / 6 % 6);
    movegen_generate(&p, d1, d2, &list);
    int i = movetext_match_roll(&p, &list, d1, d2, text, &err);
    if (i == -1)
        check_err(&err);
    else if (i == MOVETEXT_PASS ? list.count != 0 : (i < 0 || i >= list.count))
        abort();
}

/* Checkers placed by the bytes: 15 a side at most, a byte % 26 choosing the
 * slot (25 = borne off); an opposing checker on a point the roller holds is
 * borne off instead, so that the position stays valid. */
static void fuzz_position(const uint8_t *data, size_t size)
{
    if (size < 32)
        return;
    Position p;
    memset(&p, 0, sizeof p);
    for (int k = 0; k < 15; k++) {
        unsigned s = data[1 + k] % 26u;
        if (s < POS_SLOTS)
            p.side[SIDE_ROLLER][s]++;
    }
    for (int k = 0; k < 15; k++) {
        unsigned s = data[16 + k] % 26u;
        if (s < 24 && p.side[SIDE_ROLLER][23 - s])
            continue;
        if (s < POS_SLOTS)
            p.side[SIDE_OPPONENT][s]++;
    }
    if (!pos_valid(&p, NULL))
        return;
    int d1 = 1 + data[31] % 6, d2 = 1 + data[31] / 6 % 6;
    int n = movegen_generate(&p, d1, d2, &list);
    for (int i = 0; i < n; i++) {
        char text[MOVETEXT_MAX];
        Err err = {{0}};
        movetext_display(&p, &list.moves[i], text);
        if (movetext_match_roll(&p, &list, d1, d2, text, &err) != i)
            abort();
        movetext_plain(&p, &list.moves[i], text);
        if (movetext_match_roll(&p, &list, d1, d2, text, &err) != i)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    if (data[0] & 1)
        fuzz_position(data, size);
    else
        fuzz_text(data, size);
    return 0;
}
