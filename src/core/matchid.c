/* matchid.c - Match ID encoder and strict decoder (see matchid.h). */
#include "matchid.h"

#include <stdint.h>
#include <string.h>

#include "base64.h"

#define KEY_BYTES 9
_Static_assert(BASE64_CHARS(KEY_BYTES) == MATCHID_LEN &&
                   BASE64_BYTES(MATCHID_LEN) == KEY_BYTES,
               "a Match ID is its 9-byte key in 12 Base64 characters");

/* Where each field lives in the 72-bit key (bit k = bit k%8 of byte k/8). */
enum {
    AT_CUBE = 0, AT_OWNER = 4, AT_DICE_OWNER = 6, AT_CRAWFORD = 7,
    AT_STATE = 8, AT_TURN = 11, AT_DOUBLED = 12, AT_RESIGNED = 13,
    AT_DIE1 = 15, AT_DIE2 = 18, AT_LENGTH = 21, AT_SCORE0 = 36,
    AT_SCORE1 = 51, AT_NO_JACOBY = 66, KEY_USED_BITS = 67
};

#define OWNER_CENTRED 3 /* gnubg stores -1 & 3 */

static void put_bits(uint8_t *key, int at, int width, unsigned v)
{
    for (int i = 0; i < width; i++)
        if (v >> i & 1u)
            key[(at + i) >> 3] |= (uint8_t)(1u << ((at + i) & 7));
}

static int get_bits(const uint8_t *key, int at, int width)
{
    int v = 0;
    for (int i = 0; i < width; i++)
        v |= (key[(at + i) >> 3] >> ((at + i) & 7) & 1) << i;
    return v;
}

void matchid_init(MatchId *m)
{
    memset(m, 0, sizeof *m);
    m->cube = 1;
    m->cube_owner = -1;
    m->dice_owner = 1;
    m->turn = 1;
    m->game_state = MATCHID_GAME_PLAYING;
}

static int cube_log2(int cube)
{
    int n = 0;
    while ((1 << n) < cube)
        n++;
    return n;
}

static bool is_player(int p)
{
    return p == 0 || p == 1;
}

bool matchid_valid(const MatchId *m, Err *err)
{
    if (m->cube < 1 || m->cube > MATCHID_MAX_CUBE || (m->cube & (m->cube - 1)))
        return err_set(err, "cube value %d is not a power of two from 1 to %d", m->cube,
                       MATCHID_MAX_CUBE);
    if (m->cube_owner != -1 && !is_player(m->cube_owner))
        return err_set(err, "cube owner %d is not -1 (centred), 0 or 1", m->cube_owner);
    if (!is_player(m->dice_owner))
        return err_set(err, "dice owner %d is not player 0 or 1", m->dice_owner);
    if (!is_player(m->turn))
        return err_set(err, "turn %d is not player 0 or 1", m->turn);
    if (m->game_state < MATCHID_GAME_NONE || m->game_state > MATCHID_GAME_DROPPED)
        return err_set(err, "game state %d is not 0 (none), 1 (playing), 2 (over), "
                            "3 (resigned) or 4 (dropped)",
                       m->game_state);
    if (m->resigned < 0 || m->resigned > 3)
        return err_set(err, "resignation %d is not 0 (none), 1 (single), 2 (gammon) or "
                            "3 (backgammon)",
                       m->resigned);
    for (int i = 0; i < 2; i++)
        if (m->dice[i] < 0 || m->dice[i] > 6)
            return err_set(err, "die %d is %d, not 1 to 6 (or 0 for not rolled)", i + 1,
                           m->dice[i]);
    if ((m->dice[0] == 0) != (m->dice[1] == 0))
        return err_set(err, "dice %d and %d: either both dice are rolled or neither",
                       m->dice[0], m->dice[1]);
    if (m->match_length < 0 || m->match_length > MATCHID_MAX_LENGTH)
        return err_set(err, "match length %d is not 0 (money) to %d", m->match_length,
                       MATCHID_MAX_LENGTH);
    for (int i = 0; i < 2; i++)
        if (m->score[i] < 0 || m->score[i] > 0x7fff)
            return err_set(err, "score of player %d is %d, not 0 to 32767", i,
                           m->score[i]);
    if (m->match_length == 0) {
        if (m->crawford)
            return err_set(err, "Crawford game flag set in a money game (match length 0)");
        return true;
    }
    /* A finished match shows the winner at the length: gnubg writes that
     * (game over) and reads it. Beyond the length, gnubg's own reader refuses
     * it; before the game ends, reaching the length is impossible. */
    bool over = m->game_state >= MATCHID_GAME_OVER;
    for (int i = 0; i < 2; i++) {
        if (m->score[i] > m->match_length)
            return err_set(err, "score of player %d is %d, beyond the match length %d", i,
                           m->score[i], m->match_length);
        if (m->score[i] == m->match_length && !over)
            return err_set(err, "score of player %d is %d, the match length, but the game "
                                "is not over (game state %d)",
                           i, m->score[i], m->game_state);
    }
    if (m->score[0] == m->match_length && m->score[1] == m->match_length)
        return err_set(err, "both players have reached the match length %d",
                       m->match_length);
    return true;
}

bool matchid_encode(const MatchId *m, char out[MATCHID_LEN + 1], Err *err)
{
    if (!matchid_valid(m, err))
        return false;
    uint8_t key[KEY_BYTES] = {0};
    put_bits(key, AT_CUBE, 4, (unsigned)cube_log2(m->cube));
    put_bits(key, AT_OWNER, 2, m->cube_owner < 0 ? OWNER_CENTRED : (unsigned)m->cube_owner);
    put_bits(key, AT_DICE_OWNER, 1, (unsigned)m->dice_owner);
    put_bits(key, AT_CRAWFORD, 1, m->crawford);
    put_bits(key, AT_STATE, 3, (unsigned)m->game_state);
    put_bits(key, AT_TURN, 1, (unsigned)m->turn);
    put_bits(key, AT_DOUBLED, 1, m->doubled);
    put_bits(key, AT_RESIGNED, 2, (unsigned)m->resigned);
    put_bits(key, AT_DIE1, 3, (unsigned)m->dice[0]);
    put_bits(key, AT_DIE2, 3, (unsigned)m->dice[1]);
    put_bits(key, AT_LENGTH, 15, (unsigned)m->match_length);
    put_bits(key, AT_SCORE0, 15, (unsigned)m->score[0]);
    put_bits(key, AT_SCORE1, 15, (unsigned)m->score[1]);
    put_bits(key, AT_NO_JACOBY, 1, !m->jacoby);
    /* 72 bits make exactly 12 characters. */
    base64_encode(key, KEY_BYTES, out);
    return true;
}

bool matchid_decode(const char *id, MatchId *m, Err *err)
{
    if (!id)
        return err_set(err, "no Match ID given");
    size_t len = strlen(id);
    if (len != MATCHID_LEN)
        return err_set(err, "a Match ID has %d characters, this one has %zu", MATCHID_LEN,
                       len);
    uint8_t key[KEY_BYTES];
    size_t bad;
    if (!base64_decode(id, MATCHID_LEN, key, &bad))
        return err_set(err, "character %zu of the Match ID (0x%02x) is not in the "
                            "Base64 alphabet A-Z a-z 0-9 + /",
                       bad + 1, (unsigned char)id[bad]);
    if (get_bits(key, KEY_USED_BITS, 8 * KEY_BYTES - KEY_USED_BITS))
        return err_set(err, "the Match ID sets bits after bit 66, which no gnubg writes");

    MatchId r;
    memset(&r, 0, sizeof r);
    r.cube = 1 << get_bits(key, AT_CUBE, 4);
    int owner = get_bits(key, AT_OWNER, 2);
    if (owner == 2)
        return err_set(err, "the Match ID's cube owner field is 2; it must be 0, 1 or "
                            "3 (centred)");
    r.cube_owner = owner == OWNER_CENTRED ? -1 : owner;
    r.dice_owner = get_bits(key, AT_DICE_OWNER, 1);
    r.crawford = get_bits(key, AT_CRAWFORD, 1);
    r.game_state = get_bits(key, AT_STATE, 3);
    r.turn = get_bits(key, AT_TURN, 1);
    r.doubled = get_bits(key, AT_DOUBLED, 1);
    r.resigned = get_bits(key, AT_RESIGNED, 2);
    r.dice[0] = get_bits(key, AT_DIE1, 3);
    r.dice[1] = get_bits(key, AT_DIE2, 3);
    r.match_length = get_bits(key, AT_LENGTH, 15);
    r.score[0] = get_bits(key, AT_SCORE0, 15);
    r.score[1] = get_bits(key, AT_SCORE1, 15);
    r.jacoby = !get_bits(key, AT_NO_JACOBY, 1);
    if (!matchid_valid(&r, err))
        return false;
    *m = r;
    return true;
}

void matchid_swap_players(MatchId *m)
{
    if (m->cube_owner >= 0)
        m->cube_owner = !m->cube_owner;
    m->dice_owner = !m->dice_owner;
    m->turn = !m->turn;
    int s = m->score[0];
    m->score[0] = m->score[1];
    m->score[1] = s;
}

bool matchid_equal(const MatchId *a, const MatchId *b)
{
    return a->cube == b->cube && a->cube_owner == b->cube_owner &&
           a->dice_owner == b->dice_owner && a->crawford == b->crawford &&
           a->game_state == b->game_state && a->turn == b->turn &&
           a->doubled == b->doubled && a->resigned == b->resigned &&
           a->dice[0] == b->dice[0] && a->dice[1] == b->dice[1] &&
           a->match_length == b->match_length && a->score[0] == b->score[0] &&
           a->score[1] == b->score[1] && a->jacoby == b->jacoby;
}

const char *matchid_game_state_name(int game_state)
{
    static const char *const names[] = {"none", "playing", "over", "resigned", "dropped"};
    if (game_state < 0 || game_state > MATCHID_GAME_DROPPED)
        return "unknown";
    return names[game_state];
}

const char *matchid_resign_name(int resigned)
{
    static const char *const names[] = {"none", "single game", "gammon", "backgammon"};
    if (resigned < 0 || resigned > 3)
        return "unknown";
    return names[resigned];
}
