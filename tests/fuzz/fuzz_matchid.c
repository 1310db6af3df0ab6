/* fuzz_matchid.c - libFuzzer harness for the Match ID codec and the reader
 * of any ID (gnubgid_read_any).
 *
 * The input is read three ways: as text (any ID: a refusal must say why on
 * one line; an accepted Match ID or GNUBG-ID must encode back to itself), as
 * a 9-byte key written out in Base64 (so that most inputs reach the field
 * checks), and as raw field values for the encoder (which must refuse them
 * with a message or write an ID that reads back to the same fields). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "gnubgid.h"
#include "matchid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n'))
        abort(); /* a failure always says why, on one line */
}

static void check_decoded(const char *id, const MatchId *m)
{
    char back[MATCHID_LEN + 1];
    Err err;
    if (!matchid_valid(m, &err) || !matchid_encode(m, back, &err) || strcmp(back, id))
        abort();
    MatchId s = *m;
    matchid_swap_players(&s);
    if (!matchid_valid(&s, NULL))
        abort();
    matchid_swap_players(&s);
    if (!matchid_equal(&s, m))
        abort();
}

static void as_text(const uint8_t *data, size_t size)
{
    char s[96];
    size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
    memcpy(s, data, n);
    s[n] = '\0';
    MatchId m;
    Err err;
    if (matchid_decode(s, &m, &err))
        check_decoded(s, &m);
    else
        check_err(&err);

    AnyId a;
    if (!gnubgid_read_any(s, &a, &err)) {
        check_err(&err);
        return;
    }
    if (a.kind != gnubgid_kind(s) || (a.has_match && !matchid_valid(&a.match, NULL)) ||
        (a.has_position && !pos_valid(&a.pos, NULL)))
        abort();
    if (a.kind == ID_GNUBG) {
        char back[GNUBGID_LEN + 1];
        if (!gnubgid_encode(&a.pos, &a.match, back, &err) || strcmp(back, s))
            abort();
    }
}

static void as_key(const uint8_t *data, size_t size)
{
    uint8_t key[9] = {0};
    memcpy(key, data, size < 9 ? size : 9);
    char id[BASE64_CHARS(sizeof key) + 1]; /* MATCHID_LEN + 1 */
    base64_encode(key, sizeof key, id);
    MatchId m;
    Err err;
    if (matchid_decode(id, &m, &err))
        check_decoded(id, &m);
    else
        check_err(&err);
}

static void as_fields(const uint8_t *data, size_t size)
{
    uint8_t b[16] = {0};
    memcpy(b, data, size < sizeof b ? size : sizeof b);
    MatchId m = {
        .cube = 1 << (b[0] % 17), .cube_owner = b[1] % 4 - 1, .dice_owner = b[2] % 3,
        .crawford = b[3] & 1, .game_state = b[4] % 6, .turn = b[5] % 3, .doubled = b[6] & 1,
        .resigned = b[7] % 5, .dice = {b[8] % 8, b[9] % 8}, .match_length = b[10] % 70,
        .score = {b[11] % 70, b[12] % 70}, .jacoby = b[13] & 1,
    };
    if (b[14] & 1)
        m.cube -= b[15] % 3; /* not powers of two */
    char id[MATCHID_LEN + 1];
    Err err;
    if (!matchid_encode(&m, id, &err)) {
        check_err(&err);
        return;
    }
    MatchId r;
    if (!matchid_decode(id, &r, &err) || !matchid_equal(&r, &m))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_text(data, size);
    as_key(data, size);
    as_fields(data, size);
    return 0;
}
